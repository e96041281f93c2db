package dev.sqlagent.engine.sqlite;

import static dev.sqlagent.execution.ErrorCategory.CONNECTION;
import static dev.sqlagent.execution.ErrorCategory.PERMISSION_DENIED;
import static dev.sqlagent.execution.ErrorCategory.RESOURCE_LIMIT;
import static dev.sqlagent.execution.ErrorCategory.TIMEOUT;
import static dev.sqlagent.execution.ErrorCategory.TYPE_MISMATCH;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.ErrorTables;
import dev.sqlagent.engine.PlanReader;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.guard.FunctionPolicy;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.engine.PrivilegeReport;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** How the library talks to a SQLite database. */
final class SqliteDatabase implements EngineDatabase {
    /**
     * SQLite primary result codes (the low byte of an extended code). {@code SQLITE_ERROR} (1) says only
     * "SQL error" and is left to the message.
     */
    private static final Map<Integer, ErrorCategory> CODES = ErrorTables.codes(
            PERMISSION_DENIED, new int[] {3 /* PERM */, 8 /* READONLY */, 23 /* AUTH */},
            TIMEOUT, new int[] {5 /* BUSY */, 6 /* LOCKED */, 9 /* INTERRUPT */},
            RESOURCE_LIMIT, new int[] {7 /* NOMEM */, 13 /* FULL */, 18 /* TOOBIG */},
            CONNECTION, new int[] {10 /* IOERR */, 14 /* CANTOPEN */, 26 /* NOTADB */},
            TYPE_MISMATCH, new int[] {20 /* MISMATCH */});

    private final Dialect dialect;

    SqliteDatabase(Dialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public Optional<PlanReader> planReader() {
        return Optional.of(new SqliteReader());
    }

    @Override
    public Map<String, List<String>> functionAliases() {
        // "" marks a name the engine uses for syntax the guard checks as syntax (LIKE, GLOB)
        return Map.of("like", List.of(""), "glob", List.of(""), "substring", List.of("substr"));
    }

    /** An FTS5 auxiliary function the reader found bound to an FTS5 cursor's row (read whole). */
    @Override
    public Optional<Boolean> markedFunctionAllowed(String name, FunctionPolicy functions, Dialect d) {
        if (!name.startsWith(SqliteReader.FTS5_BOUND)) {
            return Optional.empty();
        }
        return Optional.of(functions.decideFts5Auxiliary(name.substring(SqliteReader.FTS5_BOUND.length()), d)
                .allowed());
    }

    /** {@code PRAGMA query_only}, then SQLite's own resource limits ({@link SqliteLimits}). */
    @Override
    public boolean enterReadOnly(Connection c, boolean begun) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA query_only = 1");
        }
        SqliteLimits.apply(c);
        return true;
    }

    @Override
    public void leaveReadOnly(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA query_only = 0");
        }
    }

    /** sqlite-jdbc has no execution timeout of its own. */
    @Override
    public boolean driverTimesOut() {
        return false;
    }

    @Override
    public List<String> driverPackages() {
        return List.of("org.sqlite.");
    }

    @Override
    public ErrorCategory errorOfVendorCode(int code) {
        return CODES.get(code & 0xFF);
    }

    @Override
    public PrivilegeReport auditPrivileges(Connection c, Dialect d, GuardPolicy policy) throws SQLException {
        return SqlitePrivileges.sqlite(c, policy);
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
}
