package dev.sqlagent.engine.trino;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Makes a Trino connection read-only and bounded before the library runs a statement on it, through plain JDBC.
 *
 * <p><b>Read-only.</b> {@link Connection#setReadOnly(boolean)} alone does nothing in the Trino JDBC driver
 * (483): under auto-commit a write runs. With auto-commit off, the driver opens every transaction as
 * {@code START TRANSACTION READ ONLY}, and Trino refuses any write in it ({@code READ_ONLY_VIOLATION},
 * "Cannot execute write in a read-only transaction"), on every connector. {@link #enter} turns auto-commit off and
 * read-only on; {@link #leave} rolls the transaction back (a failed statement aborts it, and Trino then ignores
 * every statement until it ends) and restores auto-commit.
 *
 * <p><b>Bounded.</b> {@link #enter} sets, with {@code SET SESSION} on the library's own connection (the driver
 * keeps session properties for the connection's later queries; the model's own {@code SET SESSION} is refused by
 * the guard, and by the plan reader as a statement that is not a query):
 * {@code query_max_run_time} and {@code query_max_execution_time} (Trino kills the query with
 * {@code EXCEEDED_TIME_LIMIT}), {@code query_max_memory} and
 * {@code query_max_total_memory} ({@code EXCEEDED_GLOBAL_MEMORY_LIMIT}) when a memory cap is given (both are
 * hidden from {@code SHOW SESSION} in Trino 483, but set and enforced), and
 * {@code query_max_scan_physical_bytes} ({@code EXCEEDED_SCAN_LIMIT}) when a scan cap is given. The scan cap
 * counts only the physical bytes a connector reports: file and database connectors (Hive, Iceberg, Delta, JDBC)
 * and the {@code memory} connector report them, the {@code tpch} connector reports none, so there it never fires
 * (the time and memory caps still do). The coordinator compares a running query with the scan and memory caps
 * about once a second, so they bound a long query, not the first second of one. A session cap can only lower the
 * cluster's own configured cap.
 *
 * <p><b>Cancel.</b> {@link Statement#cancel()} from another thread ends the query on the cluster (its state in
 * {@code system.runtime.queries} becomes {@code FAILED} with {@code USER_CANCELED}), and the running
 * {@code execute} throws.
 */
public final class TrinoSession {

    /**
     * The caps of one statement.
     *
     * @param timeout the statement's wall-clock cap (run time, including queueing and planning, and execution
     *     time), at least one millisecond
     * @param maxScanBytes cap on physical bytes scanned, 0 for none
     * @param maxMemoryBytes cap on the query's memory across the cluster, 0 for the cluster's own
     */
    public record Limits(Duration timeout, long maxScanBytes, long maxMemoryBytes) {
        /**
         * Checks the caps.
         *
         * @param timeout the statement's wall-clock cap, at least one millisecond
         * @param maxScanBytes cap on physical bytes scanned, 0 for none
         * @param maxMemoryBytes cap on the query's memory across the cluster, 0 for the cluster's own
         */
        public Limits {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.toMillis() < 1) {
                throw new IllegalArgumentException("timeout must be at least 1 ms but was " + timeout);
            }
            if (maxScanBytes < 0 || maxMemoryBytes < 0) {
                throw new IllegalArgumentException("byte caps must be 0 (none) or positive");
            }
        }
    }

    private TrinoSession() {
    }

    /**
     * Bounds and enters a read-only transaction: see the class comment.
     *
     * @param c the library's connection, in auto-commit
     * @param timeout the statement's wall-clock cap
     * @param maxScanBytes cap on physical bytes scanned, 0 for none
     * @throws SQLException when the cluster refuses a session property (an unknown one, a cap above its own)
     */
    public static void enter(Connection c, Duration timeout, long maxScanBytes) throws SQLException {
        enter(c, new Limits(timeout, maxScanBytes, 0));
    }

    /**
     * Bounds and enters a read-only transaction: see the class comment.
     *
     * @param c the library's connection, in auto-commit
     * @param limits the caps
     * @throws SQLException when the cluster refuses a session property (an unknown one, a cap above its own)
     */
    public static void enter(Connection c, Limits limits) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String set : statements(limits)) {
                s.execute(set);
            }
        }
        c.setAutoCommit(false);
        c.setReadOnly(true);
    }

    /**
     * Ends the statement's transaction (rolled back: it wrote nothing, and a failed statement aborted it) and
     * restores auto-commit, so that the connection serves the next statement.
     *
     * @param c the connection {@link #enter} prepared
     * @throws SQLException when the cluster cannot be reached
     */
    public static void leave(Connection c) throws SQLException {
        try {
            if (!c.getAutoCommit()) {
                c.rollback();
            }
        } finally {
            c.setAutoCommit(true);
        }
    }

    /**
     * {@return the {@code SET SESSION} statements {@link #enter} runs for the caps}
     *
     * @param limits the caps
     */
    public static List<String> statements(Limits limits) {
        return statements(null, limits);
    }

    /**
     * The statements that move a session from one set of caps to another, each property touched only when its
     * value changes: {@code SET SESSION} for a new value, {@code RESET SESSION} for a byte cap that is no longer
     * wanted (the session then has the cluster's own).
     *
     * @param before the caps the session carries, or null for a new session (the cluster's defaults)
     * @param after the caps wanted
     * @return the statements, empty when the session carries {@code after} already
     */
    public static List<String> statements(Limits before, Limits after) {
        Objects.requireNonNull(after, "after");
        List<String> out = new ArrayList<>();
        if (before == null || before.timeout().toMillis() != after.timeout().toMillis()) {
            String time = after.timeout().toMillis() + "ms";
            out.add("SET SESSION query_max_run_time = '" + time + "'");
            out.add("SET SESSION query_max_execution_time = '" + time + "'");
        }
        long scanBefore = before == null ? 0 : before.maxScanBytes();
        if (scanBefore != after.maxScanBytes()) {
            out.add(after.maxScanBytes() > 0
                    ? "SET SESSION query_max_scan_physical_bytes = '" + after.maxScanBytes() + "B'"
                    : "RESET SESSION query_max_scan_physical_bytes");
        }
        long memoryBefore = before == null ? 0 : before.maxMemoryBytes();
        if (memoryBefore != after.maxMemoryBytes()) {
            if (after.maxMemoryBytes() > 0) {
                out.add("SET SESSION query_max_memory = '" + after.maxMemoryBytes() + "B'");
                out.add("SET SESSION query_max_total_memory = '" + after.maxMemoryBytes() + "B'");
            } else {
                out.add("RESET SESSION query_max_memory");
                out.add("RESET SESSION query_max_total_memory");
            }
        }
        return out;
    }
}
