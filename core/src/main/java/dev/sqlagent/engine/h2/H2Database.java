package dev.sqlagent.engine.h2;

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
import dev.sqlagent.guard.DatabaseObjects;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.engine.PrivilegeReport;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** How the library talks to a H2 database. */
final class H2Database implements EngineDatabase {
    /** H2's {@code org.h2.api.ErrorCode} constants. */
    private static final Map<Integer, ErrorCategory> CODES = ErrorTables.codes(
            TABLE_NOT_FOUND, new int[] {42102, 42103, 42104, 90079},
            COLUMN_NOT_FOUND, new int[] {42122, 90068, 90157},
            AMBIGUOUS_COLUMN, new int[] {90059},
            SYNTAX_ERROR, new int[] {42000, 42001, 21002, 50004, 90122},
            GROUPING_ERROR, new int[] {90016, 90054, 90145},
            FUNCTION_NOT_FOUND, new int[] {90022, 7001, 90087, 90132, 90136, 90139},
            TYPE_MISMATCH, new int[] {22003, 22004, 22007, 22018, 90003, 90004, 90015, 90110},
            PERMISSION_DENIED, new int[] {28000, 90040, 90096, 90097, 90134},
            TIMEOUT, new int[] {57014, 50200},
            CONNECTION, new int[] {90007, 90013, 90020, 90028, 90031, 90067, 90098, 90121, 90146, 90149},
            RESOURCE_LIMIT, new int[] {90108});

    private final Dialect dialect;

    H2Database(Dialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public Optional<PlanReader> planReader() {
        return Optional.of(new H2Reader());
    }

    @Override
    public List<String> driverPackages() {
        return List.of("org.h2.");
    }

    @Override
    public ErrorCategory errorOfVendorCode(int code) {
        return CODES.get(code);
    }

    @Override
    public PrivilegeReport auditPrivileges(Connection c, Dialect d, GuardPolicy policy) throws SQLException {
        return H2Privileges.h2(c, policy);
    }

    @Override
    public void readObjects(Statement s, List<DatabaseObjects.Routine> routines, List<DatabaseObjects.Type> types)
            throws SQLException {
        ObjectRows.routinesOf(s, routines, "SELECT R.ROUTINE_SCHEMA, R.ROUTINE_NAME, R.ROUTINE_TYPE, TRUE, "
                        + "(SELECT LISTAGG(P.DATA_TYPE, ',') WITHIN GROUP (ORDER BY P.ORDINAL_POSITION) "
                        + "FROM INFORMATION_SCHEMA.PARAMETERS P WHERE P.SPECIFIC_SCHEMA = R.SPECIFIC_SCHEMA "
                        + "AND P.SPECIFIC_NAME = R.SPECIFIC_NAME) FROM INFORMATION_SCHEMA.ROUTINES R "
                        + "WHERE R.ROUTINE_SCHEMA <> 'INFORMATION_SCHEMA'");
    }

    @Override
    public String insertIfAbsent(String table, String columns, String values, String key) {
        return "MERGE INTO " + table + " (" + columns + ") KEY (" + key + ") VALUES (" + values + ")";
    }

    @Override
    public String longTextType() {
        return "CLOB";
    }
}
