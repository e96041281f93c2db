package dev.sqlagent.engine.duckdb;

import static dev.sqlagent.execution.ErrorCategory.AMBIGUOUS_COLUMN;
import static dev.sqlagent.execution.ErrorCategory.COLUMN_NOT_FOUND;
import static dev.sqlagent.execution.ErrorCategory.FUNCTION_NOT_FOUND;
import static dev.sqlagent.execution.ErrorCategory.GROUPING_ERROR;
import static dev.sqlagent.execution.ErrorCategory.PERMISSION_DENIED;
import static dev.sqlagent.execution.ErrorCategory.RESOURCE_LIMIT;
import static dev.sqlagent.execution.ErrorCategory.SYNTAX_ERROR;
import static dev.sqlagent.execution.ErrorCategory.TABLE_NOT_FOUND;
import static dev.sqlagent.execution.ErrorCategory.TIMEOUT;
import static dev.sqlagent.execution.ErrorCategory.TYPE_MISMATCH;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.ErrorTables;
import dev.sqlagent.engine.PlanReader;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.guard.DatabaseObjects;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.engine.PrivilegeReport;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

/** How the library talks to a DuckDB database. */
final class DuckDbDatabase implements EngineDatabase {
    /**
     * DuckDB's rules: its driver sets neither SQLState nor vendor code, and every message starts with the
     * error's kind ({@code Catalog Error:}, {@code Binder Error:}, {@code Parser Error:}, {@code Conversion
     * Error:}, {@code INTERRUPT Error:}, …). Read from the messages real wrong SQL gets from DuckDB 2.0
     * (the Spider predictions replayed on DuckDB); the generic patterns still apply after these.
     */
    private static final List<ErrorTables.Rule> RULES = List.of(
            ErrorTables.rule(TIMEOUT, "^interrupt error"),
            ErrorTables.rule(PERMISSION_DENIED, "^permission error|read-only mode|cannot write to database|attached in read-only"
                    + "|the configuration has been locked"),
            ErrorTables.rule(RESOURCE_LIMIT, "^out of memory error"),
            ErrorTables.rule(AMBIGUOUS_COLUMN, "^binder error: ambiguous reference"),
            ErrorTables.rule(TABLE_NOT_FOUND, "^catalog error: (table|view|schema|catalog|table or view) with name .* does not exist"
                    + "|^binder error: referenced table .* not found|^catalog error: .*: no catalog \\+ schema"),
            // an operator over the wrong types ('+(VARCHAR, INTEGER_LITERAL)'): the operator exists, not for these
            // operands, as PostgreSQL's "operator does not exist" (a named function, sum(VARCHAR), stays below)
            ErrorTables.rule(TYPE_MISMATCH, "^binder error: no function matches the given name and argument types '[^\\w\\s(']+\\("),
            ErrorTables.rule(FUNCTION_NOT_FOUND, "^catalog error: \\w+ (function|macro|function or macro) with name .* does "
                    + "not exist|^binder error: no function matches"),
            ErrorTables.rule(COLUMN_NOT_FOUND, "^binder error: referenced column .* not found|does not have a column named"
                    + "|^binder error: column .* does not exist|^binder error: values list .* does not have a column"),
            ErrorTables.rule(GROUPING_ERROR, "must appear in the group by|aggregate function calls cannot be nested"
                    + "|^binder error: .*aggregates? .*(not allowed|cannot)|window functions are not allowed"
                    + "|group by clause cannot contain aggregates"),
            ErrorTables.rule(TYPE_MISMATCH, "^conversion error|^binder error: cannot compare values|^binder error: cannot mix"
                    + "|could not convert|^binder error: .*implicit cast"),
            ErrorTables.rule(SYNTAX_ERROR, "^parser error|more than one row returned by a subquery"
                    + "|^binder error: set operations can only apply to expressions with the same number"));


    private final Dialect dialect;

    DuckDbDatabase(Dialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public Optional<PlanReader> planReader() {
        return Optional.of(new DuckDbReader());
    }

    @Override
    public boolean readsOwnFunctionsByIdentity() {
        return true;
    }

    @Override
    public boolean beginsTransaction(boolean autoCommit) {
        return true;
    }

    /**
     * The driver cannot change an open connection's read-only flag; a read-only transaction refuses every
     * write, DDL included.
     */
    @Override
    public boolean enterReadOnly(Connection c, boolean begun) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("BEGIN TRANSACTION READ ONLY");
        }
        return false;
    }

    @Override
    public List<String> driverPackages() {
        return List.of("org.duckdb.");
    }

    @Override
    public ErrorCategory errorOfMessage(String lowerEssence) {
        return ErrorTables.first(RULES, lowerEssence);
    }

    @Override
    public PrivilegeReport auditPrivileges(Connection c, Dialect d, GuardPolicy policy) throws SQLException {
        return DuckDbPrivileges.duckdb(c, policy);
    }

    @Override
    public void readObjects(Statement s, List<DatabaseObjects.Routine> routines, List<DatabaseObjects.Type> types)
            throws SQLException {
        DuckDbCatalogObjects.read(s, routines);
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
    public boolean retriesWriteConflicts() {
        return true;
    }
}
