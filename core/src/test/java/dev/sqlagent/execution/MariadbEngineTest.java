package dev.sqlagent.execution;

import static dev.sqlagent.execution.EngineAssertions.assertCategory;
import static dev.sqlagent.execution.EngineAssertions.executor;
import static dev.sqlagent.execution.EngineAssertions.success;
import static dev.sqlagent.execution.EngineAssertions.timingOut;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.testing.DatabaseServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Classification on a real MariaDB server with Spider databases loaded, using our own failing queries. */
class MariadbEngineTest {

    private DatabaseServer maria;
    private JdbcSqlExecutor car;

    @BeforeEach
    void server() {
        maria = DatabaseServer.mariadb().require();
        car = executor(maria.spider("car_1"));
    }

    @Test
    void clearCasesGetTheirCategory() {
        assertThat(assertCategory(car, "SELECT Model FROM cars_data", ErrorCategory.COLUMN_NOT_FOUND).vendorCode())
                .isEqualTo(1054);
        assertThat(assertCategory(car, "SELECT * FROM student", ErrorCategory.TABLE_NOT_FOUND).vendorCode())
                .isEqualTo(1146);
        assertThat(assertCategory(car,
                "SELECT Maker FROM car_makers JOIN model_list ON car_makers.Id = model_list.Maker",
                ErrorCategory.AMBIGUOUS_COLUMN).vendorCode()).isEqualTo(1052);
        assertThat(assertCategory(car, "SELECT Maker FROM car_makers WHERE count(*) > 1",
                ErrorCategory.GROUPING_ERROR).vendorCode()).isEqualTo(1111);
        assertThat(assertCategory(car, "SELECT Maker FROM car_makers GROUP BY Maker DESC LIMIT",
                ErrorCategory.SYNTAX_ERROR).vendorCode()).isEqualTo(1064);
        assertThat(assertCategory(car, "SELECT strftime('%Y', Year) FROM cars_data",
                ErrorCategory.FUNCTION_NOT_FOUND).vendorCode()).isEqualTo(1305);
        assertThat(assertCategory(car, "SELECT abs(Id, Id) FROM cars_data",
                ErrorCategory.FUNCTION_NOT_FOUND).vendorCode()).isEqualTo(1582);
    }

    @Test
    void readOnlyUserWithoutGrantIsPermissionDenied() {
        JdbcSqlExecutor reader = executor(maria.readOnlyDataSource(DatabaseServer.READ_ONLY_GRANTED_DB));
        assertThat(success(reader, "SELECT count(*) FROM singer").rows()).hasSize(1);
        ExecutionError e = assertCategory(reader, "SELECT * FROM car_1.cars_data", ErrorCategory.PERMISSION_DENIED);
        assertThat(e.vendorCode()).isEqualTo(1142);
    }

    @Test
    void writeInsideTheReadOnlyTransactionIsRefused() {
        // MariaDB Connector/J's setReadOnly does not stop writes; SET TRANSACTION READ ONLY does
        ExecutionError e = assertCategory(car, "DELETE FROM cars_data WHERE Id < 0", ErrorCategory.PERMISSION_DENIED);
        assertThat(e.vendorCode()).isEqualTo(1792);
    }

    @Test
    void bothWaysIntoTheReadOnlyTransactionRefuseWritesAndGiveTheConnectionBackAsItCame() throws Exception {
        // auto-commit on (a pool's default): START TRANSACTION READ ONLY; auto-commit off: SET TRANSACTION READ ONLY
        for (boolean autoCommit : new boolean[] {true, false}) {
            javax.sql.DataSource base = maria.spider("car_1");
            java.util.List<java.sql.Connection> handedOut = new java.util.ArrayList<>();
            javax.sql.DataSource ds = (javax.sql.DataSource) java.lang.reflect.Proxy.newProxyInstance(
                    getClass().getClassLoader(), new Class<?>[] {javax.sql.DataSource.class}, (proxy, m, args) -> {
                        Object r = m.invoke(base, args);
                        if (r instanceof java.sql.Connection c) {
                            c.setAutoCommit(autoCommit);
                            handedOut.add(c);
                        }
                        return r;
                    });
            JdbcSqlExecutor ex = executor(ds);
            ExecutionError e = assertCategory(ex, "DELETE FROM cars_data WHERE Id < 0", ErrorCategory.PERMISSION_DENIED);
            assertThat(e.vendorCode()).as("auto-commit %s", autoCommit).isEqualTo(1792);
            try (java.sql.Connection c = ds.getConnection()) {
                assertThat(ex.execute(c, SqlStatement.of("SELECT count(*) FROM cars_data")))
                        .isInstanceOf(ExecutionOutcome.Success.class);
                assertThat(c.getAutoCommit()).as("auto-commit restored").isEqualTo(autoCommit);
                assertThat(c.isReadOnly()).isFalse();
                try (java.sql.Statement s = c.createStatement();
                        java.sql.ResultSet rs = s.executeQuery("SELECT @@in_transaction")) {
                    rs.next();
                    assertThat(rs.getInt(1)).as("no transaction left open, auto-commit %s", autoCommit).isZero();
                }
            }
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // bounds a hang only
    void slowQueryWithOneSecondTimeoutIsTimeout() {
        // the statement would sleep for ten minutes: the one-second time-out fires however loaded the
        // machine is; how soon is not asserted
        ExecutionError e = assertCategory(timingOut(maria.spider("car_1")),
                "SELECT SLEEP(" + EngineAssertions.ENDLESS_SECONDS + ")", ErrorCategory.TIMEOUT);
        assertThat(e.vendorCode()).isIn(1969, 1317, 3024);
    }

    @Test
    void unreachableServerIsConnection() {
        JdbcSqlExecutor down = executor(new UrlDataSource(
                "jdbc:mariadb://127.0.0.1:1/test?connectTimeout=2000", "root", ""));
        ExecutionError e = assertCategory(down, "SELECT 1", ErrorCategory.CONNECTION);
        assertThat(e.sqlState()).startsWith("08");
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // bounds a hang only
    void connectionKilledMidQueryIsConnection() throws Exception {
        String marker = "sqlagent_kill_" + UUID.randomUUID().toString().replace('-', '_');
        // the statement and its time-out outlast any wait for the connection to show up: only the kill ends it
        JdbcSqlExecutor victim = JdbcSqlExecutor.builder(maria.spider("car_1")).dialect(Dialect.MARIADB)
                .queryTimeout(EngineAssertions.GENEROUS.multipliedBy(5)).build();
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (Connection admin = maria.adminDataSource().getConnection(); Statement s = admin.createStatement()) {
            Future<ExecutionOutcome> running = thread.submit(() -> victim.execute(
                    SqlStatement.of("SELECT SLEEP(" + EngineAssertions.ENDLESS_SECONDS + ") AS " + marker)));
            long id = -1;
            // polls the server until the statement runs; the test's time-out bounds the wait
            while (id < 0) {
                assertThat(running).as("the statement ended before it was killed").isNotDone();
                Thread.sleep(20);
                try (ResultSet rs = s.executeQuery("SELECT id FROM information_schema.processlist WHERE info LIKE '%"
                        + marker + "%' AND info NOT LIKE '%processlist%'")) {
                    if (rs.next()) {
                        id = rs.getLong(1);
                    }
                }
            }
            s.execute("KILL CONNECTION " + id);
            ExecutionOutcome outcome = running.get();
            assertThat(outcome).isInstanceOf(ExecutionOutcome.Failure.class);
            ExecutionError e = ((ExecutionOutcome.Failure) outcome).error();
            assertThat(e.category()).as(e.sqlState() + " " + e.vendorCode() + " " + e.message())
                    .isEqualTo(ErrorCategory.CONNECTION);
        } finally {
            thread.shutdownNow();
        }
    }
}
