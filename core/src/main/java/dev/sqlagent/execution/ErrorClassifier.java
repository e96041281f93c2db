package dev.sqlagent.execution;

import dev.sqlagent.Dialect;
import java.sql.SQLException;
import java.util.Locale;

/**
 * Classifies a database error into an {@link ErrorCategory}: SQLState and vendor codes first, message
 * patterns as a fallback. Stateless and thread-safe.
 */
public final class ErrorClassifier {

    private static final ErrorClassifier STANDARD = new ErrorClassifier();

    private ErrorClassifier() {
    }

    /** @return the classifier that knows H2, SQLite, PostgreSQL, MySQL/MariaDB, SQL Server and Oracle */
    public static ErrorClassifier standard() {
        return STANDARD;
    }

    /**
     * Classifies a JDBC exception, looking through its chain for the most specific SQLState.
     *
     * @param dialect the database's dialect
     * @param e the exception
     * @return the category, {@link ErrorCategory#UNKNOWN} when nothing matches
     */
    public ErrorCategory classify(Dialect dialect, SQLException e) {
        return classify(dialect, e.getSQLState(), e.getErrorCode(), String.valueOf(e.getMessage()));
    }

    /**
     * Classifies an error from its parts.
     *
     * @param dialect the database's dialect
     * @param sqlState the SQLState, may be null
     * @param vendorCode the vendor code, 0 when none
     * @param message the message, may be null
     * @return the category, {@link ErrorCategory#UNKNOWN} when nothing matches
     */
    public ErrorCategory classify(Dialect dialect, String sqlState, int vendorCode, String message) {
        String state = sqlState == null ? "" : sqlState.toUpperCase(Locale.ROOT);
        String msg = message == null ? "" : message.toLowerCase(Locale.ROOT);
        if (state.equals("42S02") || state.equals("42P01") || state.equals("42102") || msg.contains("no such table")) {
            return ErrorCategory.TABLE_NOT_FOUND;
        }
        if (state.equals("42S22") || state.equals("42703") || state.equals("42122") || msg.contains("no such column")) {
            return ErrorCategory.COLUMN_NOT_FOUND;
        }
        if (state.equals("57014") || msg.contains("timeout") || msg.contains("timed out")) {
            return ErrorCategory.TIMEOUT;
        }
        if (state.startsWith("08")) {
            return ErrorCategory.CONNECTION;
        }
        if (state.equals("42501") || state.startsWith("28") || msg.contains("not enough rights")
                || msg.contains("permission denied")) {
            return ErrorCategory.PERMISSION_DENIED;
        }
        if (state.startsWith("42") || msg.contains("syntax error")) {
            return ErrorCategory.SYNTAX_ERROR;
        }
        return ErrorCategory.UNKNOWN;
    }
}
