package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.internal.JudgeReply;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.support.TraceRecorder;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import dev.sqlagent.trace.TraceEvent;
import dev.sqlagent.verify.JudgeVerdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LegalTraceExtension.class)
class JudgeTest {

    private final CompanyDatabase db = CompanyDatabase.create();
    private final ScriptedLlm refiner = ScriptedLlm.create();
    private final ScriptedLlm judge = ScriptedLlm.create();

    private SqlAgent.Builder agent(TraceRecorder recorder) {
        return SqlAgent.builder().llm(refiner).llm(AgentRole.JUDGE, judge).judge(true).dataSource(db.analyst())
                .listener(recorder).policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES));
    }

    @Test
    void incorrectVerdictUsesTheSingleCorrectionWithTheAdvice(TraceRecorder recorder) {
        refiner.enqueue("SELECT COUNT(*) FROM orders");
        judge.enqueue("{\"is_correct\": false, \"score\": 20, \"error_tags\": [\"FILTER_CONDITION_FIX\"],"
                + " \"repair_task\": \"keep only paid orders\", \"comment\": \"counts every order\","
                + " \"advice\": \"add status = 'paid'\"}");
        refiner.enqueue("{\"reason\": \"only paid\", \"sql\": \"SELECT COUNT(*) FROM orders WHERE status = 'paid'\"}");
        judge.enqueue("{\"is_correct\": true, \"score\": 90}");
        AgentResult r = recorder.track(agent(recorder).build().ask("How many paid orders are there?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().correction().orElseThrow().originalError()).contains("add status = 'paid'")
                .contains("FILTER_CONDITION_FIX");
        assertThat(r.trace().events()).filteredOn(e -> e instanceof TraceEvent.Judged).hasSize(2);
        assertThat(refiner.requests().get(1).text()).contains("keep only paid orders");
    }

    @Test
    void correctVerdictAnswersWithoutCorrection(TraceRecorder recorder) {
        refiner.enqueue("SELECT COUNT(*) FROM orders");
        judge.enqueue("Sure. ```json\n{'is_correct': true, score: 95, error_tags: []}\n```");
        AgentResult r = recorder.track(agent(recorder).build().ask("How many orders?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.corrected()).isFalse();
        assertThat(judge.callCount()).isEqualTo(1);
    }

    @Test
    void failingJudgeIsNotedAndTheAnswerStands(TraceRecorder recorder) {
        refiner.enqueue("SELECT COUNT(*) FROM orders");
        judge.enqueueFault("judge", ScriptedLlm.Fault.TIMEOUT);
        AgentResult r = recorder.track(agent(recorder).build().ask("How many orders?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().notes()).anySatisfy(n -> assertThat(n.kind()).isEqualTo("judge"));
    }

    @Test
    void judgeBreaksATieBetweenEquallyLargeGroups(TraceRecorder recorder) {
        refiner.enqueue("SELECT COUNT(*) FROM orders", "SELECT COUNT(*) FROM orders WHERE status = 'paid'");
        judge.enqueue("{\"choice\": 2, \"is_correct\": true, \"score\": 85}");
        AgentResult r = recorder.track(agent(recorder).candidates(2).build().ask("How many paid orders?"));

        TraceEvent.Chosen chosen = r.trace().events().stream().filter(e -> e instanceof TraceEvent.Chosen)
                .map(e -> (TraceEvent.Chosen) e).findFirst().orElseThrow();
        assertThat(chosen.rule()).isEqualTo("judge");
        assertThat(chosen.candidate()).isEqualTo(1);
        // one call: the finalists side by side; its verdict on the pick serves as the verification
        assertThat(judge.callCount()).isEqualTo(1);
        assertThat(judge.requests().get(0).text()).contains("Answer 1:").contains("Answer 2:")
                .contains("WHERE status = 'paid'");
        assertThat(r.corrected()).isFalse();
    }

    @Test
    void verdictParsingIsLenientButNeedsIsCorrect() {
        assertThat(JudgeReply.parse("{\"is_correct\": \"false\", \"score\": \"42.6\", \"error_tags\": [\"JOIN_FIX\","
                + " \"weird\"]}")).get().satisfies(v -> {
                    assertThat(v.correct()).isFalse();
                    assertThat(v.score()).isEqualTo(43);
                    assertThat(v.errorTags()).containsExactly(JudgeVerdict.Tag.JOIN_FIX, JudgeVerdict.Tag.OTHER);
                });
        assertThat(JudgeReply.parse("{\"score\": 10}")).isEmpty();
        assertThat(JudgeReply.parse("no json here")).isEmpty();
        assertThat(JudgeReply.parse("{\"is_correct\": true, \"score\": 400}")).get()
                .extracting(JudgeVerdict::score).isEqualTo(100);
    }
}
