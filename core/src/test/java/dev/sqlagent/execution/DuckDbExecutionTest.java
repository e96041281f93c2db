package dev.sqlagent.execution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link JdbcSqlExecutor} on a real in-process DuckDB ({@link DuckDbFiles}): read-only (a write, DDL
 * included, fails and leaves nothing), the row cap (DuckDB's driver ignores {@code setMaxRows}), the query
 * timeout (DuckDB's {@code INTERRUPT Error}), and the classification of the errors real wrong SQL gets from
 * DuckDB.
 */
class DuckDbExecutionTest {

    @TempDir
    Path dir;

    private DuckDbFiles db() throws Exception {
        Path csv = dir.resolve("singer.csv");
        Files.writeString(csv, "singer_id,name,country,age\n1,Joe,France,52\n2,Timbaland,United States,32\n"
                + "3,Justin,France,29\n4,Rose,Netherlands,41\n");
        return DuckDbFiles.builder().csv("singer", csv).open();
    }

    private static ExecutionOutcome run(JdbcSqlExecutor x, String sql) {
        return x.execute(new SqlStatement(sql, List.of()));
    }

    @Test
    void readsRowsWithTheRowCapAndStaysReadOnly() throws Exception {
        try (DuckDbFiles db = db()) {
            JdbcSqlExecutor x = JdbcSqlExecutor.builder(db).maxRows(2).queryTimeout(Duration.ofSeconds(5)).build();
            ExecutionOutcome ok = run(x, "SELECT name FROM singer ORDER BY singer_id");
            assertThat(ok).isInstanceOf(ExecutionOutcome.Success.class);
            ResultTable t = ((ExecutionOutcome.Success) ok).table();
            assertThat(t.rows()).hasSize(2);
            assertThat(t.truncated()).isTrue();
            for (String write : List.of("CREATE TABLE t AS SELECT 1 AS a", "CREATE VIEW v AS SELECT name FROM singer",
                    "DROP VIEW singer")) {
                ExecutionOutcome w = run(x, write);
                assertThat(w).as(write).isInstanceOf(ExecutionOutcome.Failure.class);
                assertThat(((ExecutionOutcome.Failure) w).error().category()).as(write)
                        .isEqualTo(ErrorCategory.PERMISSION_DENIED);
            }
            try (Connection c = db.getConnection(); Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT count(*) FROM duckdb_views() WHERE NOT internal")) {
                r.next();
                assertThat(r.getInt(1)).as("only the registered view").isEqualTo(1);
                assertThat(c.getAutoCommit()).isTrue();
            }
            // the connection is usable again after a refused write
            assertThat(run(x, "SELECT count(*) FROM singer")).isInstanceOf(ExecutionOutcome.Success.class);
        }
    }

    @Test
    void aLongQueryTimesOut() throws Exception {
        try (DuckDbFiles db = db()) {
            JdbcSqlExecutor x = JdbcSqlExecutor.builder(db).queryTimeout(Duration.ofSeconds(1)).build();
            long start = System.nanoTime();
            ExecutionOutcome o = run(x, "SELECT count(*) FROM singer a, singer b, singer c, singer d, singer e, "
                    + "singer f, singer g, singer h, singer i, singer j, singer k, singer l, singer m, singer n, "
                    + "singer o, singer p WHERE a.age + p.age > 0 AND md5(a.name || p.name) <> ''");
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertThat(o).isInstanceOf(ExecutionOutcome.Failure.class);
            assertThat(((ExecutionOutcome.Failure) o).error().category()).isEqualTo(ErrorCategory.TIMEOUT);
            assertThat(ms).isLessThan(10_000);
        }
    }

    /** Real wrong SQL on DuckDB, each with the category its error must get. */
    @Test
    void realDuckDbErrorsAreClassified() throws Exception {
        Map<String, ErrorCategory> cases = Map.ofEntries(
                Map.entry("SELECT name FROM singers", ErrorCategory.TABLE_NOT_FOUND),
                Map.entry("SELECT s.name FROM singer t", ErrorCategory.TABLE_NOT_FOUND),
                Map.entry("SELECT song_name FROM singer", ErrorCategory.COLUMN_NOT_FOUND),
                Map.entry("SELECT singer.nam FROM singer", ErrorCategory.COLUMN_NOT_FOUND),
                Map.entry("SELECT name FROM singer a JOIN singer b ON a.singer_id = b.singer_id",
                        ErrorCategory.AMBIGUOUS_COLUMN),
                Map.entry("SELECT country, name, count(*) FROM singer GROUP BY country", ErrorCategory.GROUPING_ERROR),
                Map.entry("SELECT max(avg(age)) FROM singer", ErrorCategory.GROUPING_ERROR),
                Map.entry("SELECT name FROM singer WHERE age = 'old'", ErrorCategory.TYPE_MISMATCH),
                Map.entry("SELECT name FROM singer WHERE name > 3", ErrorCategory.TYPE_MISMATCH),
                Map.entry("SELECT CAST(name AS INTEGER) FROM singer", ErrorCategory.TYPE_MISMATCH),
                Map.entry("SELECT nosuchfn(age) FROM singer", ErrorCategory.FUNCTION_NOT_FOUND),
                Map.entry("SELECT sum(name) FROM singer", ErrorCategory.FUNCTION_NOT_FOUND),
                Map.entry("SELECT name FROM singer WHERE", ErrorCategory.SYNTAX_ERROR),
                Map.entry("SELECT name FROM singer ORDER BY", ErrorCategory.SYNTAX_ERROR),
                Map.entry("SELECT name FROM singer WHERE age = (SELECT age FROM singer)", ErrorCategory.SYNTAX_ERROR),
                Map.entry("SELECT name FROM singer UNION SELECT name, age FROM singer", ErrorCategory.SYNTAX_ERROR),
                Map.entry("SELECT * FROM read_csv('/etc/passwd')", ErrorCategory.PERMISSION_DENIED),
                Map.entry("SET enable_external_access = true", ErrorCategory.PERMISSION_DENIED));
        try (DuckDbFiles db = db(); Connection c = db.getConnection()) {
            for (Map.Entry<String, ErrorCategory> e : cases.entrySet()) {
                SQLException error = null;
                try (Statement s = c.createStatement()) {
                    s.execute(e.getKey());
                } catch (SQLException ex) {
                    error = ex;
                }
                assertThat((Object) error).as("DuckDB refuses %s", e.getKey()).isNotNull();
                assertThat(ErrorClassifier.standard().classify(Dialect.DUCKDB, error))
                        .as("%s -> %s", e.getKey(), error.getMessage()).isEqualTo(e.getValue());
            }
        }
    }

    @Test
    void thePrivilegeAuditWarnsOnAnUnlockedDuckDbAndNotOnALockedOne() throws Exception {
        dev.sqlagent.guard.GuardPolicy policy = dev.sqlagent.guard.GuardPolicy.builder().allowTables("singer").build();
        try (DuckDbFiles db = db()) {
            dev.sqlagent.guard.engine.PrivilegeReport locked = dev.sqlagent.guard.engine.PrivilegeAudit.audit(db,
                    Dialect.DUCKDB, policy);
            assertThat(locked.writes()).isEmpty();
            assertThat(locked.forbiddenTables()).isEmpty();
        }
        org.duckdb.DuckDBConnection open = (org.duckdb.DuckDBConnection) java.sql.DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = open.createStatement()) {
            s.execute("CREATE TABLE singer (a INT)");
            s.execute("CREATE TABLE secrets (a INT)");
            javax.sql.DataSource ds = new javax.sql.DataSource() {
                public Connection getConnection() throws SQLException { return open.duplicate(); }
                public Connection getConnection(String u, String p) throws SQLException { return open.duplicate(); }
                public java.io.PrintWriter getLogWriter() { return null; }
                public void setLogWriter(java.io.PrintWriter out) { }
                public void setLoginTimeout(int seconds) { }
                public int getLoginTimeout() { return 0; }
                public java.util.logging.Logger getParentLogger() { return null; }
                public <T> T unwrap(Class<T> iface) throws SQLException { throw new SQLException(); }
                public boolean isWrapperFor(Class<?> iface) { return false; }
            };
            dev.sqlagent.guard.engine.PrivilegeReport unlocked = dev.sqlagent.guard.engine.PrivilegeAudit.audit(ds,
                    Dialect.DUCKDB, policy);
            assertThat(String.join(" ", unlocked.writes())).contains("enable_external_access", "lock_configuration");
            assertThat(unlocked.forbiddenTables()).containsExactly("main.secrets");
            assertThat(unlocked.guardIsOnlyDefence()).isTrue();
        } finally {
            open.close();
        }
    }
}
