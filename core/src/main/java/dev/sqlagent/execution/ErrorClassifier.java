package dev.sqlagent.execution;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Classifies a database error into an {@link ErrorCategory}: vendor codes and SQLStates first, the
 * exception's type next, message patterns as a fallback. Stateless and thread-safe.
 *
 * <p>Layers, in order, for each dialect:
 * <ol>
 *   <li>the dialect's vendor code (H2 error codes, SQLite result codes, MySQL/MariaDB, SQL Server and
 *       Oracle error numbers); SQLite's generic {@code SQLITE_ERROR} (1) defers to the message;</li>
 *   <li>the SQLState, exactly (PostgreSQL's {@code 42P01}, X/Open {@code 42S22}, ODBC {@code HYT00}…),
 *       then by class ({@code 08} connection, {@code 28} authorization, {@code 53}/{@code 54} resources);</li>
 *   <li>the message, with wrapper text and echoed SQL removed;</li>
 *   <li>class {@code 42} without anything more specific is a syntax error.</li>
 * </ol>
 * For an exception, each layer is tried over the whole chain ({@link SQLException#getNextException()} and
 * {@link Throwable#getCause()}) before the next layer, so a wrapper without codes does not hide a cause
 * that has them; JDBC's typed exceptions ({@link SQLTimeoutException}, connection exceptions) and an
 * {@link IOException} in the chain count as codes for timeouts and lost connections.
 *
 * <p>PostgreSQL reports {@code 42883} both for an unknown function and for an operator applied to the
 * wrong types ({@code text = integer}); the latter is classified {@link ErrorCategory#TYPE_MISMATCH}.
 * Oracle reports {@code ORA-00904} both for an unknown column and an unknown function; it is classified
 * {@link ErrorCategory#COLUMN_NOT_FOUND} (both are correctable, and the message names the identifier).
 */
public final class ErrorClassifier {

    private static final ErrorClassifier STANDARD = new ErrorClassifier();
    private static final int MAX_CHAIN = 16;

    private ErrorClassifier() {
    }

    /** {@return the classifier that knows H2, SQLite, PostgreSQL, MySQL/MariaDB, SQL Server and Oracle} */
    public static ErrorClassifier standard() {
        return STANDARD;
    }

    /**
     * Classifies a JDBC exception, looking through its chain for the most specific SQLState.
     *
     * @param dialect the database's dialect
     * @param e the exception
     * @return the category, {@link ErrorCategory#UNKNOWN} when nothing matches
     * @throws NullPointerException if the dialect or the exception is null
     */
    public ErrorCategory classify(Dialect dialect, SQLException e) {
        return diagnose(dialect, e).category();
    }

    /**
     * Classifies an error from its parts.
     *
     * @param dialect the database's dialect
     * @param sqlState the SQLState, may be null
     * @param vendorCode the vendor code, 0 when none
     * @param message the message, may be null
     * @return the category, {@link ErrorCategory#UNKNOWN} when nothing matches
     * @throws NullPointerException if the dialect is null
     */
    public ErrorCategory classify(Dialect dialect, String sqlState, int vendorCode, String message) {
        Objects.requireNonNull(dialect, "dialect");
        String state = normaliseState(sqlState);
        String essence = ErrorCodes.essence(message).toLowerCase(Locale.ROOT);
        ErrorCategory c = byCodes(dialect, state, vendorCode, essence);
        if (c == null) {
            c = ErrorCodes.byMessage(essence);
        }
        if (c == null) {
            c = ErrorCodes.byStateClassFallback(state);
        }
        return c == null ? ErrorCategory.UNKNOWN : c;
    }

    /**
     * Classifies a JDBC exception and says which exception of its chain decided: that link's SQLState,
     * vendor code and message are the most specific ones the chain holds.
     *
     * @param dialect the database's dialect
     * @param e the exception
     * @return the category and the deciding exception (the top one when nothing matched)
     */
    Diagnosis diagnose(Dialect dialect, SQLException e) {
        Objects.requireNonNull(dialect, "dialect");
        Objects.requireNonNull(e, "exception");
        List<Throwable> chain = chain(e);
        for (Throwable t : chain) {
            if (t instanceof SQLException) {
                SQLException s = (SQLException) t;
                ErrorCategory c = byCodes(dialect, normaliseState(s.getSQLState()), s.getErrorCode(), lowerEssence(s));
                if (c != null) {
                    return new Diagnosis(c, s);
                }
            }
        }
        for (Throwable t : chain) {
            ErrorCategory c = byType(t);
            if (c != null) {
                return new Diagnosis(c, nearestSqlException(chain, t, e));
            }
        }
        for (Throwable t : chain) {
            ErrorCategory c = ErrorCodes.byMessage(lowerEssence(t));
            if (c != null) {
                return new Diagnosis(c, nearestSqlException(chain, t, e));
            }
        }
        for (Throwable t : chain) {
            if (t instanceof SQLException) {
                ErrorCategory c = ErrorCodes.byStateClassFallback(normaliseState(((SQLException) t).getSQLState()));
                if (c != null) {
                    return new Diagnosis(c, (SQLException) t);
                }
            }
        }
        return new Diagnosis(ErrorCategory.UNKNOWN, e);
    }

    /**
     * A classification and the exception of the chain it was read from.
     *
     * @param category the category
     * @param source the deciding exception
     */
    record Diagnosis(ErrorCategory category, SQLException source) {
    }

    private static ErrorCategory byCodes(Dialect dialect, String state, int vendorCode, String lowerEssence) {
        ErrorCategory d = Engines.of(dialect).database().errorOfMessage(lowerEssence);
        if (d != null) {
            return d;
        }
        ErrorCategory c = ErrorCodes.byVendorCode(dialect, vendorCode);
        if (c == null) {
            c = ErrorCodes.bySqlState(state, lowerEssence);
        }
        return c;
    }

    private static ErrorCategory byType(Throwable t) {
        if (t instanceof SQLTimeoutException) {
            return ErrorCategory.TIMEOUT;
        }
        if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
                || t instanceof IOException) {
            return ErrorCategory.CONNECTION;
        }
        if (t instanceof SQLInvalidAuthorizationSpecException) {
            return ErrorCategory.PERMISSION_DENIED;
        }
        return null;
    }

    private static SQLException nearestSqlException(List<Throwable> chain, Throwable decider, SQLException top) {
        if (decider instanceof SQLException) {
            return (SQLException) decider;
        }
        SQLException nearest = top;
        for (Throwable t : chain) {
            if (t == decider) {
                break;
            }
            if (t instanceof SQLException) {
                nearest = (SQLException) t;
            }
        }
        return nearest;
    }

    /** The exception, its next exceptions and causes, depth first, each once, at most {@value #MAX_CHAIN}. */
    private static List<Throwable> chain(SQLException e) {
        List<Throwable> out = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        collect(e, out, seen);
        return out;
    }

    private static void collect(Throwable t, List<Throwable> out, Set<Throwable> seen) {
        if (t == null || out.size() >= MAX_CHAIN || !seen.add(t)) {
            return;
        }
        out.add(t);
        collect(t.getCause(), out, seen);
        if (t instanceof SQLException) {
            collect(((SQLException) t).getNextException(), out, seen);
        }
    }

    private static String lowerEssence(Throwable t) {
        return ErrorCodes.essence(t.getMessage()).toLowerCase(Locale.ROOT);
    }

    private static String normaliseState(String sqlState) {
        return sqlState == null ? null : sqlState.trim().toUpperCase(Locale.ROOT);
    }
}
