package dev.sqlagent.engine.mariadb;

import static dev.sqlagent.execution.ErrorCategory.AMBIGUOUS_COLUMN;
import static dev.sqlagent.execution.ErrorCategory.COLUMN_NOT_FOUND;
import static dev.sqlagent.execution.ErrorCategory.CONNECTION;
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
import dev.sqlagent.engine.ObjectRows;
import dev.sqlagent.engine.PlanReader;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.DatabaseObjects;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.engine.PrivilegeReport;
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
    /** MySQL and MariaDB server error codes, and the client codes (2xxx) their drivers report. */
    private static final Map<Integer, ErrorCategory> CODES = ErrorTables.codes(
            TABLE_NOT_FOUND, new int[] {1146, 1109, 1051, 1049},
            COLUMN_NOT_FOUND, new int[] {1054, 1247},
            AMBIGUOUS_COLUMN, new int[] {1052},
            SYNTAX_ERROR, new int[] {1064, 1149, 1248, 1222, 1241, 1060, 1066, 1221, 1235},
            GROUPING_ERROR, new int[] {1055, 1056, 1140, 1111, 1463},
            FUNCTION_NOT_FOUND, new int[] {1305, 1582, 1583, 1584, 1318, 1630},
            TYPE_MISMATCH, new int[] {1267, 1270, 1271, 1292, 1366, 1690, 3780},
            PERMISSION_DENIED, new int[] {1142, 1143, 1044, 1045, 1227, 1370, 1698, 1792, 1290, 1836},
            TIMEOUT, new int[] {3024, 1969, 1317, 1205},
            CONNECTION, new int[] {2002, 2003, 2005, 2006, 2013, 2055, 1053, 1152, 1158, 1159, 1160, 1161,
                1081, 1927, 4031},
            RESOURCE_LIMIT, new int[] {1040, 1041, 1114, 1104, 1037, 1038, 1203, 1226, 1021, 1135, 1206,
                1436, 3170, 1907, 1197});

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

    @Override
    public ErrorCategory errorOfVendorCode(int code) {
        return CODES.get(code);
    }

    @Override
    public PrivilegeReport auditPrivileges(Connection c, Dialect d, GuardPolicy policy) throws SQLException {
        return MariaDbPrivileges.mysql(c, d, policy);
    }

    @Override
    public void readObjects(Statement s, List<DatabaseObjects.Routine> routines, List<DatabaseObjects.Type> types)
            throws SQLException {
        ObjectRows.routinesOf(s, routines, "SELECT R.ROUTINE_SCHEMA, R.ROUTINE_NAME, "
                        + "R.ROUTINE_TYPE, R.ROUTINE_SCHEMA = DATABASE(), (SELECT GROUP_CONCAT(P.DATA_TYPE ORDER BY P.ORDINAL_POSITION SEPARATOR ',') "
                        + "FROM information_schema.PARAMETERS P WHERE P.SPECIFIC_SCHEMA = R.ROUTINE_SCHEMA "
                        + "AND P.SPECIFIC_NAME = R.SPECIFIC_NAME AND P.ORDINAL_POSITION > 0) "
                        + "FROM information_schema.ROUTINES R WHERE R.ROUTINE_TYPE = 'FUNCTION' AND R.ROUTINE_SCHEMA "
                        + "NOT IN ('mysql', 'sys', 'information_schema', 'performance_schema')");
    }

    @Override
    public String insertIfAbsent(String table, String columns, String values, String key) {
        return "INSERT INTO " + table + " (" + columns + ") VALUES (" + values + ") ON DUPLICATE KEY UPDATE " + key
                + " = " + key;
    }

    @Override
    public String upsert(String insert, String key, List<String> updated) {
        StringBuilder sql = new StringBuilder(insert).append(" ON DUPLICATE KEY UPDATE ");
        for (int i = 0; i < updated.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(updated.get(i)).append(" = VALUES(").append(updated.get(i))
                    .append(')');
        }
        return sql.toString();
    }

    @Override
    public String longTextType() {
        return "LONGTEXT";
    }

    /** MySQL has no {@code CREATE INDEX IF NOT EXISTS}; MariaDB has. */
    @Override
    public boolean createsIndexIfNotExists() {
        return dialect != Dialect.MYSQL;
    }
}
