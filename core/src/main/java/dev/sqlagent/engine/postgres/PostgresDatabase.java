package dev.sqlagent.engine.postgres;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.PlanReader;
import dev.sqlagent.execution.JdbcSqlExecutor;
import dev.sqlagent.guard.DatabaseObjects;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.engine.PrivilegeReport;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How the library talks to a PostgreSQL database. */
final class PostgresDatabase implements EngineDatabase {
    /** The executor's logger, where its cancels were logged before they moved here. */
    private static final Logger LOG = LoggerFactory.getLogger("dev.sqlagent.execution.JdbcSqlExecutor");
    private final Dialect dialect;

    PostgresDatabase(Dialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public Optional<PlanReader> planReader() {
        return Optional.of(new PostgresReader());
    }

    @Override
    public boolean readsOwnFunctionsByIdentity() {
        return true;
    }

    @Override
    public boolean networked() {
        return true;
    }

    @Override
    public List<String> driverPackages() {
        return List.of("org.postgresql.");
    }

    /**
     * PostgreSQL's timeout runs in the server ({@code SET LOCAL statement_timeout}, undone by the rollback)
     * rather than in the driver: pgjdbc's cancel opens a second connection, which a partition blocks for
     * its {@code cancelSignalTimeout} (10 s by default), and the statement waits for a cancel in progress
     * before it returns, even after its connection was aborted.
     */
    @Override
    public Optional<Runnable> serverTimeout(Connection c, DataSource dataSource, long timeoutMillis,
                                            boolean physicalOrder) throws SQLException {
        // set_config(…, true) is SET LOCAL; the backend's pid comes in the same round trip, for cancels
        int pid;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT set_config('statement_timeout', '" + timeoutMillis + "', true), pg_backend_pid()"
                        + (physicalOrder ? JdbcSqlExecutor.PHYSICAL_ORDER : ""))) {
            rs.next();
            pid = rs.getInt(2);
        }
        return Optional.of(() -> cancelBackend(dataSource, pid));
    }

    /**
     * Cancels a PostgreSQL backend's running statement from a connection of its own. pgjdbc's
     * {@link Statement#cancel()} sends one cancel request and then refuses to send another, but PostgreSQL
     * drops a cancel that arrives while the backend waits between the messages of a statement (it already
     * shows as active then); one of our runs saw the statement go on for 30 s after such a cancel. This
     * one can be sent again until the statement returns.
     */
    private static void cancelBackend(DataSource dataSource, int pid) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT pg_cancel_backend(?)")) {
            ps.setInt(1, pid);
            ps.execute();
            LOG.debug("sent a cancel to backend {}", pid);
        } catch (SQLException | RuntimeException e) {
            LOG.debug("could not cancel backend {}: {}", pid, e.toString());
        }
    }

    @Override
    public PrivilegeReport auditPrivileges(Connection c, Dialect d, GuardPolicy policy) throws SQLException {
        return PostgresPrivileges.postgres(c, policy);
    }

    @Override
    public void readObjects(Statement s, List<DatabaseObjects.Routine> routines, List<DatabaseObjects.Type> types)
            throws SQLException {
        PostgresCatalogObjects.read(s, routines, types);
    }

    @Override
    public String insertIfAbsent(String table, String columns, String values, String key) {
        return "INSERT INTO " + table + " (" + columns + ") VALUES (" + values + ") ON CONFLICT (" + key + ") DO NOTHING";
    }

    @Override
    public String upsert(String insert, String key, List<String> updated) {
        StringBuilder sql = new StringBuilder(insert).append(" ON CONFLICT (").append(key).append(") DO UPDATE SET ");
        for (int i = 0; i < updated.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(updated.get(i)).append(" = excluded.").append(updated.get(i));
        }
        return sql.toString();
    }

    @Override
    public boolean driverCancelNeedsSecondConnection() {
        return true;
    }
}
