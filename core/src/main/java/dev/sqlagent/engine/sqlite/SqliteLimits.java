package dev.sqlagent.engine.sqlite;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SQLite's own resource limits ({@code sqlite3_limit}) on a connection, so that one query cannot make the
 * engine allocate a gigabyte inside the host's JVM ({@code printf('%.*c', 999999999, 'x')},
 * {@code zeroblob(2000000000)}, a huge {@code replace} or {@code group_concat}): strings and blobs are
 * capped at {@link #MAX_LENGTH} bytes (a larger value fails with {@code SQLITE_TOOBIG}), and expression
 * depth, compound selects, program size, function arguments and attached databases are capped too. Limits
 * only go down, so applying them to a pooled connection again is harmless.
 *
 * <p>sqlite-jdbc exposes them as {@code SQLiteConnection.getDatabase().limit(id, value)}; core does not
 * depend on the driver, so the call goes through the driver's public API by reflection (no access
 * checks are bypassed). A driver without it is logged once and the limits are skipped.
 */
final class SqliteLimits {

    /** Largest string or blob a query may build, in bytes. */
    static final int MAX_LENGTH = 16 * 1024 * 1024;

    // ids from sqlite3.h
    private static final int LIMIT_LENGTH = 0;
    private static final int LIMIT_SQL_LENGTH = 1;
    private static final int LIMIT_EXPR_DEPTH = 3;
    private static final int LIMIT_COMPOUND_SELECT = 4;
    private static final int LIMIT_VDBE_OP = 5;
    private static final int LIMIT_FUNCTION_ARG = 6;
    private static final int LIMIT_ATTACHED = 7;
    private static final int LIMIT_LIKE_PATTERN_LENGTH = 8;
    private static final int LIMIT_TRIGGER_DEPTH = 10;

    /** {limit id, value}. */
    static final int[][] LIMITS = {
        {LIMIT_LENGTH, MAX_LENGTH},
        {LIMIT_SQL_LENGTH, 1_000_000},
        {LIMIT_EXPR_DEPTH, 200},
        {LIMIT_COMPOUND_SELECT, 100},
        {LIMIT_VDBE_OP, 1_000_000},
        {LIMIT_FUNCTION_ARG, 100},
        {LIMIT_ATTACHED, 0},
        {LIMIT_LIKE_PATTERN_LENGTH, 10_000},
        {LIMIT_TRIGGER_DEPTH, 10},
    };

    private static final Logger LOG = LoggerFactory.getLogger("dev.sqlagent.execution.SqliteLimits");
    private static volatile boolean warned;

    private SqliteLimits() {
    }

    /**
     * @param c an open sqlite-jdbc connection (or a pool's wrapper around one)
     * @return whether the limits were set
     */
    static boolean apply(Connection c) {
        try {
            Class<?> type = Class.forName("org.sqlite.SQLiteConnection", false, c.getClass().getClassLoader());
            if (!c.isWrapperFor(type)) {
                return warnOnce("not a sqlite-jdbc connection: " + c.getClass().getName());
            }
            Object connection = c.unwrap(type);
            Object db = type.getMethod("getDatabase").invoke(connection);
            Method limit = Class.forName("org.sqlite.core.DB", false, type.getClassLoader())
                    .getMethod("limit", int.class, int.class);
            for (int[] l : LIMITS) {
                int current = (Integer) limit.invoke(db, l[0], -1);
                if (current > l[1]) {
                    limit.invoke(db, l[0], l[1]);
                }
            }
            return true;
        } catch (ClassNotFoundException | NoSuchMethodException | SQLException | ClassCastException e) {
            return warnOnce(e.toString());
        } catch (ReflectiveOperationException e) {
            return warnOnce(String.valueOf(e.getCause()));
        }
    }

    private static boolean warnOnce(String why) {
        if (!warned) {
            warned = true;
            LOG.warn("SQLite resource limits not set ({}); a query may allocate large strings or blobs", why);
        }
        return false;
    }
}
