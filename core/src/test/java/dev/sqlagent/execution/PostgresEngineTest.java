package dev.sqlagent.execution;

import static dev.sqlagent.execution.EngineAssertions.assertCategory;
import static dev.sqlagent.execution.EngineAssertions.executor;
import static dev.sqlagent.execution.EngineAssertions.success;
import static dev.sqlagent.execution.EngineAssertions.timingOut;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.testing.DatabaseServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Classification on a real PostgreSQL server with the Spider schemas loaded. */
class PostgresEngineTest {

    private DatabaseServer pg;
    private JdbcSqlExecutor car;

    @BeforeEach
    void server() {
        pg = DatabaseServer.postgres().require();
        car = executor(pg.spider("car_1"));
    }

    @Test
    void clearCasesGetTheirCategory() {
        assertCategory(car, "SELECT Model FROM cars_data", ErrorCategory.COLUMN_NOT_FOUND);
        assertCategory(car, "SELECT * FROM student", ErrorCategory.TABLE_NOT_FOUND);
        assertCategory(car, "SELECT Maker FROM car_makers JOIN model_list ON car_makers.Id = model_list.Maker",
                ErrorCategory.AMBIGUOUS_COLUMN);
        assertCategory(car, "SELECT Maker, count(*) FROM car_makers", ErrorCategory.GROUPING_ERROR);
        assertCategory(car, "SELECT Maker FROM car_makers GROUP BY Maker DESC", ErrorCategory.SYNTAX_ERROR);
        assertCategory(car, "SELECT strftime('%Y', Year) FROM cars_data", ErrorCategory.FUNCTION_NOT_FOUND);
        assertCategory(car, "SELECT * FROM cars_data WHERE Id = 'abc'", ErrorCategory.TYPE_MISMATCH);
        assertCategory(car, "SELECT * FROM car_makers WHERE Id = Maker", ErrorCategory.TYPE_MISMATCH);
    }

    @Test
    void errorKeepsSqlStateAndMessage() {
        ExecutionError e = assertCategory(car, "SELECT Model FROM cars_data", ErrorCategory.COLUMN_NOT_FOUND);
        assertThat(e.sqlState()).isEqualTo("42703");
        assertThat(e.message()).contains("column \"model\" does not exist");
    }

    @Test
    void readOnlyRoleWithoutGrantIsPermissionDenied() {
        JdbcSqlExecutor reader = executor(pg.readOnlyDataSource("car_1"));
        ExecutionError e = assertCategory(reader, "SELECT * FROM car_1.cars_data", ErrorCategory.PERMISSION_DENIED);
        assertThat(e.sqlState()).isEqualTo("42501");
        assertThat(e.category().environmental()).isTrue();
        JdbcSqlExecutor granted = executor(pg.readOnlyDataSource(DatabaseServer.READ_ONLY_GRANTED_DB));
        assertThat(success(granted, "SELECT count(*) FROM singer").rows()).hasSize(1);
    }

    @Test
    void schemaWithoutUsageIsSilentlySkippedBySearchPathAndLooksLikeAMissingTable() {
        // PostgreSQL leaves a schema the role may not use out of the search path without a word, so an
        // unqualified name is "does not exist" (42P01), not "permission denied": the classifier cannot know
        JdbcSqlExecutor reader = executor(pg.readOnlyDataSource("car_1"));
        assertCategory(reader, "SELECT * FROM cars_data", ErrorCategory.TABLE_NOT_FOUND);
    }

    @Test
    void writeInsideTheReadOnlyTransactionIsRefused() {
        ExecutionError e = assertCategory(car,
                "WITH d AS (DELETE FROM cars_data WHERE Id < 0 RETURNING Id) SELECT count(*) FROM d",
                ErrorCategory.PERMISSION_DENIED);
        assertThat(e.sqlState()).isEqualTo("25006");
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // bounds a hang only
    void slowQueryWithOneSecondTimeoutIsTimeout() {
        // the statement would sleep for ten minutes: the one-second time-out fires however loaded the
        // machine is; how soon is not asserted
        ExecutionError e = assertCategory(timingOut(pg.spider("car_1")),
                "SELECT pg_sleep(" + EngineAssertions.ENDLESS_SECONDS + ")", ErrorCategory.TIMEOUT);
        assertThat(e.sqlState()).isEqualTo("57014");
    }

    @Test
    void unreachableServerIsConnection() {
        JdbcSqlExecutor down = executor(new UrlDataSource(
                "jdbc:postgresql://127.0.0.1:1/test?connectTimeout=2", "postgres", ""));
        ExecutionError e = assertCategory(down, "SELECT 1", ErrorCategory.CONNECTION);
        assertThat(e.sqlState()).startsWith("08");
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // bounds a hang only
    void backendKilledMidQueryIsConnection() throws Exception {
        String app = "sqlagent-kill-" + UUID.randomUUID();
        // the statement and its time-out outlast any wait for the backend to show up: only the kill ends it
        JdbcSqlExecutor victim = JdbcSqlExecutor.builder(new UrlDataSource(
                pg.spiderUrl("car_1") + "&ApplicationName=" + app, "postgres", ""))
                .dialect(Dialect.POSTGRESQL).queryTimeout(EngineAssertions.GENEROUS.multipliedBy(5)).build();
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (Connection admin = pg.adminDataSource().getConnection();
                PreparedStatement ps = admin.prepareStatement(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?"
                                + " AND query LIKE 'SELECT pg_sleep%'")) {
            Future<ExecutionOutcome> running = thread.submit(
                    () -> victim.execute(SqlStatement.of("SELECT pg_sleep(" + EngineAssertions.ENDLESS_SECONDS + ")")));
            ps.setString(1, app);
            boolean killed = false;
            // polls the server until the statement runs; the test's time-out bounds the wait
            while (!killed) {
                assertThat(running).as("the statement ended before it was killed").isNotDone();
                Thread.sleep(20);
                try (ResultSet rs = ps.executeQuery()) {
                    killed = rs.next();
                }
            }
            ExecutionOutcome outcome = running.get();
            assertThat(outcome).isInstanceOf(ExecutionOutcome.Failure.class);
            ExecutionError e = ((ExecutionOutcome.Failure) outcome).error();
            assertThat(e.category()).as(e.sqlState() + " " + e.message()).isEqualTo(ErrorCategory.CONNECTION);
        } finally {
            thread.shutdownNow();
        }
    }
}
