package dev.sqlagent.execution;

import static dev.sqlagent.execution.EngineAssertions.assertCategory;
import static dev.sqlagent.execution.EngineAssertions.executor;
import static dev.sqlagent.execution.EngineAssertions.success;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.testing.DatabaseServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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
    void slowQueryWithOneSecondTimeoutIsTimeout() {
        long start = System.nanoTime();
        ExecutionError e = assertCategory(car, "SELECT SLEEP(10)", ErrorCategory.TIMEOUT);
        assertThat(e.vendorCode()).isIn(1969, 1317, 3024);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void unreachableServerIsConnection() {
        JdbcSqlExecutor down = executor(new UrlDataSource(
                "jdbc:mariadb://127.0.0.1:1/test?connectTimeout=2000", "root", ""));
        ExecutionError e = assertCategory(down, "SELECT 1", ErrorCategory.CONNECTION);
        assertThat(e.sqlState()).startsWith("08");
    }

    @Test
    void connectionKilledMidQueryIsConnection() throws Exception {
        String marker = "sqlagent_kill_" + System.nanoTime();
        JdbcSqlExecutor victim = JdbcSqlExecutor.builder(maria.spider("car_1")).dialect(Dialect.MARIADB)
                .queryTimeout(Duration.ofSeconds(30)).build();
        CompletableFuture<ExecutionOutcome> running = CompletableFuture.supplyAsync(
                () -> victim.execute(SqlStatement.of("SELECT SLEEP(20) AS " + marker)));
        try (Connection admin = maria.adminDataSource().getConnection(); Statement s = admin.createStatement()) {
            long id = -1;
            for (int i = 0; i < 100 && id < 0; i++) {
                Thread.sleep(100);
                try (ResultSet rs = s.executeQuery("SELECT id FROM information_schema.processlist WHERE info LIKE '%"
                        + marker + "%' AND info NOT LIKE '%processlist%'")) {
                    if (rs.next()) {
                        id = rs.getLong(1);
                    }
                }
            }
            assertThat(id).as("connection found").isPositive();
            s.execute("KILL CONNECTION " + id);
        }
        ExecutionOutcome outcome = running.get();
        assertThat(outcome).isInstanceOf(ExecutionOutcome.Failure.class);
        ExecutionError e = ((ExecutionOutcome.Failure) outcome).error();
        assertThat(e.category()).as(e.sqlState() + " " + e.vendorCode() + " " + e.message())
                .isEqualTo(ErrorCategory.CONNECTION);
    }
}
