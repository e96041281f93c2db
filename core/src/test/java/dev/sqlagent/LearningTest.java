package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.cases.CaseLibrary;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.support.TraceRecorder;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import dev.sqlagent.verify.Verifiers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The fix cache, few-shot examples and past repairs, end to end on the company database. */
@ExtendWith(LegalTraceExtension.class)
class LearningTest {

    private final CompanyDatabase db = CompanyDatabase.create();
    private final ScriptedLlm llm = ScriptedLlm.create();

    private SqlAgent.Builder agent(TraceRecorder recorder) {
        return SqlAgent.builder().llm(llm).dataSource(db.analyst()).listener(recorder)
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES));
    }

    private static String fix(String sql) {
        return "{\"reason\": \"the column is name\", \"sql\": \"" + sql + "\"}";
    }

    @Test
    void verifiedFixIsReusedWithoutAskingTheModel(TraceRecorder recorder) {
        SqlAgent agent = agent(recorder).build();
        llm.enqueueFor("refiner", "SELECT nme FROM employees");
        llm.enqueueFor("refiner", fix("SELECT name FROM employees"));
        llm.enqueueFor("refiner", "SELECT nme FROM employees");
        recorder.track(agent.ask("List employee names"));
        int before = llm.callCount();

        AgentResult second = recorder.track(agent.ask("Names of all employees"));

        assertThat(second.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(llm.callCount() - before).isEqualTo(1);
        assertThat(second.trace().notes()).anySatisfy(n -> assertThat(n.kind()).isEqualTo("fix_cache"));
        assertThat(second.trace().correction().orElseThrow().correctedSql()).isEqualTo("SELECT name FROM employees");
    }

    @Test
    void fixThatFailedIsNeverCached(TraceRecorder recorder) {
        SqlAgent agent = agent(recorder).build();
        llm.enqueueFor("refiner", "SELECT nme FROM employees");
        llm.enqueueFor("refiner", fix("SELECT nam FROM employees"));
        llm.enqueueFor("refiner", "SELECT nme FROM employees");
        llm.enqueueFor("refiner", fix("SELECT name FROM employees"));
        recorder.track(agent.ask("List employee names"));

        AgentResult second = recorder.track(agent.ask("Names of all employees"));

        assertThat(second.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(llm.callCount()).isEqualTo(4);
        assertThat(second.trace().notes()).noneSatisfy(n -> assertThat(n.kind()).isEqualTo("fix_cache"));
    }

    @Test
    void verifiedAnswersBecomeFewShotExamplesForSimilarQuestions(TraceRecorder recorder) {
        CaseLibrary library = CaseLibrary.builder().build();
        SqlAgent.Builder b = agent(recorder).caseLibrary(library);
        Verifiers.standard().forEach(b::verifier);
        SqlAgent agent = b.build();
        llm.enqueueFor("refiner", "SELECT COUNT(*) FROM orders WHERE status = 'paid'");
        llm.enqueueFor("refiner", "SELECT COUNT(*) FROM orders WHERE status = 'refunded'");
        recorder.track(agent.ask(Question.of("How many paid orders are there?").withTable("orders")));

        recorder.track(agent.ask(Question.of("How many refunded orders are there?").withTable("orders")));

        String prompt = llm.requests("refiner").get(1).messages().get(0).content();
        assertThat(prompt).contains("Solved questions like this one", "How many paid orders are there?",
                "status = 'paid'");
        assertThat(llm.requests("refiner").get(0).messages().get(0).content()).doesNotContain("Solved questions");
    }

    @Test
    void examplesReadingTablesThePolicyNowForbidsAreNeverShown(TraceRecorder recorder) {
        CaseLibrary library = CaseLibrary.builder().build();
        SqlAgent.Builder b = agent(recorder).caseLibrary(library);
        Verifiers.standard().forEach(b::verifier);
        SqlAgent agent = b.build();
        llm.enqueueFor("refiner", "SELECT COUNT(*) FROM orders WHERE status = 'paid'");
        llm.enqueueFor("refiner", "SELECT COUNT(*) FROM employees");
        recorder.track(agent.ask("How many paid orders are there?"));

        GuardPolicy noOrders = GuardPolicy.allowingTables("employees", "departments");
        recorder.track(agent.ask(Question.of("How many paid orders are there today?").withPolicy(noOrders)));

        String prompt = llm.requests("refiner").get(1).messages().get(0).content();
        assertThat(prompt).doesNotContain("Solved questions").doesNotContain("CREATE TABLE ORDERS");
    }

    @Test
    void unverifiedAnswersAreNotExamples(TraceRecorder recorder) {
        CaseLibrary library = CaseLibrary.builder().build();
        SqlAgent agent = agent(recorder).caseLibrary(library).build();
        llm.enqueueFor("refiner", "SELECT COUNT(*) FROM orders WHERE status = 'paid'");
        llm.enqueueFor("refiner", "SELECT COUNT(*) FROM orders WHERE status = 'refunded'");
        recorder.track(agent.ask("How many paid orders are there?"));
        recorder.track(agent.ask("How many refunded orders are there?"));

        assertThat(llm.requests("refiner").get(1).messages().get(0).content()).doesNotContain("Solved questions");
    }

    @Test
    void pastRepairsOfTheSameKindAreShownInTheCorrection(TraceRecorder recorder) {
        CaseLibrary library = CaseLibrary.builder().build();
        SqlAgent agent = agent(recorder).caseLibrary(library).fixCache(false).build();
        llm.enqueueFor("refiner", "SELECT nme FROM employees");
        llm.enqueueFor("refiner", fix("SELECT name FROM employees"));
        llm.enqueueFor("refiner", "SELECT nme, title FROM employees");
        llm.enqueueFor("refiner", fix("SELECT name, title FROM employees"));
        recorder.track(agent.ask("List employee names"));

        AgentResult second = recorder.track(agent.ask("List employee names and titles"));

        assertThat(second.status()).isEqualTo(AgentResult.Status.ANSWERED);
        String correction = llm.requests("refiner").get(3).text();
        assertThat(correction).contains("Similar failures fixed before", "wrong: SELECT nme FROM employees",
                "fixed: SELECT name FROM employees");
    }
}
