package dev.sqlagent.engine.generic;

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
import dev.sqlagent.execution.ErrorCategory;
import java.util.List;
import java.util.Map;

/** How the library talks to a parse-only database. */
final class GenericDatabase implements EngineDatabase {
    /** Microsoft SQL Server message numbers. */
    private static final Map<Integer, ErrorCategory> SQLSERVER = ErrorTables.codes(
            TABLE_NOT_FOUND, new int[] {208, 15151},
            COLUMN_NOT_FOUND, new int[] {207, 4104, 1911},
            AMBIGUOUS_COLUMN, new int[] {209},
            SYNTAX_ERROR, new int[] {102, 156, 105, 170, 319, 8155, 1038, 205, 116, 4145},
            GROUPING_ERROR, new int[] {8120, 8121, 130, 147, 144, 4109},
            FUNCTION_NOT_FOUND, new int[] {195, 4121, 174, 189, 8144, 2812},
            TYPE_MISMATCH, new int[] {245, 8114, 206, 402, 241, 8115, 8116, 257, 529},
            PERMISSION_DENIED, new int[] {229, 230, 262, 297, 300, 916, 18456, 3906},
            TIMEOUT, new int[] {1222},
            CONNECTION, new int[] {233, 10053, 10054, 10060, 10061, 4060, 40613, 6005},
            RESOURCE_LIMIT, new int[] {701, 1105, 9002, 1204, 8623, 8645, 40501, 10928, 10929, 802});

    /** Oracle {@code ORA-nnnnn} numbers, and the Oracle JDBC driver's own 17xxx codes. */
    private static final Map<Integer, ErrorCategory> ORACLE = ErrorTables.codes(
            TABLE_NOT_FOUND, new int[] {942, 4043},
            // ORA-00904 "invalid identifier" is also what an unknown function gives; it stays a column
            COLUMN_NOT_FOUND, new int[] {904},
            AMBIGUOUS_COLUMN, new int[] {918},
            SYNTAX_ERROR, new int[] {900, 905, 906, 907, 911, 917, 920, 921, 923, 924, 928, 933, 936, 969,
                1756, 1789, 32034},
            GROUPING_ERROR, new int[] {979, 937, 934, 935, 30483},
            FUNCTION_NOT_FOUND, new int[] {909, 6553, 6576},
            TYPE_MISMATCH, new int[] {1722, 932, 1858, 1861, 1840, 1843, 1847, 1830, 1790},
            PERMISSION_DENIED, new int[] {1031, 1017, 1045, 16000, 1035},
            TIMEOUT, new int[] {1013, 54, 30006, 56735},
            CONNECTION, new int[] {3113, 3114, 3135, 12541, 12514, 12170, 12537, 1033, 1034, 1089, 2396,
                28, 17002, 17008, 17410},
            RESOURCE_LIMIT, new int[] {1652, 4031, 4030, 1653, 1654, 18, 20, 2391, 2393, 2395, 1536, 30036,
                1628});

    private final Dialect dialect;

    GenericDatabase(Dialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public List<String> driverPackages() {
        return switch (dialect) {
            case SQLSERVER -> List.of("com.microsoft.sqlserver.");
            case ORACLE -> List.of("oracle.");
            default -> List.of();
        };
    }

    @Override
    public ErrorCategory errorOfVendorCode(int code) {
        return switch (dialect) {
            case SQLSERVER -> SQLSERVER.get(code);
            case ORACLE -> ORACLE.get(Math.abs(code));
            default -> null;
        };
    }

    @Override
    public String longTextType() {
        return switch (dialect) {
            case ORACLE -> "CLOB";
            case SQLSERVER -> "NVARCHAR(MAX)";
            default -> "TEXT";
        };
    }
}
