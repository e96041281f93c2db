package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link SqlAgent#queryAsync}: caller SQL on the agent's executor, with no model call, and a cancellation that
 * reaches the statement in the database (H2's own session table shows it gone).
 */
@Timeout(120)
class QueryAsyncTest {

    private final CompanyDatabase db = CompanyDatabase.create();

    private SqlAgent agent(ScriptedLlm llm) {
        return SqlAgent.builder().llm(llm).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).build();
    }

    @Test
    void runsCallerSqlWithoutAModel() throws Exception {
        ScriptedLlm llm = ScriptedLlm.create();
        try (SqlAgent agent = agent(llm)) {
            AgentResult r = agent.queryAsync(Question.of("SELECT name FROM employees")).get(60, TimeUnit.SECONDS);
            assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
            assertThat(llm.callCount()).isZero();
        }
    }

    /** Whether a session other than the watcher's executes a statement naming the marker. */
    private static boolean running(Statement watch) throws SQLException {
        try (ResultSet rs = watch.executeQuery("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE "
                + "EXECUTING_STATEMENT LIKE '%query_async_marker%' AND SESSION_ID <> SESSION_ID()")) {
            rs.next();
            return rs.getInt(1) > 0;
        }
    }

    private static boolean await(Statement watch, boolean wanted, long seconds) throws SQLException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (running(watch) == wanted) {
                return true;
            }
        }
        return running(watch) == wanted;
    }

    @Test
    void cancellingTheFutureCancelsTheStatement() throws Exception {
        try (SqlAgent agent = agent(ScriptedLlm.create());
                Connection admin = db.admin().getConnection(); Statement watch = admin.createStatement()) {
            CompletableFuture<AgentResult> f = agent.queryAsync(Question.of("SELECT COUNT(*) AS query_async_marker "
                    + "FROM employees a, employees b, employees c, employees d, employees e, orders f, orders g"));
            assertThat(await(watch, true, 60)).as("the statement runs").isTrue();
            f.cancel(true);
            assertThatThrownBy(f::join).isInstanceOf(CancellationException.class);
            assertThat(await(watch, false, 30)).as("the statement is gone from the database").isTrue();
        }
    }
}
