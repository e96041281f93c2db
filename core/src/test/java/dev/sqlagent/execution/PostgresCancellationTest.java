package dev.sqlagent.execution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentResult;
import dev.sqlagent.FailureKind;
import dev.sqlagent.HandOff;
import dev.sqlagent.QuestionBudget;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testing.DatabaseServer;
import dev.sqlagent.testkit.ScriptedLlm;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Cancelling {@code askAsync}, and a question's deadline, stop the statement in PostgreSQL itself: the
 * backend leaves {@code pg_stat_activity}'s active queries, not merely the Java thread its wait.
 */
class PostgresCancellationTest {

    /** Twelve copies of a six-row table: 2 billion rows to count, far longer than any test waits. */
    private static final String ENDLESS = "SELECT count(*) AS %s FROM singer a, singer b, singer c, singer d, singer e,"
            + " singer f, singer g, singer h, singer i, singer j, singer k, singer l";

    private DatabaseServer pg;
    private DataSource concerts;

    @BeforeEach
    void server() {
        pg = DatabaseServer.postgres().require();
        concerts = pg.spider("concert_singer");
    }

    private SqlAgent agent(ScriptedLlm llm, CompletableFuture<HandOff> handOff, QuestionBudget budget) {
        return SqlAgent.builder().llm(llm).dataSource(concerts).policy(GuardPolicy.allowingTables("singer"))
                .queryTimeout(Duration.ofMinutes(5)).budget(budget).onHandOff(handOff::complete).build();
    }

    @Test
    void cancellingTheFutureCancelsTheStatementInTheServer() throws Exception {
        String marker = "cancel_probe_" + System.nanoTime();
        ScriptedLlm llm = ScriptedLlm.create().enqueueFor("refiner", String.format(ENDLESS, marker));
        CompletableFuture<HandOff> handOff = new CompletableFuture<>();
        try (SqlAgent agent = agent(llm, handOff, QuestionBudget.unlimited())) {
            CompletableFuture<AgentResult> future = agent.askAsync("How many ways to seat twelve singers?");
            assertThat(awaitActive(marker, true, Duration.ofSeconds(60))).as("the statement started").isTrue();

            long start = System.nanoTime();
            future.cancel(true);
            boolean gone = awaitActive(marker, false, Duration.ofSeconds(30));
            long millis = (System.nanoTime() - start) / 1_000_000;
            System.out.println("PostgresCancellationTest: statement gone from pg_stat_activity " + millis
                    + " ms after cancel");

            assertThat(gone).as("the statement left pg_stat_activity").isTrue();
            assertThat(handOff.get(30, TimeUnit.SECONDS).failureKind()).contains(FailureKind.CANCELLED);
            assertThat(future).isCancelled();
        }
    }

    @Test
    void theDeadlineCancelsTheStatementInTheServer() throws Exception {
        String marker = "deadline_probe_" + System.nanoTime();
        ScriptedLlm llm = ScriptedLlm.create().enqueueFor("refiner", String.format(ENDLESS, marker));
        CompletableFuture<HandOff> handOff = new CompletableFuture<>();
        try (SqlAgent agent = agent(llm, handOff, QuestionBudget.unlimited().withDeadline(Duration.ofSeconds(3)))) {
            AgentResult r = agent.ask("How many ways to seat twelve singers?");

            assertThat(((AgentResult.Failed) r).kind()).isEqualTo(FailureKind.DEADLINE_EXCEEDED);
            assertThat(awaitActive(marker, false, Duration.ofSeconds(30))).isTrue();
            assertThat(r.trace().executions()).hasSize(1);
        }
    }

    /** Polls pg_stat_activity until an active statement with the marker is (or is no longer) there. */
    private boolean awaitActive(String marker, boolean wanted, Duration within) throws Exception {
        long until = System.nanoTime() + within.toNanos();
        try (Connection c = pg.adminDataSource().getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE state = 'active'"
                        + " AND pid <> pg_backend_pid() AND query LIKE ? AND query NOT ILIKE 'EXPLAIN%'")) {
            ps.setString(1, "%" + marker + "%");
            while (true) {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if ((rs.getLong(1) > 0) == wanted) {
                        return true;
                    }
                }
                if (System.nanoTime() > until) {
                    return false;
                }
                Thread.onSpinWait();
            }
        }
    }
}
