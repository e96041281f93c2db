package dev.sqlagent.execution;

import static dev.sqlagent.execution.EngineAssertions.assertCategory;
import static dev.sqlagent.execution.EngineAssertions.executor;
import static dev.sqlagent.execution.EngineAssertions.success;
import static dev.sqlagent.execution.EngineAssertions.timingOut;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.testing.H2Spider;
import dev.sqlagent.testing.SharedData;
import dev.sqlagent.testing.SpiderPredictions;
import java.sql.Connection;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Classification on H2, with Spider databases copied from SQLite and H2's own environment faults. */
class H2EngineTest {

    private static final List<String> DBS = List.of("car_1", "concert_singer", "pets_1", "world_1");

    private final JdbcSqlExecutor car = executor(H2Spider.of("car_1"));

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
    }

    @Test
    void failingPredictionsAreCorrectableNotEnvironmental() {
        Map<ErrorCategory, Integer> counts = new EnumMap<>(ErrorCategory.class);
        int failed = 0;
        for (SpiderPredictions.Prediction p : SpiderPredictions.all()) {
            if (!DBS.contains(p.dbId())) {
                continue;
            }
            // load may turn any slow prediction into a TIMEOUT, which the assertion below allows
            ExecutionOutcome o = timingOut(H2Spider.of(p.dbId())).execute(SqlStatement.of(p.sql()));
            if (o instanceof ExecutionOutcome.Failure) {
                failed++;
                ExecutionError e = ((ExecutionOutcome.Failure) o).error();
                counts.merge(e.category(), 1, Integer::sum);
                // H2 has no indexes on the copies: a few correlated subqueries outlive the 1 s limit, rightly
                assertThat(e.category() == ErrorCategory.TIMEOUT || !e.category().environmental())
                        .as(p.sql() + " -> " + e.message()).isTrue();
                if (e.category() == ErrorCategory.UNKNOWN) {
                    // a scalar subquery with several rows has no category of its own (see error-classification.md)
                    assertThat(e.vendorCode()).as(p.sql() + " -> " + e.message()).isEqualTo(90053);
                }
            }
        }
        System.out.println("H2, " + DBS + ": " + failed + " failing predictions by category " + counts);
        assertThat(failed).isPositive();
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // bounds a hang only
    void slowQueryWithOneSecondTimeoutIsTimeout() {
        // 10^13 rows: hours of counting, so the one-second time-out fires however loaded the machine is
        assertCategory(timingOut(H2Spider.of("car_1")), "SELECT count(*) FROM system_range(1, 100000000) a, system_range(1, 100000) b",
                ErrorCategory.TIMEOUT);
    }

    @Test
    void userWithoutGrantIsPermissionDenied() throws Exception {
        String url = "jdbc:h2:mem:h2_permission";
        // the admin connection keeps the in-memory database open while the reader uses it
        try (Connection c = new UrlDataSource(url, "sa", "").getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS salary (amount INT)");
            s.execute("CREATE USER IF NOT EXISTS reader PASSWORD 'r'");
            JdbcSqlExecutor reader = executor(new UrlDataSource(url, "reader", "r"));
            ExecutionError e = assertCategory(reader, "SELECT * FROM salary", ErrorCategory.PERMISSION_DENIED);
            assertThat(e.vendorCode()).isEqualTo(90096);
        }
    }

    @Test
    void unreachableServerIsConnection() {
        JdbcSqlExecutor down = JdbcSqlExecutor.builder(new UrlDataSource("jdbc:h2:tcp://127.0.0.1:1/mem:x", "sa", ""))
                .dialect(Dialect.H2).build();
        assertCategory(down, "SELECT 1", ErrorCategory.CONNECTION);
    }

    @Test
    void writeIsRolledBack() throws Exception {
        String url = "jdbc:h2:mem:h2_rollback;DB_CLOSE_DELAY=-1";
        try (Connection c = new UrlDataSource(url, "sa", "").getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a INT)");
        }
        JdbcSqlExecutor ex = executor(new UrlDataSource(url, "sa", ""));
        ex.execute(SqlStatement.of("SELECT * FROM FINAL TABLE (INSERT INTO t VALUES (1))"));
        assertThat(success(ex, "SELECT count(*) FROM t").rows().get(0).get(0)).isEqualTo(0L);
    }

    @Test
    void dataSetIsTheSharedOne() {
        assertThat(SharedData.spiderDbIds()).contains("car_1", "world_1").hasSize(19);
    }
}
