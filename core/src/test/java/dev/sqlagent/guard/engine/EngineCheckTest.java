package dev.sqlagent.guard.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.testing.DatabaseServer;
import dev.sqlagent.testing.H2Spider;
import dev.sqlagent.testing.SharedData;
import dev.sqlagent.execution.UrlDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine check on each engine, with statements handed to it as if the guard had accepted them: what a
 * parser differential would let through (a table outside the policy, a denied column, a forbidden
 * function, a write) must come out as a disagreement; what the guard really accepts, as confirmed; a SQL
 * with a real error, as unavailable.
 */
class EngineCheckTest {

    private static final GuardPolicy POLICY = GuardPolicy.builder().allowTables("singer", "concert")
            .denyColumn("singer", "age").allowSelectStar(true).build();

    private static GuardVerdict.Accepted pretend(String sql, Object... params) {
        return new GuardVerdict.Accepted(sql, new SqlStatement(sql, List.of(params)), Set.of("singer"),
                Set.of("singer.name"));
    }

    private static void engineCatchesEveryKindOfDisagreement(DataSource ds, Dialect dialect, String upperCall) {
        EngineCheck check = EngineCheck.create(ds, dialect);
        EngineVerdict ok = check.check(pretend("SELECT s.Name, " + upperCall + " FROM singer s WHERE s.Country = ?",
                "France"), POLICY);
        assertThat(ok).as("%s", ok).isInstanceOf(EngineVerdict.Confirmed.class);
        EngineReading reading = ((EngineVerdict.Confirmed) ok).reading();
        assertThat(reading.tables()).extracting(EngineReading.Table::name).containsExactly("singer");
        assertThat(reading.columns()).extracting(EngineReading.ColumnRead::column).contains("name", "country");

        assertDisagrees(check, "SELECT Name FROM singer WHERE Singer_ID IN (SELECT Stadium_ID FROM stadium)",
                "table", "stadium");
        assertDisagrees(check, "SELECT s.Name FROM singer s WHERE s.Age > 30", "column", "age");
        assertDisagrees(check, "SELECT Name FROM singer ORDER BY Age", "column", "age");
        assertDisagrees(check, "SELECT x.n FROM (SELECT Age AS n FROM singer) x", "column", "age");
        assertDisagrees(check, "SELECT Name, (SELECT max(Age) FROM singer) FROM singer", "column", "age");
        assertDisagrees(check, "SELECT Name FROM singer WHERE Name IN (SELECT Singer_ID FROM singer_in_concert)",
                "table", "singer_in_concert");
        assertDisagrees(check, "DELETE FROM singer WHERE Singer_ID = -12345", "writes", "");

        EngineVerdict broken = check.check(pretend("SELECT no_such_column FROM singer"), POLICY);
        assertThat(broken).isInstanceOf(EngineVerdict.Unavailable.class);
        EngineVerdict.Unavailable unplanned = (EngineVerdict.Unavailable) broken;
        assertThat(unplanned.reason()).contains("not run");
        assertThat(unplanned.error().category()).as("%s", unplanned.error())
                .isEqualTo(dev.sqlagent.execution.ErrorCategory.COLUMN_NOT_FOUND);
    }

    private static void assertDisagrees(EngineCheck check, String sql, String kind, String name) {
        EngineVerdict v = check.check(pretend(sql), POLICY);
        assertThat(v).as("%s on %s: %s", sql, check.dialect(), v).isInstanceOf(EngineVerdict.Disagreement.class);
        assertThat(String.join(" ", ((EngineVerdict.Disagreement) v).reasons())).contains(kind).contains(name);
    }

    @Test
    void sqliteBytecodeShowsForbiddenTablesColumnsAndWrites() {
        engineCatchesEveryKindOfDisagreement(SharedData.sqlite("concert_singer"), Dialect.SQLITE, "upper(s.Name)");
    }

    @Test
    void h2PlanShowsForbiddenTablesColumnsAndWrites() {
        engineCatchesEveryKindOfDisagreement(H2Spider.of("concert_singer"), Dialect.H2, "UPPER(s.Name)");
    }

    @Test
    void postgresPlanShowsForbiddenTablesColumnsAndWrites() {
        DatabaseServer pg = DatabaseServer.postgres().require();
        engineCatchesEveryKindOfDisagreement(pg.spider("concert_singer"), Dialect.POSTGRESQL, "upper(s.Name)");
    }

    @Test
    void mariadbPrintedQueryShowsForbiddenTablesColumnsAndWrites() {
        DatabaseServer maria = DatabaseServer.mariadb().require();
        engineCatchesEveryKindOfDisagreement(maria.spider("concert_singer"), Dialect.MARIADB, "upper(s.Name)");
    }

    @Test
    void aForbiddenFunctionInTheEnginesReadingIsADisagreement() {
        GuardPolicy noUpper = POLICY.toBuilder()
                .functionPolicy(dev.sqlagent.guard.FunctionPolicy.allowOnly("count")).build();
        for (Object[] engine : new Object[][] {{SharedData.sqlite("concert_singer"), Dialect.SQLITE},
                {H2Spider.of("concert_singer"), Dialect.H2}}) {
            EngineCheck check = EngineCheck.create((DataSource) engine[0], (Dialect) engine[1]);
            EngineVerdict v = check.check(pretend("SELECT upper(Name) FROM singer"), noUpper);
            assertThat(v).as("%s", v).isInstanceOf(EngineVerdict.Disagreement.class);
            assertThat(((EngineVerdict.Disagreement) v).reasons()).anyMatch(r -> r.contains("function upper"));
        }
    }

    @Test
    void theSqliteRowIdAliasOfADeniedKeyIsADisagreementButAnIndexSeekIsNot(@TempDir Path dir) throws Exception {
        DataSource ds = new UrlDataSource("jdbc:sqlite:" + dir.resolve("staff.sqlite"), null, null);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE staff (id INTEGER PRIMARY KEY, name TEXT, email TEXT)");
            s.execute("CREATE INDEX staff_email ON staff (email)");
        }
        GuardPolicy denyKey = GuardPolicy.builder().allowTables("staff").denyColumn("staff", "id").build();
        EngineCheck check = EngineCheck.create(ds, Dialect.SQLITE);
        for (String leak : List.of("SELECT rowid, name FROM staff", "SELECT _rowid_ FROM staff", "SELECT oid FROM staff")) {
            EngineVerdict v = check.check(pretend(leak), denyKey);
            assertThat(v).as("%s: %s", leak, v).isInstanceOf(EngineVerdict.Disagreement.class);
            assertThat(((EngineVerdict.Disagreement) v).reasons()).anyMatch(r -> r.contains("main.staff.id"));
        }
        EngineVerdict seek = check.check(pretend("SELECT name FROM staff WHERE email = 'a@b'"), denyKey);
        assertThat(seek).as("%s", seek).isInstanceOf(EngineVerdict.Confirmed.class);
    }

    @Test
    void whatTheGuardAcceptsOnSpiderIsConfirmed() {
        SqlGuard guard = SqlGuard.create();
        GuardPolicy policy = GuardPolicy.builder().allowTables("singer", "concert", "singer_in_concert", "stadium")
                .rowFilter("singer", "Country", "France").build();
        String sql = "SELECT T2.Name, count(*) FROM singer_in_concert AS T1 JOIN singer AS T2 ON T1.Singer_ID = "
                + "T2.Singer_ID GROUP BY T2.Name";
        GuardVerdict.Accepted a = (GuardVerdict.Accepted) guard.check(sql, policy, Dialect.SQLITE);
        EngineVerdict v = EngineCheck.create(SharedData.sqlite("concert_singer"), Dialect.SQLITE).check(a, policy);
        assertThat(v).as("%s", v).isInstanceOf(EngineVerdict.Confirmed.class);
        assertThat(((EngineVerdict.Confirmed) v).reading().columns())
                .extracting(Object::toString).contains("main.singer.country", "main.singer.name");
    }

    /**
     * The engine check's own wait is bounded by its time-out on the servers: a table another session holds
     * locked makes the plan wait for the lock, and the check must come back as unavailable (the statement
     * is never run unconfirmed) within about its one-second cap, not wait for the lock; so must the
     * execution of the statement.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 2, unit = java.util.concurrent.TimeUnit.MINUTES) // bounds a hang only
    void aLockedTableDoesNotHoldTheEngineCheckBeyondItsTimeout() throws Exception {
        for (DatabaseServer server : List.of(DatabaseServer.postgres().require(), DatabaseServer.mariadb().require())) {
            Dialect dialect;
            try (Connection c = server.adminDataSource().getConnection()) {
                dialect = c.getMetaData().getURL().startsWith("jdbc:postgresql") ? Dialect.POSTGRESQL : Dialect.MARIADB;
            }
            DataSource ds = server.scratch("engine_check_lock");
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS held");
                s.execute("CREATE TABLE held (id INT PRIMARY KEY, name VARCHAR(20))");
                s.execute("INSERT INTO held VALUES (1, 'a')");
            }
            GuardPolicy policy = GuardPolicy.builder().allowTables("held").build();
            try (Connection locker = ds.getConnection(); Statement lock = locker.createStatement()) {
                locker.setAutoCommit(false);
                // PostgreSQL: EXPLAIN waits for the table's lock; MariaDB: for the metadata lock
                lock.execute(dialect == Dialect.POSTGRESQL ? "LOCK TABLE held IN ACCESS EXCLUSIVE MODE"
                        : "LOCK TABLES held WRITE");
                try {
                    EngineCheck check = EngineCheck.create(ds, dialect, java.time.Duration.ofSeconds(1));
                    long start = System.nanoTime();
                    EngineVerdict v = check.check(pretend("SELECT name FROM held WHERE id = 1"), policy);
                    long seconds = (System.nanoTime() - start) / 1_000_000_000L;
                    assertThat(v).as("%s: %s", dialect, v).isInstanceOf(EngineVerdict.Unavailable.class);
                    assertThat(((EngineVerdict.Unavailable) v).error().category()).as("%s: %s", dialect, v)
                            .isEqualTo(dev.sqlagent.execution.ErrorCategory.TIMEOUT);
                    // the lock is never released while the check runs: only the check's own cap ended the wait
                    assertThat(seconds).as("%s waited %d s for a lock held for ever", dialect, seconds).isLessThan(60);
                    // and the execution's wait for the same lock ends at its own cap too
                    dev.sqlagent.execution.ExecutionOutcome run = dev.sqlagent.execution.JdbcSqlExecutor.builder(ds)
                            .queryTimeout(java.time.Duration.ofSeconds(1)).build()
                            .execute(new SqlStatement("SELECT name FROM held WHERE id = 1", List.of()));
                    assertThat(run).as("%s: %s", dialect, run).isInstanceOf(dev.sqlagent.execution.ExecutionOutcome.Failure.class);
                    assertThat(((dev.sqlagent.execution.ExecutionOutcome.Failure) run).error().category())
                            .as("%s: %s", dialect, run).isEqualTo(dev.sqlagent.execution.ErrorCategory.TIMEOUT);
                } finally {
                    if (dialect == Dialect.MARIADB) {
                        lock.execute("UNLOCK TABLES");
                    }
                    locker.rollback();
                }
            }
        }
    }

    /**
     * A statement stacked after the one explained (which the guard refuses; here it is handed over as if the
     * guard had missed it) is refused by the engine check on PostgreSQL, and what it did is undone.
     */
    @Test
    void aStackedStatementTheGuardMissedIsRefusedAndUndoneOnPostgres() throws Exception {
        DataSource ds = DatabaseServer.postgres().require().scratch("engine_check_stacked");
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS kept");
            s.execute("CREATE TABLE kept (id INT PRIMARY KEY, name VARCHAR(20))");
            s.execute("INSERT INTO kept VALUES (1, 'a')");
        }
        GuardPolicy policy = GuardPolicy.builder().allowTables("kept").build();
        EngineCheck check = EngineCheck.create(ds, Dialect.POSTGRESQL);
        for (String sql : List.of("SELECT name FROM kept WHERE id = ?; DELETE FROM kept",
                "SELECT name FROM kept WHERE id = ?; SELECT 1")) {
            EngineVerdict v = check.check(pretend(sql, 1), policy);
            assertThat(v).as("%s: %s", sql, v).isNotInstanceOf(EngineVerdict.Confirmed.class);
        }
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM kept")) {
            rs.next();
            assertThat(rs.getInt(1)).as("the stacked DELETE was undone").isEqualTo(1);
        }
    }
}
