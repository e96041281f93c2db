package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.support.TraceRecorder;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LegalTraceExtension.class)
class SqlAgentBuilderTest {

    private final CompanyDatabase db = CompanyDatabase.create();

    @Test
    void buildNamesWhatIsMissing() {
        assertThatThrownBy(() -> SqlAgent.builder().build()).hasMessageContaining("llm(client)");
        assertThatThrownBy(() -> SqlAgent.builder().llm(ScriptedLlm.create()).build()).hasMessageContaining("policy");
        assertThatThrownBy(() -> SqlAgent.builder().llm(ScriptedLlm.create()).policy(GuardPolicy.allowingTables("t")).build())
                .hasMessageContaining("dataSource");
        assertThatThrownBy(() -> SqlAgent.builder().llm(ScriptedLlm.create()).policy(GuardPolicy.allowingTables("t"))
                .executor(s -> null).build()).hasMessageContaining("dialect");
    }

    @Test
    void settersNameTheBadValue() {
        assertThatThrownBy(() -> SqlAgent.builder().maxQuestionLength(0)).hasMessage("maxQuestionLength must be > 0 but was 0");
        assertThatThrownBy(() -> SqlAgent.builder().temperature(3)).hasMessageContaining("temperature");
        assertThatThrownBy(() -> GuardPolicy.builder().build()).hasMessageContaining("at least one table");
        assertThatThrownBy(() -> GuardPolicy.builder().maxRows(-1)).hasMessage("maxRows must be > 0 but was -1");
    }

    @Test
    void unreachableDatabaseWithoutADialectFailsTheBuildClearly() {
        javax.sql.DataSource down = new org.h2.jdbcx.JdbcDataSource();
        ((org.h2.jdbcx.JdbcDataSource) down).setURL("jdbc:h2:mem:nothing;IFEXISTS=TRUE");
        assertThatThrownBy(() -> SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(down)
                .policy(GuardPolicy.allowingTables("orders")).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("pass dialect(...)");
        SqlAgent agent = SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(down).dialect(Dialect.H2)
                .policy(GuardPolicy.allowingTables("orders")).build();
        AgentResult r = agent.ask("How many orders?");
        assertThat(((AgentResult.Failed) r).kind()).isEqualTo(FailureKind.ENVIRONMENT);
    }

    @Test
    void nullQuestionIsACallerError() {
        SqlAgent agent = SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables("orders")).build();
        assertThatThrownBy(() -> agent.ask((String) null)).isInstanceOf(NullPointerException.class).hasMessage("question");
    }

    @Test
    void dialectIsDetectedFromTheDataSource() {
        SqlAgent agent = SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables("orders")).build();
        assertThat(agent.dialect()).isEqualTo(Dialect.H2);
    }

    @Test
    void oneAgentServesManyThreads(TraceRecorder recorder) throws Exception {
        ScriptedLlm llm = ScriptedLlm.create().fallback(req -> LlmResponse.of(
                req.text().contains("Question: count orders") ? "SELECT COUNT(*) FROM orders" : "SELECT COUNT(*) FROM employees"));
        AtomicInteger asyncRuns = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db.analyst())
                    .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).listener(recorder)
                    .asyncExecutor(r -> {
                        asyncRuns.incrementAndGet();
                        pool.execute(r);
                    }).build();
            List<CompletableFuture<AgentResult>> futures = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                futures.add(agent.askAsync(i % 2 == 0 ? "count orders" : "count employees"));
            }
            for (int i = 0; i < futures.size(); i++) {
                AgentResult r = recorder.track(futures.get(i).get(2, java.util.concurrent.TimeUnit.MINUTES));
                assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
                Object count = ((AgentResult.Answered) r).table().rows().get(0).get(0);
                assertThat(count).isEqualTo(i % 2 == 0 ? 120L : 12L);
            }
            assertThat(asyncRuns.get()).isEqualTo(64);
            assertThat(agent.metrics().answered()).isEqualTo(64);
            assertThat(agent.metrics().modelCallsPerQuestion()).isEqualTo(1.0);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void metricsCountCorrectionsAndTheirSuccess(TraceRecorder recorder) {
        ScriptedLlm llm = ScriptedLlm.create()
                .enqueue("SELECT name, COUNT(*) FROM employees")
                .enqueue("{\"reason\": \"group\", \"sql\": \"SELECT name FROM employees\"}")
                .enqueue("SELECT name, COUNT(*) FROM employees")
                .enqueue("{\"reason\": \"group\", \"sql\": \"SELECT name, MAX(id) FROM employees\"}");
        SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db.analyst()).listener(recorder).fixCache(false)
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).build();
        recorder.track(agent.ask("names"));
        recorder.track(agent.ask("names again"));

        AgentMetrics m = agent.metrics();
        assertThat(m.executions()).isEqualTo(4);
        assertThat(m.corrections()).isEqualTo(2);
        // both questions reached the guard and both were corrected: questions corrected / questions checked
        assertThat(m.correctionTriggerRate()).isEqualTo(1.0);
        assertThat(m.correctionSuccessRate()).isEqualTo(0.5);
        assertThat(m.failuresByKind()).containsEntry(FailureKind.STILL_FAILING, 1L);
        assertThat(m.failuresByErrorCategory()).containsEntry(dev.sqlagent.execution.ErrorCategory.GROUPING_ERROR, 1L);
        assertThat(m.modelCallsByRole()).containsEntry("refiner", 4L);
        assertThat(m.correctionsSucceeded()).isEqualTo(1);
    }

    @Test
    void metricsCountRejectionsByViolationTypeAndTokensByDirection(TraceRecorder recorder) {
        ScriptedLlm llm = ScriptedLlm.create()
                .enqueueResponse("refiner", new LlmResponse(
                        List.of("SELECT base_salary FROM salary_detail"), new dev.sqlagent.llm.TokenUsage(40, 9), ""))
                .enqueueResponse("refiner", new LlmResponse(List.of("SELECT name FROM employees; DELETE FROM employees"),
                        new dev.sqlagent.llm.TokenUsage(60, 3), ""));
        SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).listener(recorder).build();
        recorder.track(agent.ask("salaries"));
        recorder.track(agent.ask("names, then clean up"));

        AgentMetrics m = agent.metrics();
        assertThat(m.rejected()).isEqualTo(2);
        assertThat(m.rejectionsByViolationType())
                .containsEntry(dev.sqlagent.guard.ViolationType.TABLE_NOT_ALLOWED, 1L)
                .containsEntry(dev.sqlagent.guard.ViolationType.MULTIPLE_STATEMENTS, 1L);
        assertThat(m.inputTokensByRole()).containsEntry("refiner", 100L);
        assertThat(m.outputTokensByRole()).containsEntry("refiner", 12L);
        assertThat(m.tokensByRole()).containsEntry("refiner", 112L);
    }
}
