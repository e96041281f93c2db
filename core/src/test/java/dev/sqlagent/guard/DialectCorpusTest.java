package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.testing.DatabaseServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * No false rejection of valid dialect-specific SQL: every statement of each dialect's corpus is accepted,
 * and the SQL the guard would run is valid on the real engine (SQLite and H2 in process; PostgreSQL and
 * MariaDB on the test servers), which proves the corpus valid and the rewrite faithful.
 */
class DialectCorpusTest {

    private final SqlGuard guard = SqlGuard.create();

    private List<String> accepted(Dialect dialect, List<String> rejected) throws Exception {
        List<String> out = new ArrayList<>();
        for (String sql : DialectCorpus.statements(dialect)) {
            GuardVerdict v = guard.check(sql, DialectCorpus.policy(), dialect);
            if (v instanceof GuardVerdict.Accepted) {
                out.add(((GuardVerdict.Accepted) v).statement().sql());
            } else {
                rejected.add(dialect + ": " + sql.replace('\n', ' ') + " -> " + v);
            }
        }
        return out;
    }

    @Test
    void everyStatementOfEveryDialectCorpusIsAccepted() throws Exception {
        List<String> rejected = new ArrayList<>();
        int total = 0;
        for (Dialect d : DialectCorpus.DIALECTS) {
            List<String> statements = DialectCorpus.statements(d);
            assertThat(statements).as("corpus of %s", d).hasSizeGreaterThanOrEqualTo(60);
            total += statements.size();
            accepted(d, rejected);
        }
        accepted(Dialect.MARIADB, rejected);
        rejected.forEach(System.out::println);
        System.out.printf("DIALECT CORPUS: %d statements, %d false rejections%n", total, rejected.size());
        assertThat(rejected).isEmpty();
    }

    @Test
    void theSqlToRunIsValidOnSqliteAndH2() throws Exception {
        List<String> failures = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            runAll(c, Dialect.SQLITE, failures);
        }
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:guardcorpus;DB_CLOSE_DELAY=-1")) {
            runAll(c, Dialect.H2, failures);
        }
        failures.forEach(System.out::println);
        assertThat(failures).isEmpty();
    }

    @Test
    void theSqlToRunIsValidOnPostgresql() throws Exception {
        DatabaseServer pg = DatabaseServer.postgres().require();
        List<String> failures = new ArrayList<>();
        try (Connection c = pg.adminDataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS guard_corpus");
            s.execute("SET search_path TO guard_corpus");
            runAll(c, Dialect.POSTGRESQL, failures);
        }
        failures.forEach(System.out::println);
        assertThat(failures).isEmpty();
    }

    @Test
    void theSqlToRunIsValidOnMariadb() throws Exception {
        DatabaseServer maria = DatabaseServer.mariadb().require();
        List<String> failures = new ArrayList<>();
        try (Connection c = maria.adminDataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS guard_corpus");
            s.execute("USE guard_corpus");
            runAll(c, Dialect.MARIADB, failures);
        }
        failures.forEach(System.out::println);
        assertThat(failures).isEmpty();
    }

    private void runAll(Connection c, Dialect dialect, List<String> failures) throws Exception {
        DialectCorpus.createSchema(c, dialect);
        List<String> rejected = new ArrayList<>();
        for (String sql : accepted(dialect, rejected)) {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        // drain
                    }
                }
            } catch (SQLException e) {
                failures.add(dialect + ": " + sql + " -> " + e.getMessage());
            }
        }
    }
}
