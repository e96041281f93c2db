package dev.sqlagent.engine.mariadb;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.PlanReader;
import dev.sqlagent.execution.SqlStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** How the library talks to a MariaDB or MySQL database. */
final class MariaDbDatabase implements EngineDatabase {
    private final Dialect dialect;

    MariaDbDatabase(Dialect dialect) {
        this.dialect = dialect;
    }

    /** The names the optimizer prints for functions called by another name, for both MariaDB and MySQL. */
    private static final Map<String, List<String>> ALIASES = Map.of("ucase", List.of("upper"), "lcase",
            List.of("lower"), "substr", List.of("substring"), "octet_length", List.of("length"), "curdate",
            List.of("current_date"), "curtime", List.of("current_time"), "pow", List.of("power"), "ceiling",
            List.of("ceil"),
            // the optimizer's own guard on a NOT IN subquery's NULLs
            "trigcond", List.of(""));

    @Override
    public Optional<PlanReader> planReader() {
        return Optional.of(new MariaDbReader(dialect == Dialect.MYSQL));
    }

    @Override
    public Map<String, List<String>> functionAliases() {
        return ALIASES;
    }

    @Override
    public boolean networked() {
        return true;
    }

    @Override
    public boolean plansWithSecondLogin() {
        return true;
    }

    /**
     * {@code PREPARE}s the statement as the run login (its privileges decide every name, no row is read) and
     * deallocates it; the user variable carrying the text is cleared either way.
     */
    @Override
    public void prepareAsRunLogin(Connection run, SqlStatement statement, int seconds) throws SQLException {
        try (PreparedStatement ps = run.prepareStatement("SET @sqlagent_planned = ?")) {
            ps.setQueryTimeout(seconds);
            ps.setString(1, statement.sql());
            ps.execute();
        }
        try {
            execute(run, "PREPARE sqlagent_planned FROM @sqlagent_planned", seconds);
            execute(run, "DEALLOCATE PREPARE sqlagent_planned", seconds);
        } catch (SQLException e) {
            try {
                execute(run, "SET @sqlagent_planned = NULL", seconds);
            } catch (SQLException again) {
                e.addSuppressed(again);
            }
            throw e;
        }
        execute(run, "SET @sqlagent_planned = NULL", seconds);
    }

    /** The database and the {@code sql_mode}. */
    @Override
    public String planningSession(Connection c, int seconds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT DATABASE(), @@SESSION.sql_mode")) {
            ps.setQueryTimeout(seconds);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? "[" + rs.getString(1) + ", " + rs.getString(2) + "]" : "[]";
            }
        }
    }

    private static void execute(Connection c, String sql, int seconds) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.setQueryTimeout(seconds);
            s.execute(sql);
        }
    }

    @Override
    public List<String> driverPackages() {
        return List.of(dialect == Dialect.MYSQL ? "com.mysql." : "org.mariadb.");
    }

    @Override
    public boolean beginsTransaction(boolean autoCommit) {
        return autoCommit;
    }

    @Override
    public boolean enterReadOnly(Connection c, boolean begun) throws SQLException {
        c.setReadOnly(true);
        try (Statement s = c.createStatement()) {
            // begun: in auto-commit mode, the statement begins the transaction it makes read-only
            s.execute(begun ? "START TRANSACTION READ ONLY" : "SET TRANSACTION READ ONLY");
        }
        return false;
    }
}
