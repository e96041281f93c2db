package dev.sqlagent.engine.sqlite;

import static dev.sqlagent.execution.EngineAssertions.executor;
import static dev.sqlagent.execution.EngineAssertions.failure;
import static dev.sqlagent.execution.EngineAssertions.success;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.execution.JdbcSqlExecutor;
import dev.sqlagent.testing.SharedData;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** SQLite's resource limits on every connection the executor opens: no gigabyte strings or blobs. */
class SqliteLimitsTest {

    private final JdbcSqlExecutor executor = executor(SharedData.sqlite("concert_singer"));

    @Test
    @Timeout(20)
    void aHugeStringOrBlobFailsInsteadOfAllocatingAGigabyte() {
        assertThat(failure(executor, "SELECT length(printf('%.*c', 999999999, 'x'))").message())
                .containsIgnoringCase("too big");
        assertThat(failure(executor, "SELECT length(zeroblob(2000000000))").message()).containsIgnoringCase("too big");
        assertThat(failure(executor, "SELECT length(replace(printf('%.*c', 10000000, 'x'), 'x', 'yyyyyyyyyy'))")
                .message()).containsIgnoringCase("too big");
    }

    @Test
    void ordinaryStringsAndQueriesStillRun() {
        assertThat(success(executor, "SELECT length(printf('%.*c', 100000, 'x'))").rows().get(0).get(0))
                .isEqualTo(100000L);
        assertThat(success(executor, "SELECT count(*) FROM singer").rowCount()).isEqualTo(1);
    }

    @Test
    void theLimitsAreSetOnTheConnectionAndOnlyLowered() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            assertThat(SqliteLimits.apply(c)).isTrue();
            assertThat(SqliteLimits.apply(c)).isTrue();
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT length(printf('%.*c', 20000000, 'x'))")) {
                rs.next();
                assertThat(rs.getObject(1)).isNull();
            } catch (java.sql.SQLException e) {
                assertThat(e.getMessage()).containsIgnoringCase("too big");
            }
        }
    }

    @Test
    void anotherDriverIsLeftAlone() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:limits")) {
            assertThat(SqliteLimits.apply(c)).isFalse();
        }
    }
}
