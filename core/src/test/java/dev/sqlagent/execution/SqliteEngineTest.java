package dev.sqlagent.execution;

import static dev.sqlagent.execution.EngineAssertions.assertCategory;
import static dev.sqlagent.execution.EngineAssertions.executor;
import static dev.sqlagent.execution.EngineAssertions.success;
import static dev.sqlagent.execution.EngineAssertions.timingOut;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Classification and execution on the real Spider SQLite files (opened read-only). */
class SqliteEngineTest {

    private final JdbcSqlExecutor car = executor(SharedData.sqlite("car_1"));

    @Test
    void noSuchColumnIsColumnNotFound() {
        assertCategory(car, "SELECT Model FROM cars_data", ErrorCategory.COLUMN_NOT_FOUND);
    }

    @Test
    void noSuchTableIsTableNotFound() {
        assertCategory(car, "SELECT * FROM student", ErrorCategory.TABLE_NOT_FOUND);
    }

    @Test
    void ambiguousColumnNameIsAmbiguousColumn() {
        assertCategory(car, "SELECT Maker, Model FROM car_makers JOIN model_list ON car_makers.Id = model_list.Maker",
                ErrorCategory.AMBIGUOUS_COLUMN);
    }

    @Test
    void misuseOfAggregateIsGroupingError() {
        assertCategory(car, "SELECT Maker FROM car_makers WHERE count(*) > 1", ErrorCategory.GROUPING_ERROR);
    }

    @Test
    void nearTokenSyntaxErrorIsSyntaxError() {
        assertCategory(car, "SELECT Maker FROM car_makers GROUP BY Maker DESC", ErrorCategory.SYNTAX_ERROR);
    }

    @Test
    void unknownFunctionIsFunctionNotFound() {
        assertCategory(car, "SELECT year(Year) FROM cars_data", ErrorCategory.FUNCTION_NOT_FOUND);
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // bounds a hang only
    void runawayQueryIsStoppedByTheWatchdogAndIsTimeout() {
        ExecutionError e = runaway(timingOut(SharedData.sqlite("car_1")));
        assertThat(e.category().environmental()).isTrue();
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // bounds a hang only
    void connectionIsUsableAfterATimeout() {
        JdbcSqlExecutor quick = timingOut(SharedData.sqlite("car_1"));
        runaway(quick);
        assertThat(success(quick, "SELECT count(*) FROM cars_data").rows()).hasSize(1);
    }

    /**
     * sqlite-jdbc's setQueryTimeout is only a busy timeout: without the watchdog this never ends (and the
     * test would hang); how soon the watchdog stopped it is not asserted, load decides that.
     */
    private static ExecutionError runaway(JdbcSqlExecutor executor) {
        return assertCategory(executor,
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
                ErrorCategory.TIMEOUT);
    }

    @Test
    void missingDatabaseFileIsConnection() {
        JdbcSqlExecutor missing = executor(new UrlDataSource("jdbc:sqlite:file:/nonexistent/x.sqlite?mode=ro", null, null));
        ExecutionError e = assertCategory(missing, "SELECT 1", ErrorCategory.CONNECTION);
        assertThat(e.vendorCode()).isEqualTo(14); // SQLITE_CANTOPEN
    }

    @Test
    void writesAreRefusedAsPermissionDeniedAndLeaveNoTrace(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("rw.sqlite");
        UrlDataSource ds = new UrlDataSource("jdbc:sqlite:" + file, null, null);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a INTEGER)");
        }
        JdbcSqlExecutor rw = executor(ds);
        assertCategory(rw, "INSERT INTO t VALUES (1) RETURNING a", ErrorCategory.PERMISSION_DENIED);
        assertThat(success(rw, "SELECT count(*) FROM t").rows().get(0).get(0)).isEqualTo(0L);
        assertThat(Files.exists(file)).isTrue();
    }

    @Test
    void rowCapMarksTheResultTruncated() {
        JdbcSqlExecutor capped = JdbcSqlExecutor.builder(SharedData.sqlite("car_1")).maxRows(3).build();
        ResultTable t = success(capped, "SELECT Id FROM cars_data ORDER BY Id");
        assertThat(t.rows()).hasSize(3);
        assertThat(t.truncated()).isTrue();
        assertThat(success(capped, "SELECT Id FROM cars_data ORDER BY Id LIMIT 3").truncated()).isFalse();
    }

    @Test
    void valuesAreNormalised() {
        ResultTable t = success(car, "SELECT 1 AS i, 2.5 AS d, 'x' AS s, NULL AS n");
        assertThat(t.rows().get(0)).containsExactly(1L, 2.5, "x", null);
        assertThat(t.columnNames()).containsExactly("i", "d", "s", "n");
    }
}
