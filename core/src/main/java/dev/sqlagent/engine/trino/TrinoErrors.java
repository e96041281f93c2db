package dev.sqlagent.engine.trino;

import dev.sqlagent.execution.ErrorCategory;
import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.util.Map;
import java.util.concurrent.CancellationException;

/**
 * Classifies what Trino reports. The Trino JDBC driver (483) throws a plain {@link SQLException} whose
 * {@link SQLException#getErrorCode() error code} is the server's {@code io.trino.spi.StandardErrorCode} number
 * (no SQLState; the error name is not in the message, and the cause is a copy of the server's exception whose
 * class names it {@code io.trino.spi.TrinoException}): {@code 46} for {@code TABLE_NOT_FOUND}, {@code 131075}
 * for {@code EXCEEDED_TIME_LIMIT}. Codes are grouped by type: below {@code 0x10000} the user's (the SQL's) error,
 * {@code 0x10000} internal, {@code 0x20000} insufficient resources, {@code 0x1000000} and up a connector's own.
 * A failure to reach the server has code 0 and an I/O exception as its cause; a statement cancelled from
 * another thread has code 0 and a {@link CancellationException} as its cause, on the client, while the cluster
 * records {@code USER_CANCELED} (3).
 */
public final class TrinoErrors {

    /** The first code of Trino's internal errors ({@code GENERIC_INTERNAL_ERROR}). */
    static final int INTERNAL = 0x1_0000;
    /** The first code of Trino's insufficient-resource errors ({@code GENERIC_INSUFFICIENT_RESOURCES}). */
    static final int INSUFFICIENT_RESOURCES = 0x2_0000;
    /** The first code a connector may use for its own errors. */
    static final int CONNECTOR = 0x100_0000;

    /** {@code io.trino.spi.StandardErrorCode} numbers, each with its name in a comment. */
    private static final Map<Integer, ErrorCategory> CODES = Map.ofEntries(
            Map.entry(1, ErrorCategory.SYNTAX_ERROR),          // SYNTAX_ERROR
            Map.entry(3, ErrorCategory.TIMEOUT),               // USER_CANCELED: the agent's own cancel at its timeout
            Map.entry(4, ErrorCategory.PERMISSION_DENIED),     // PERMISSION_DENIED
            Map.entry(6, ErrorCategory.FUNCTION_NOT_FOUND),    // FUNCTION_NOT_FOUND
            Map.entry(7, ErrorCategory.TYPE_MISMATCH),         // INVALID_FUNCTION_ARGUMENT
            Map.entry(9, ErrorCategory.TYPE_MISMATCH),         // INVALID_CAST_ARGUMENT
            Map.entry(10, ErrorCategory.FUNCTION_NOT_FOUND),   // OPERATOR_NOT_FOUND
            Map.entry(15, ErrorCategory.SYNTAX_ERROR),         // INVALID_WINDOW_FRAME
            Map.entry(19, ErrorCategory.TYPE_MISMATCH),        // NUMERIC_VALUE_OUT_OF_RANGE
            Map.entry(23, ErrorCategory.PERMISSION_DENIED),    // READ_ONLY_VIOLATION
            Map.entry(28, ErrorCategory.TYPE_MISMATCH),        // SUBQUERY_MULTIPLE_ROWS
            Map.entry(32, ErrorCategory.FUNCTION_NOT_FOUND),   // AMBIGUOUS_FUNCTION_CALL
            Map.entry(35, ErrorCategory.RESOURCE_LIMIT),       // QUERY_TEXT_TOO_LARGE
            Map.entry(37, ErrorCategory.RESOURCE_LIMIT),       // EXCEEDED_FUNCTION_MEMORY_LIMIT
            Map.entry(40, ErrorCategory.RESOURCE_LIMIT),       // QUERY_HAS_TOO_MANY_STAGES
            Map.entry(43, ErrorCategory.TYPE_MISMATCH),        // TYPE_NOT_FOUND
            Map.entry(44, ErrorCategory.TABLE_NOT_FOUND),      // CATALOG_NOT_FOUND
            Map.entry(45, ErrorCategory.TABLE_NOT_FOUND),      // SCHEMA_NOT_FOUND
            Map.entry(46, ErrorCategory.TABLE_NOT_FOUND),      // TABLE_NOT_FOUND
            Map.entry(47, ErrorCategory.COLUMN_NOT_FOUND),     // COLUMN_NOT_FOUND
            Map.entry(53, ErrorCategory.SYNTAX_ERROR),         // DUPLICATE_NAMED_QUERY
            Map.entry(54, ErrorCategory.SYNTAX_ERROR),         // DUPLICATE_COLUMN_NAME
            Map.entry(55, ErrorCategory.SYNTAX_ERROR),         // MISSING_COLUMN_NAME
            Map.entry(56, ErrorCategory.TABLE_NOT_FOUND),      // MISSING_CATALOG_NAME
            Map.entry(57, ErrorCategory.TABLE_NOT_FOUND),      // MISSING_SCHEMA_NAME
            Map.entry(58, ErrorCategory.TYPE_MISMATCH),        // TYPE_MISMATCH
            Map.entry(59, ErrorCategory.TYPE_MISMATCH),        // INVALID_LITERAL
            Map.entry(60, ErrorCategory.TYPE_MISMATCH),        // COLUMN_TYPE_UNKNOWN
            Map.entry(61, ErrorCategory.SYNTAX_ERROR),         // MISMATCHED_COLUMN_ALIASES
            Map.entry(62, ErrorCategory.AMBIGUOUS_COLUMN),     // AMBIGUOUS_NAME
            Map.entry(63, ErrorCategory.COLUMN_NOT_FOUND),     // INVALID_COLUMN_REFERENCE
            Map.entry(64, ErrorCategory.GROUPING_ERROR),       // MISSING_GROUP_BY
            Map.entry(65, ErrorCategory.SYNTAX_ERROR),         // MISSING_ORDER_BY
            Map.entry(66, ErrorCategory.SYNTAX_ERROR),         // MISSING_OVER
            Map.entry(67, ErrorCategory.GROUPING_ERROR),       // NESTED_AGGREGATION
            Map.entry(68, ErrorCategory.GROUPING_ERROR),       // NESTED_WINDOW
            Map.entry(69, ErrorCategory.GROUPING_ERROR),       // EXPRESSION_NOT_IN_DISTINCT
            Map.entry(70, ErrorCategory.GROUPING_ERROR),       // TOO_MANY_GROUPING_SETS
            Map.entry(71, ErrorCategory.FUNCTION_NOT_FOUND),   // FUNCTION_NOT_WINDOW
            Map.entry(72, ErrorCategory.FUNCTION_NOT_FOUND),   // FUNCTION_NOT_AGGREGATE
            Map.entry(73, ErrorCategory.GROUPING_ERROR),       // EXPRESSION_NOT_AGGREGATE
            Map.entry(74, ErrorCategory.TYPE_MISMATCH),        // EXPRESSION_NOT_SCALAR
            Map.entry(75, ErrorCategory.SYNTAX_ERROR),         // EXPRESSION_NOT_CONSTANT
            Map.entry(76, ErrorCategory.FUNCTION_NOT_FOUND),   // INVALID_ARGUMENTS
            Map.entry(77, ErrorCategory.FUNCTION_NOT_FOUND),   // TOO_MANY_ARGUMENTS
            Map.entry(80, ErrorCategory.SYNTAX_ERROR),         // INVALID_PARAMETER_USAGE
            Map.entry(83, ErrorCategory.SYNTAX_ERROR),         // NULL_TREATMENT_NOT_ALLOWED
            Map.entry(86, ErrorCategory.TABLE_NOT_FOUND),      // MISSING_TABLE
            Map.entry(87, ErrorCategory.SYNTAX_ERROR),         // INVALID_RECURSIVE_REFERENCE
            Map.entry(88, ErrorCategory.SYNTAX_ERROR),         // MISSING_COLUMN_ALIASES
            Map.entry(89, ErrorCategory.SYNTAX_ERROR),         // NESTED_RECURSIVE
            Map.entry(90, ErrorCategory.SYNTAX_ERROR),         // INVALID_LIMIT_CLAUSE
            Map.entry(91, ErrorCategory.SYNTAX_ERROR),         // INVALID_ORDER_BY
            Map.entry(65_540, ErrorCategory.CONNECTION),       // PAGE_TRANSPORT_TIMEOUT
            Map.entry(65_541, ErrorCategory.CONNECTION),       // NO_NODES_AVAILABLE
            Map.entry(65_545, ErrorCategory.CONNECTION),       // SERVER_SHUTTING_DOWN
            Map.entry(65_548, ErrorCategory.CONNECTION),       // SERVER_STARTING_UP
            Map.entry(65_556, ErrorCategory.TIMEOUT),          // OPTIMIZER_TIMEOUT
            Map.entry(65_557, ErrorCategory.RESOURCE_LIMIT),   // OUT_OF_SPILL_SPACE
            Map.entry(65_558, ErrorCategory.CONNECTION),       // REMOTE_HOST_GONE
            // the caps of the question's budget (QuestionBudget.withMaxMemoryBytes, withMaxScanBytes): never corrected
            Map.entry(131_073, ErrorCategory.RESOURCE_LIMIT),  // EXCEEDED_GLOBAL_MEMORY_LIMIT (query_max_memory)
            Map.entry(131_075, ErrorCategory.TIMEOUT),         // EXCEEDED_TIME_LIMIT
            Map.entry(131_077, ErrorCategory.TIMEOUT),         // EXCEEDED_CPU_LIMIT
            Map.entry(131_079, ErrorCategory.RESOURCE_LIMIT),  // EXCEEDED_LOCAL_MEMORY_LIMIT (a node's share)
            Map.entry(131_081, ErrorCategory.RESOURCE_LIMIT),  // EXCEEDED_SCAN_LIMIT (query_max_scan_physical_bytes)
            // an EXTERNAL error numbered inside the insufficient-resources range: not a limit
            Map.entry(133_001, ErrorCategory.UNKNOWN));        // UNSUPPORTED_TABLE_TYPE

    private TrinoErrors() {
    }

    /**
     * Classifies an exception from the Trino JDBC driver.
     *
     * @param e what the driver threw
     * @return its category; {@link ErrorCategory#UNKNOWN} for a code not listed (a division by zero, a
     *     connector's own error, an internal error), since nothing says a corrected SQL would pass
     */
    /**
     * The category of one of Trino's error codes ({@code StandardErrorCode}), as the driver reports it in
     * {@link SQLException#getErrorCode()}.
     *
     * @param code the code
     * @return its category, or null when the code is not listed
     */
    public static ErrorCategory ofCode(int code) {
        ErrorCategory known = CODES.get(code);
        if (known != null) {
            return known;
        }
        if (code >= INSUFFICIENT_RESOURCES && code < CONNECTOR && code < INSUFFICIENT_RESOURCES + INTERNAL) {
            // memory, queue, spill, scan limits (EXCEEDED_GLOBAL_MEMORY_LIMIT, EXCEEDED_SCAN_LIMIT, ...)
            return ErrorCategory.RESOURCE_LIMIT;
        }
        return null;
    }

    /**
     * Classifies an exception from the Trino JDBC driver.
     *
     * @param e what the driver threw
     * @return its category; {@link ErrorCategory#UNKNOWN} for a code not listed (a division by zero, a
     *     connector's own error, an internal error), since nothing says a corrected SQL would pass
     */
    public static ErrorCategory classify(SQLException e) {
        int code = e.getErrorCode();
        ErrorCategory known = ofCode(code);
        if (known != null) {
            return known;
        }
        if (e instanceof SQLTimeoutException) {
            return ErrorCategory.TIMEOUT;
        }
        if (code == 0 && causedBy(e, CancellationException.class)) {
            // Statement.cancel (the library's own, at its timeout): "Error fetching results", no code
            return ErrorCategory.TIMEOUT;
        }
        if (code == 0 && (e instanceof SQLTransientConnectionException || causedBy(e, IOException.class))) {
            return ErrorCategory.CONNECTION;
        }
        return ErrorCategory.UNKNOWN;
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
