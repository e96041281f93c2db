package dev.sqlagent.execution;

/**
 * What kind of execution error a database reported. Each category knows whether a corrected SQL can
 * fix it ({@link #correctable()}) and whether it is a fault of the environment rather than of the SQL
 * ({@link #environmental()}); environmental errors are never corrected.
 */
public enum ErrorCategory {
    /** A table or view that does not exist. */
    TABLE_NOT_FOUND(true, false),
    /** A column that does not exist. */
    COLUMN_NOT_FOUND(true, false),
    /** A column name that more than one table in scope has. */
    AMBIGUOUS_COLUMN(true, false),
    /** Malformed SQL, including SQL the guard could not parse. */
    SYNTAX_ERROR(true, false),
    /** A column neither grouped nor aggregated, an aggregate where none is allowed. */
    GROUPING_ERROR(true, false),
    /** A function that does not exist or takes other arguments. */
    FUNCTION_NOT_FOUND(true, false),
    /** Values of incompatible types compared, cast or computed. */
    TYPE_MISMATCH(true, false),
    /** The database user may not read an object. */
    PERMISSION_DENIED(false, true),
    /** The query ran out of time (the agent's timeout or the server's). */
    TIMEOUT(false, true),
    /** The connection failed or was lost. */
    CONNECTION(false, true),
    /** Memory, disk, temp space or another server limit was exhausted. */
    RESOURCE_LIMIT(false, true),
    /** Anything else; not corrected, since nothing says the SQL is at fault. */
    UNKNOWN(false, false);

    private final boolean correctable;
    private final boolean environmental;

    ErrorCategory(boolean correctable, boolean environmental) {
        this.correctable = correctable;
        this.environmental = environmental;
    }

    /** {@return whether one correction of the SQL may fix this error} */
    public boolean correctable() {
        return correctable;
    }

    /** {@return whether the environment, not the SQL, is at fault} */
    public boolean environmental() {
        return environmental;
    }
}
