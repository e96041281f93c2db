package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.cases.FixStore;
import dev.sqlagent.cases.JdbcFixStore;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.support.TraceRecorder;
import dev.sqlagent.testing.DatabaseServer;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Several agent instances on one database share their verified fixes through a {@link JdbcFixStore} on
 * PostgreSQL (a real server, {@code SQLAGENT_PG_URL}): a fix learnt by one instance answers the same
 * failure on another without a model call, a row the current guard refuses is never run, and a store
 * that fails never fails a question.
 */
@ExtendWith(LegalTraceExtension.class)
class SharedFixStoreTest {

    private static final String REFINER = AgentRole.REFINER.id();

    private final CompanyDatabase db = CompanyDatabase.create();
    private final String table = "fixes_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private DataSource postgres;

    private DataSource postgres() {
        if (postgres == null) {
            postgres = DatabaseServer.postgres().require().adminDataSource();
        }
        return postgres;
    }

    @AfterEach
    void dropTable() throws Exception {
        if (postgres != null) {
            try (Connection c = postgres.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    /** One application instance: its own model client and its own store object on the shared table. */
    private SqlAgent instance(ScriptedLlm llm, TraceRecorder recorder, FixStore store) {
        return SqlAgent.builder().llm(llm).dataSource(db.analyst()).listener(recorder)
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).fixStore(store).build();
    }

    private JdbcFixStore sharedStore() {
        return JdbcFixStore.builder(postgres()).table(table).build();
    }

    private static String fix(String sql) {
        return "{\"reason\": \"the column is name\", \"sql\": \"" + sql + "\"}";
    }

    @Test
    void aFixLearntOnOneInstanceServesAnotherWithOneModelCallFewer(TraceRecorder recorder) {
        ScriptedLlm firstModel = ScriptedLlm.create();
        ScriptedLlm secondModel = ScriptedLlm.create();
        SqlAgent first = instance(firstModel, recorder, sharedStore());
        SqlAgent second = instance(secondModel, recorder, sharedStore());

        firstModel.enqueueFor(REFINER, "SELECT nme FROM employees");
        firstModel.enqueueFor(REFINER, fix("SELECT name FROM employees"));
        AgentResult learnt = recorder.track(first.ask("List employee names"));
        secondModel.enqueueFor(REFINER, "SELECT nme FROM employees");
        AgentResult served = recorder.track(second.ask("Names of all employees"));

        assertThat(learnt.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(firstModel.callCount()).isEqualTo(2);
        assertThat(served.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(secondModel.callCount()).as("generation only: the correction came from the shared store")
                .isEqualTo(1);
        assertThat(served.trace().notes()).anyMatch(n -> n.kind().equals("fix_cache"));
        assertThat(served.trace().correction().orElseThrow().correctedSql()).isEqualTo("SELECT name FROM employees");
        assertThat(second.metrics().fixCacheHits()).isEqualTo(1);
        assertThat(first.metrics().fixStoreFailures() + second.metrics().fixStoreFailures()).isZero();
    }

    @Test
    void aSharedRowTheGuardRefusesIsNeverRunAndTheModelIsAsked(TraceRecorder recorder) throws Exception {
        ScriptedLlm firstModel = ScriptedLlm.create();
        ScriptedLlm secondModel = ScriptedLlm.create();
        SqlAgent first = instance(firstModel, recorder, sharedStore());
        firstModel.enqueueFor(REFINER, "SELECT nme FROM employees");
        firstModel.enqueueFor(REFINER, fix("SELECT name FROM employees"));
        recorder.track(first.ask("List employee names"));
        // someone with write access to the shared table points the fix at a table the policy forbids
        try (Connection c = postgres().getConnection();
                PreparedStatement ps = c.prepareStatement("UPDATE " + table + " SET fixed_sql = ?")) {
            ps.setString(1, "SELECT employee_id, salary FROM salary_detail");
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }

        SqlAgent second = instance(secondModel, recorder, sharedStore());
        secondModel.enqueueFor(REFINER, "SELECT nme FROM employees");
        secondModel.enqueueFor(REFINER, fix("SELECT name FROM employees"));
        AgentResult r = recorder.track(second.ask("Names of all employees"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().notes()).anyMatch(n -> n.kind().equals("fix_cache_skipped"))
                .noneMatch(n -> n.kind().equals("fix_cache"));
        assertThat(r.trace().executions()).noneMatch(e -> e.sql().contains("salary_detail"));
        assertThat(secondModel.callCount()).isEqualTo(2);
    }

    @Test
    void aFailingStoreIsNoFixCountedAndNeverAFailedQuestion(TraceRecorder recorder) {
        AtomicInteger calls = new AtomicInteger();
        FixStore down = new FixStore() {
            @Override
            public Optional<String> get(Key key) throws java.sql.SQLException {
                calls.incrementAndGet();
                throw new java.sql.SQLTransientConnectionException("connection refused");
            }

            @Override
            public void put(Key key, String fixedSql) {
                calls.incrementAndGet();
                throw new IllegalStateException("store is read-only");
            }
        };
        ScriptedLlm llm = ScriptedLlm.create();
        SqlAgent agent = instance(llm, recorder, down);
        llm.enqueueFor(REFINER, "SELECT nme FROM employees");
        llm.enqueueFor(REFINER, fix("SELECT name FROM employees"));

        AgentResult r = recorder.track(agent.ask("List employee names"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        // one lookup before the model; the put after the fix ran is skipped: the store failed a moment ago,
        // and a store that stops answering must cost a question one wait, not two
        assertThat(calls.get()).as("one lookup before the model, no put while the store is paused").isEqualTo(1);
        assertThat(agent.metrics().fixStoreFailures()).isEqualTo(1);
        assertThat(agent.metrics().toString()).contains("fixStoreFailures=1");
    }

    @Test
    void fixCacheOffIgnoresTheStore(TraceRecorder recorder) {
        AtomicInteger calls = new AtomicInteger();
        FixStore counting = new FixStore() {
            @Override
            public Optional<String> get(Key key) {
                calls.incrementAndGet();
                return Optional.empty();
            }

            @Override
            public void put(Key key, String fixedSql) {
                calls.incrementAndGet();
            }
        };
        ScriptedLlm llm = ScriptedLlm.create();
        SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db.analyst()).listener(recorder)
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).fixStore(counting)
                .fixCache(false).build();
        llm.enqueueFor(REFINER, "SELECT nme FROM employees");
        llm.enqueueFor(REFINER, fix("SELECT name FROM employees"));

        assertThat(recorder.track(agent.ask("List employee names")).status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(calls.get()).isZero();
    }
}
