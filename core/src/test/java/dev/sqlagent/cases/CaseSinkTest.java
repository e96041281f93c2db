package dev.sqlagent.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.AgentResult;
import dev.sqlagent.AgentRole;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class CaseSinkTest {

    private final CompanyDatabase db = CompanyDatabase.create();
    private final ScriptedLlm llm = ScriptedLlm.create();

    private SqlAgent.Builder agent() {
        return SqlAgent.builder().llm(llm).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES));
    }

    @Test
    void everyQuestionBecomesOneCaseGoodOrBad() {
        InMemoryCaseSink sink = new InMemoryCaseSink();
        SqlAgent agent = agent().caseSink(sink).build();
        llm.enqueueFor(AgentRole.REFINER.id(), "SELECT COUNT(*) FROM orders");
        llm.enqueueFor(AgentRole.REFINER.id(), "SELECT base_salary FROM salary_detail");
        agent.ask("How many orders?");
        agent.ask("Salaries?");

        assertThat(sink.cases()).extracting(CaseRecord::status).containsExactly(CaseRecord.Status.GOOD, CaseRecord.Status.BAD);
        CaseRecord bad = sink.cases().get(1);
        assertThat(bad.outcome()).isEqualTo("REJECTED");
        assertThat(bad.error()).isEqualTo("table is not allowed: salary_detail");
        assertThat(bad.traceJson()).contains("\"verdict\":\"REJECTED\"").contains("\"type\":\"model_call\"");
    }

    @Test
    void failingSinkNeverFailsTheQuestionAndIsCounted(@org.junit.jupiter.api.io.TempDir java.nio.file.Path journal)
            throws Exception {
        InMemoryCaseSink after = new InMemoryCaseSink();
        SqlAgent agent = agent().caseSink(r -> {
            throw new IllegalStateException("disk full");
        }).caseSink(after).caseJournal(journal).build();
        llm.enqueueFor(AgentRole.REFINER.id(), "SELECT COUNT(*) FROM orders");

        AgentResult r = agent.ask("How many orders?");
        assertThat(agent.awaitCases(java.time.Duration.ofSeconds(30))).isTrue();

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(agent.metrics().sinkFailures()).isGreaterThanOrEqualTo(1);
        assertThat(after.cases()).hasSize(1);
        assertThat(agent.caseDeliveries().get(0).journalled()).isEqualTo(1);
        assertThat(JsonlCaseSink.read(journal.resolve("cases-0.jsonl"))).extracting(CaseRecord::id)
                .containsExactly(r.trace().questionId());
    }

    @Test
    void failedDeliveryReachesTheSinkLaterWithoutBlockingTheQuestion() throws Exception {
        InMemoryCaseSink kept = new InMemoryCaseSink();
        java.util.concurrent.CountDownLatch delivered = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        SqlAgent agent = agent().caseSink(r -> {
            if (calls.incrementAndGet() == 1) {
                throw new java.io.IOException("database for cases restarting");
            }
            kept.accept(r);
            delivered.countDown();
        }).build();
        llm.enqueueFor(AgentRole.REFINER.id(), "SELECT COUNT(*) FROM orders");

        AgentResult r = agent.ask("How many orders?");

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        // the agent's retry thread waits its one-second back-off; the bound only stops a hang
        assertThat(delivered.await(2, java.util.concurrent.TimeUnit.MINUTES)).as("delivered by the retry").isTrue();
        assertThat(kept.cases()).hasSize(1);
        assertThat(calls).hasValue(2);
        assertThat(agent.metrics().sinkFailures()).isEqualTo(1);
    }

    @Test
    void jdbcSinkCreatesTrainingPairsAndWritesEveryCase() throws Exception {
        JdbcCaseSink sink = JdbcCaseSink.create(db.admin());
        SqlAgent agent = agent().caseSink(sink).build();
        llm.enqueueFor(AgentRole.REFINER.id(), "SELECT nme FROM employees");
        llm.enqueueFor(AgentRole.REFINER.id(), "{\"reason\": \"typo\", \"sql\": \"SELECT name FROM employees\"}");
        llm.enqueueFor(AgentRole.REFINER.id(), "SELECT event FROM audit_log");
        agent.ask("Employee names");
        agent.ask("User names");
        assertThat(agent.awaitCases(java.time.Duration.ofSeconds(30))).isTrue();

        try (Connection c = db.admin().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT question, sql_text, status, outcome, error, corrections, created_at,"
                        + " trace_json, rounds, trajectory, error_category, judge_score FROM training_pairs"
                        + " ORDER BY created_at")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString("status")).isEqualTo("good");
            assertThat(rs.getString("sql_text")).isEqualTo("SELECT name FROM employees");
            assertThat(rs.getInt("corrections")).isEqualTo(1);
            assertThat(rs.getInt("rounds")).isEqualTo(2);
            assertThat(rs.getString("error_category")).isEqualTo("COLUMN_NOT_FOUND");
            assertThat(rs.getObject("judge_score")).isNull();
            assertThat(rs.getString("trajectory")).startsWith("[").contains("\"exec_result\":\"invented_name\"",
                    "\"exec_result\":\"ok\"", "\"round\":1");
            assertThat(rs.getString("trace_json")).contains("\"original_sql\":\"SELECT nme FROM employees\"");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString("status")).isEqualTo("bad");
            assertThat(rs.getString("outcome")).isEqualTo("FAILED");
            assertThat(rs.getString("error")).isNotEmpty();
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void caseJsonRoundTripsAndIgnoresATornLine() {
        InMemoryCaseSink sink = new InMemoryCaseSink();
        SqlAgent agent = agent().caseSink(sink).verifier(dev.sqlagent.verify.ResultVerifier.nonEmpty()).build();
        llm.enqueueFor(AgentRole.REFINER.id(), "SELECT nme FROM employees");
        llm.enqueueFor(AgentRole.REFINER.id(), "{\"reason\": \"typo\", \"sql\": \"SELECT name FROM employees\"}");
        agent.ask(dev.sqlagent.Question.of("Employee names").withTable("employees").withCategory("list"));
        CaseRecord c = sink.cases().get(0);

        String line = dev.sqlagent.internal.CaseJson.write(c);
        assertThat(line).doesNotContain("\n");
        assertThat(dev.sqlagent.internal.CaseJson.read(line)).contains(c);
        assertThat(dev.sqlagent.internal.CaseJson.read(line.substring(0, line.length() / 2))).isEmpty();
        assertThat(c.verified()).isTrue();
        assertThat(c.table()).isEqualTo("employees");
        assertThat(c.attempts()).extracting(CaseRecord.Attempt::execResult).containsExactly("invented_name", "ok");
        assertThat(c.tablesRead()).containsExactly("employees");
        assertThat(c.quality()).isEqualTo(0.4);
    }

    @Test
    void unverifiedAnswerIsGoodButNotFewShotMaterial() {
        InMemoryCaseSink sink = new InMemoryCaseSink();
        SqlAgent agent = agent().caseSink(sink).build();
        llm.enqueueFor(AgentRole.REFINER.id(), "SELECT COUNT(*) FROM orders");
        agent.ask("How many orders?");

        assertThat(sink.cases().get(0).status()).isEqualTo(CaseRecord.Status.GOOD);
        assertThat(sink.cases().get(0).verified()).isFalse();
    }

    @Test
    void jdbcSinkRefusesATableNameThatIsNotAnIdentifier() {
        assertThatThrownBy(() -> JdbcCaseSink.create(db.admin(), "pairs; DROP TABLE x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("plain identifier");
    }
}
