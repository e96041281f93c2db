package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.TokenUsage;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.support.TraceRecorder;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import dev.sqlagent.trace.Stage;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Rules the documentation promises where a budget or dropped candidates meet the policy, each as a
 * scenario through {@code ask} with a scripted model on H2: extra candidate calls are cut to the budget
 * and the question goes on; SQL written before a spent budget ended the question is still guarded, so a
 * violation rejects; SQL no guard accepted never reaches a later prompt; every violation is counted.
 */
@ExtendWith(LegalTraceExtension.class)
class PromisedRulesTest {

    private static final String REFINER = AgentRole.REFINER.id();
    private static final String FORBIDDEN = "SELECT base_salary FROM salary_detail";

    private CompanyDatabase db;
    private ScriptedLlm llm;

    @BeforeEach
    void setUp() {
        db = CompanyDatabase.create();
        llm = ScriptedLlm.create();
    }

    private SqlAgent.Builder agent(TraceRecorder recorder) {
        return SqlAgent.builder().llm(llm).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).listener(recorder);
    }

    private static QuestionBudget calls(int max) {
        return QuestionBudget.unlimited().withMaxModelCalls(max);
    }

    // ---- extra candidate requests are cut to the budget ----

    @Test
    void extraCandidateCallsPastTheBudgetAreCutAndTheQuestionAnswersFromItsOneCandidate(TraceRecorder recorder) {
        // a client that ignores n: one text per request; the budget allows only the first request
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM employees").enqueueFor(REFINER, "SELECT 2")
                .enqueueFor(REFINER, "SELECT 3");
        try (SqlAgent agent = agent(recorder).candidates(3).budget(calls(1)).build()) {
            AgentResult r = recorder.track(agent.ask("How many employees?"));

            assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
            assertThat(r.sql()).contains("SELECT COUNT(*) FROM employees");
            assertThat(llm.callCount()).isEqualTo(1);
            assertThat(r.trace().guardChecks()).hasSize(1);
            assertThat(r.trace().notes()).anyMatch(n -> n.kind().equals("budget")
                    && n.message().contains("0 of 2 extra candidate calls"));
            assertThat(agent.metrics().failuresByKind()).isEmpty();
        }
    }

    @Test
    void theOneCandidateTheBudgetAllowedIsRejectedWhenItReadsAForbiddenTable(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, FORBIDDEN).enqueueFor(REFINER, "SELECT 2").enqueueFor(REFINER, "SELECT 3");
        try (SqlAgent agent = agent(recorder).candidates(3).budget(calls(1)).build()) {
            AgentResult r = recorder.track(agent.ask("What does each employee earn?"));

            assertThat(r.status()).isEqualTo(AgentResult.Status.REJECTED);
            assertThat(((AgentResult.Rejected) r).violations()).extracting(v -> v.type())
                    .containsExactly(ViolationType.TABLE_NOT_ALLOWED);
            assertThat(r.trace().executions()).isEmpty();
            assertThat(agent.metrics().rejected()).isEqualTo(1);
            assertThat(agent.metrics().failed()).isZero();
        }
    }

    @Test
    void extraCandidateCallsUseWhatIsLeftOfTheBudget(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM employees").enqueueFor(REFINER, "SELECT COUNT(*) FROM employees")
                .enqueueFor(REFINER, "SELECT 3");
        try (SqlAgent agent = agent(recorder).candidates(3).budget(calls(2)).build()) {
            AgentResult r = recorder.track(agent.ask("How many employees?"));

            assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
            assertThat(llm.callCount()).isEqualTo(2);
            assertThat(r.trace().guardChecks()).hasSize(2);
        }
    }

    // ---- SQL written before a spent token budget is still guarded ----

    @Test
    void aViolationWrittenPastTheTokenBudgetIsRejectedNotReportedAsABudgetFailure(TraceRecorder recorder) {
        llm.enqueueResponse(REFINER, new LlmResponse(List.of(FORBIDDEN), new TokenUsage(500, 500), "m"));
        try (SqlAgent agent = agent(recorder).budget(QuestionBudget.unlimited().withMaxTokens(10)).build()) {
            AgentResult r = recorder.track(agent.ask("What does each employee earn?"));

            assertThat(r.status()).isEqualTo(AgentResult.Status.REJECTED);
            assertThat(r.trace().stages()).containsExactly(Stage.RECEIVED, Stage.GENERATE, Stage.GUARD,
                    Stage.REJECTED);
            assertThat(r.trace().executions()).isEmpty();
            assertThat(llm.callCount()).isEqualTo(1);
            assertThat(agent.metrics().rejectionsByViolationType()).containsEntry(ViolationType.TABLE_NOT_ALLOWED, 1L);
        }
    }

    @Test
    void anAcceptedCandidateWrittenPastTheTokenBudgetIsCheckedButNeverRun(TraceRecorder recorder) {
        llm.enqueueResponse(REFINER, new LlmResponse(List.of("SELECT name FROM employees"),
                new TokenUsage(500, 500), "m"));
        try (SqlAgent agent = agent(recorder).budget(QuestionBudget.unlimited().withMaxTokens(10)).build()) {
            AgentResult r = recorder.track(agent.ask("List the employees"));

            assertThat(((AgentResult.Failed) r).kind()).isEqualTo(FailureKind.TOKENS_EXCEEDED);
            assertThat(r.trace().guardChecks()).singleElement()
                    .satisfies(g -> assertThat(g.verdict()).isInstanceOf(GuardVerdict.Accepted.class));
            assertThat(r.trace().executions()).isEmpty();
            assertThat(r.trace().stages()).containsExactly(Stage.RECEIVED, Stage.GENERATE, Stage.GUARD,
                    Stage.FAILED);
        }
    }

    @Test
    void aCorrectionThatBreaksThePolicyPastTheTokenBudgetIsRejected(TraceRecorder recorder) {
        llm.enqueueResponse(REFINER, new LlmResponse(List.of("SELECT name, COUNT(*) FROM employees"),
                new TokenUsage(10, 10), "m"));
        llm.enqueueResponse(REFINER, new LlmResponse(
                List.of("{\"reason\": \"r\", \"sql\": \"" + FORBIDDEN + "\"}"), new TokenUsage(500, 500), "m"));
        try (SqlAgent agent = agent(recorder).budget(QuestionBudget.unlimited().withMaxTokens(100)).build()) {
            AgentResult r = recorder.track(agent.ask("What does each employee earn?"));

            assertThat(r.status()).isEqualTo(AgentResult.Status.REJECTED);
            assertThat(r.sql()).contains(FORBIDDEN);
            assertThat(r.trace().correctionCount()).isEqualTo(1);
            assertThat(r.trace().executions()).hasSize(1); // the first, failing candidate only
        }
    }

    // ---- SQL no guard accepted never reaches a later prompt ----

    @Test
    void aViolationWrittenPastTheTokenBudgetIsNeverShownToTheNextTurnsRewriter(TraceRecorder recorder) {
        Conversation c = agent(recorder).budget(QuestionBudget.unlimited().withMaxTokens(20_000)).build()
                .conversation();
        llm.enqueueResponse(REFINER, new LlmResponse(List.of(FORBIDDEN), new TokenUsage(50_000, 500), "m"));
        assertThat(recorder.track(c.ask("What are the salaries?")).status()).isEqualTo(AgentResult.Status.REJECTED);
        llm.enqueueFor("rewriter", "{\"question\": \"How many employees are there?\"}");
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM employees");
        AgentResult r = recorder.track(c.ask("and how many employees?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(llm.requests("rewriter").get(0).text()).doesNotContain("salary_detail", "base_salary");
    }

    @Test
    void sqlNoGuardAcceptedIsNeverShownToTheNextTurnsRewriter(TraceRecorder recorder) {
        Conversation c = agent(recorder).build().conversation();
        // unparseable twice: the question fails, and its SQL never passed a guard
        llm.enqueueFor(REFINER, "SELECT base_salary FROM salary_detail WHERE");
        llm.enqueueFor(REFINER, "{\"reason\": \"r\", \"sql\": \"SELECT base_salary FROM salary_detail WHERE AND\"}");
        AgentResult first = recorder.track(c.ask("What are the salaries?"));
        assertThat(first.status()).isEqualTo(AgentResult.Status.FAILED);
        assertThat(first.sql()).hasValueSatisfying(s -> assertThat(s).contains("salary_detail"));

        llm.enqueueFor("rewriter", "{\"question\": \"How many employees are there?\"}");
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM employees");
        recorder.track(c.ask("and how many employees?"));

        assertThat(llm.requests("rewriter").get(0).text()).doesNotContain("salary_detail", "base_salary")
                .contains("not accepted by the guard");
    }

    @Test
    void failingSqlTheGuardAcceptedIsStillShownToTheNextTurnsRewriter(TraceRecorder recorder) {
        Conversation c = agent(recorder).correction(false).build().conversation();
        llm.enqueueFor(REFINER, "SELECT name, COUNT(*) FROM employees");
        assertThat(recorder.track(c.ask("Nicknames?")).status()).isEqualTo(AgentResult.Status.FAILED);
        llm.enqueueFor("rewriter", "{\"question\": \"How many employees are there?\"}");
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM employees");
        recorder.track(c.ask("and how many employees?"));

        assertThat(llm.requests("rewriter").get(0).text()).contains("SELECT name, COUNT(*) FROM employees");
    }

    // ---- every violation is counted ----

    @Test
    void aDroppedViolationIsCountedWhenTheQuestionThenFails(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT name, COUNT(*) FROM employees", FORBIDDEN);
        try (SqlAgent agent = agent(recorder).candidates(2).dropViolatingCandidates(true).build()) {
            AgentResult r = recorder.track(agent.ask("Employee names"));

            assertThat(r.status()).isEqualTo(AgentResult.Status.FAILED);
            assertThat(agent.metrics().droppedViolations()).isEqualTo(1);
            assertThat(r.trace().notes()).anyMatch(n -> n.kind().equals("dropped_candidates")
                    && n.message().startsWith("1 candidate(s)"));
        }
    }

    @Test
    void aDroppedViolationIsCountedWhenABudgetEndsTheQuestionAfterTheGuard(TraceRecorder recorder) {
        llm.enqueueResponse(REFINER, new LlmResponse(List.of("SELECT name FROM employees", FORBIDDEN),
                new TokenUsage(500, 500), "m"));
        try (SqlAgent agent = agent(recorder).candidates(2).dropViolatingCandidates(true)
                .budget(QuestionBudget.unlimited().withMaxTokens(10)).build()) {
            AgentResult r = recorder.track(agent.ask("Employee names"));

            assertThat(((AgentResult.Failed) r).kind()).isEqualTo(FailureKind.TOKENS_EXCEEDED);
            assertThat(r.trace().executions()).isEmpty();
            assertThat(agent.metrics().droppedViolations()).isEqualTo(1);
        }
    }

    @Test
    void aDroppedViolationIsCountedOnceWhenTheQuestionAnswers(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT name FROM employees", FORBIDDEN);
        try (SqlAgent agent = agent(recorder).candidates(2).dropViolatingCandidates(true).build()) {
            AgentResult r = recorder.track(agent.ask("Employee names"));

            assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
            assertThat(((AgentResult.Answered) r).droppedCandidates()).hasSize(1);
            assertThat(agent.metrics().droppedViolations()).isEqualTo(1);
        }
    }
}
