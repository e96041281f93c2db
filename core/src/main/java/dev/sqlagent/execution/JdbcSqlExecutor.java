package dev.sqlagent.execution;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.Engines;
import dev.sqlagent.internal.NetworkTimeouts;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs accepted statements over a {@link DataSource}: a read-only transaction that is always rolled back,
 * a query timeout, a row cap and a fetch size. Every {@link SQLException} becomes a classified
 * {@link ExecutionError}; nothing is thrown for a failing statement. Thread-safe: each call takes its own
 * connection and gives it back as it found it (auto-commit and read-only flags restored).
 *
 * <p>What each engine does with the settings:
 * <table>
 *   <caption>read-only and timeout per engine</caption>
 *   <tr><th>engine</th><th>read-only</th><th>timeout</th></tr>
 *   <tr><td>PostgreSQL</td><td>{@code setReadOnly} + auto-commit off: the driver opens
 *       {@code BEGIN READ ONLY}; writes fail with {@code 25006}</td><td>{@code SET LOCAL statement_timeout}
 *       in the transaction: the server cancels ({@code 57014}); no driver cancel, which needs a second
 *       connection; past the grace the watchdog aborts the connection</td></tr>
 *   <tr><td>MariaDB / MySQL</td><td>{@code START TRANSACTION READ ONLY} (a connection in auto-commit mode,
 *       one round trip; the transaction ends with {@code ROLLBACK}) or {@code SET TRANSACTION READ ONLY}
 *       before the transaction (auto-commit off); the driver's {@code setReadOnly} alone does not stop
 *       writes; writes fail with {@code 1792}</td><td>MariaDB
 *       Connector/J sends {@code SET STATEMENT max_statement_time=N FOR …} to MariaDB servers ({@code 1969});
 *       on MySQL it kills the query ({@code 1317})</td></tr>
 *   <tr><td>SQLite</td><td>{@code PRAGMA query_only = 1} for the call (sqlite-jdbc cannot change the read-only
 *       flag of an open connection); writes fail with {@code SQLITE_READONLY}</td><td>sqlite-jdbc's
 *       {@code setQueryTimeout} is only a busy (lock) timeout, so the watchdog below interrupts the statement
 *       ({@code SQLITE_INTERRUPT})</td></tr>
 *   <tr><td>DuckDB</td><td>{@code BEGIN TRANSACTION READ ONLY} on an auto-commit connection (the driver
 *       cannot change the read-only flag of an open connection, and opens its own transaction when
 *       auto-commit is off); writes and DDL fail; {@code ROLLBACK} after. A database file opened with
 *       {@code duckdb.read_only} refuses writes at any time ({@link DuckDbFiles})</td><td>honoured
 *       ({@code INTERRUPT Error}); the driver ignores {@code setMaxRows}: the reader stops at the cap</td></tr>
 *   <tr><td>H2</td><td>no read-only transactions: the rollback undoes writes, but DDL commits by itself;
 *       rely on the guard and a user that may only {@code SELECT}</td><td>honoured ({@code 57014})</td></tr>
 *   <tr><td>others</td><td>{@code setReadOnly} (Oracle turns it into {@code SET TRANSACTION READ ONLY}; SQL
 *       Server treats it as a hint) and the rollback</td><td>{@code setQueryTimeout}</td></tr>
 * </table>
 * On every engine a watchdog also calls {@link Statement#cancel()} (on PostgreSQL: aborts the
 * connection) when the timeout and a grace have passed and the statement, including reading its rows, is
 * still running; an error after the watchdog fired is always
 * {@link ErrorCategory#TIMEOUT}. Grant the executor's database user read access only: that is the one
 * guarantee that holds everywhere.
 *
 * <p>Every wait is bounded by the query timeout on the network engines (PostgreSQL, MariaDB, MySQL), so
 * that a server or network that stops answering cannot hold a question: the connection's network
 * timeout ({@link Connection#setNetworkTimeout}) is set for the call to the watchdog's delay plus
 * {@link #ABORT_GRACE} plus one second, bounding every read of the call (restored afterwards); the
 * watchdog's cancel runs on a helper thread (PostgreSQL and MariaDB cancel over a new connection, which a
 * partition blocks too), and when the statement has not returned {@link #ABORT_GRACE} after it, the
 * connection is {@linkplain Connection#abort aborted} (a pool discards it). Connection acquisition is
 * bounded by the data source's login timeout, which {@link Builder#build()} sets to the query timeout
 * (whole seconds) when it is unset (0); a pool must bound its own wait for a free connection the same
 * way (HikariCP: {@code connectionTimeout} no longer than the query timeout), since
 * {@link DataSource#getConnection()} gives no other handle. {@link #executionBound()} is the sum.
 *
 * <p>Inside a question that has a deadline ({@link dev.sqlagent.QuestionBudget#withDeadline}) the query
 * timeout, and every bound derived from it, is cut to what is left of the deadline, and the deadline
 * cancels a statement under way. Inside a question whose budget caps a statement's scanned bytes or memory
 * ({@link dev.sqlagent.QuestionBudget#withMaxScanBytes}, {@link dev.sqlagent.QuestionBudget#withMaxMemoryBytes})
 * the caps are put in the engine's session before the statement (Trino); on an engine without such a setting
 * the statement is not run (the agent refuses such a budget before). {@link #execute(Connection, SqlStatement)} runs on a connection the
 * caller holds: the agent runs a question's engine check and its first execution on one connection, so
 * that a question waits for a connection once.
 */
public final class JdbcSqlExecutor implements SqlExecutor {

    /** Default query timeout. */
    public static final Duration DEFAULT_QUERY_TIMEOUT = Duration.ofSeconds(30);
    /** Default row cap. */
    public static final int DEFAULT_MAX_ROWS = 1000;
    /** Default fetch size. */
    public static final int DEFAULT_FETCH_SIZE = 200;
    /** Longest text kept from a character large object; longer values are cut. */
    static final int MAX_CLOB_CHARS = 65_536;
    /**
     * Most characters (and bytes of binary values) one result may hold in the host; a larger result fails
     * as {@link ErrorCategory#RESOURCE_LIMIT} (SQLState {@code 54000}) instead of filling the heap: a row cap
     * alone lets a thousand rows of 16 MiB each through.
     */
    static final long MAX_RESULT_CHARS = 16L * 1024 * 1024;
    /**
     * Cap on one value of a result, in characters or bytes: the size the guard allows a function to build
     * from constants ({@code GuardPolicy.maxExpandedBytes}'s default, 1 MiB), so that a value grown by other
     * means (a recursive CTE doubling a string) is refused alike.
     */
    static final long MAX_VALUE_CHARS = 1024L * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(JdbcSqlExecutor.class);
    /** Extra time the driver's own timeout gets before the watchdog steps in on engines that honour it. */
    private static final long DRIVER_GRACE_MILLIS = 1000;
    /** How long a cancelled statement on a network engine may take to return before its connection is aborted. */
    public static final Duration ABORT_GRACE = Duration.ofSeconds(1);
    /** How often a cancel is sent again while the cancelled statement has not returned. */
    static final long RECANCEL_MILLIS = 100;

    private final DataSource dataSource;
    private final Duration queryTimeout;
    private final int maxRows;
    private final int fetchSize;
    private final ErrorClassifier classifier;
    private final Clock clock;
    private final ScheduledExecutorService watchdog;
    private volatile Dialect dialect;

    private JdbcSqlExecutor(Builder b) {
        this.dataSource = b.dataSource;
        this.queryTimeout = b.queryTimeout;
        this.maxRows = b.maxRows;
        this.fetchSize = b.fetchSize;
        this.classifier = b.classifier;
        this.clock = b.clock;
        this.watchdog = b.watchdog;
        this.dialect = b.dialect;
    }

    /**
     * Starts a builder.
     *
     * @param dataSource where connections come from
     * @return a builder
     * @throws NullPointerException if the data source is null
     */
    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    /**
     * The dialect, as configured or else detected from the connection's metadata on first use. A failed
     * detection is not remembered: the next call tries again.
     *
     * @return the dialect, {@link Dialect#GENERIC} if detection fails now
     */
    public Dialect dialect() {
        Dialect d = dialect;
        if (d != null) {
            return d;
        }
        try (Connection c = dataSource.getConnection()) {
            return dialectOf(c);
        } catch (SQLException e) {
            return Dialect.GENERIC;
        }
    }

    /**
     * Returns the row cap.
     *
     * @return the row cap
     */
    public int maxRows() {
        return maxRows;
    }

    /**
     * Returns the query timeout.
     *
     * @return the query timeout
     */
    public Duration queryTimeout() {
        return queryTimeout;
    }

    /**
     * The longest one {@link #execute} waits on a network engine whose data source honours its login
     * timeout, whatever the network does: the login timeout plus the network timeout (see the class
     * comment), {@code 2 × Q + 3 s} for a query timeout {@code Q} in whole seconds. It is also the bound
     * of one {@code ask} on a database that stops answering (a partition, a server that hangs): the
     * engine check shares the execution's connection and its bounds, and a question makes no further
     * wait on a database once it found it unreachable. In-process engines (H2, SQLite) are bounded by
     * the watchdog alone.
     *
     * @return the bound
     */
    public Duration executionBound() {
        return Duration.ofSeconds(driverTimeoutSeconds()).plus(networkTimeout());
    }

    /**
     * The longest any one read of a call may block on a network engine: the query timeout in whole
     * seconds plus {@link NetworkTimeouts#GRACE_MILLIS} (the driver's timeout, a cancel and an abort, a
     * second each). The agent bounds its schema reads by it too.
     *
     * @return the network timeout of a call
     */
    public Duration networkTimeout() {
        return Duration.ofMillis(networkTimeoutMillis(driverTimeoutSeconds() * 1000L));
    }

    /**
     * The settings, as more columns of the time-out's {@code SELECT}, that keep PostgreSQL's planner off plain
     * and index-only scans for one transaction ({@link SqlStatement#physicalOrder()}): a bitmap scan still
     * uses the index to find rows, and returns them in the table's physical order.
     */
    public static final String PHYSICAL_ORDER = ", pg_catalog.set_config('enable_indexscan', 'off', true), "
            + "pg_catalog.set_config('enable_indexonlyscan', 'off', true)";

    /** Every read of a call may block this long: the statement's timeout, whole seconds, plus the grace. */
    private static long networkTimeoutMillis(long timeoutMillis) {
        return seconds(timeoutMillis) * 1000L + NetworkTimeouts.GRACE_MILLIS;
    }

    /**
     * Runs a statement read-only and rolls its transaction back.
     *
     * @param statement the statement, already checked by the guard
     * @return the rows, at most {@link #maxRows()} of them, or the classified error; never null
     * @throws NullPointerException if the statement is null
     */
    @Override
    public ExecutionOutcome execute(SqlStatement statement) {
        Objects.requireNonNull(statement, "statement");
        long start = clock.millis();
        Watch watch = new Watch();
        try (Connection c = dataSource.getConnection()) {
            return run(c, statement, watch, start);
        } catch (SQLException e) {
            Dialect d = dialect;
            return new ExecutionOutcome.Failure(toError(d == null ? dialectOfDriver(e) : d, e, watch, start));
        } catch (RuntimeException e) {
            return driverFailure(e, watch, start);
        }
    }

    /**
     * Runs a statement read-only on a connection the caller holds, and leaves it open: as
     * {@link #execute(SqlStatement)} in every other way (the transaction rolled back, the connection's
     * flags and network timeout put back). The agent runs a question's engine check and its first
     * execution on one connection this way, so that the question waits for a connection once.
     *
     * @param connection a connection to this executor's database; a connection the watchdog had to abort
     *     is closed when this returns
     * @param statement the statement, already checked by the guard
     * @return the rows or the classified error; never null
     * @throws NullPointerException if an argument is null
     */
    public ExecutionOutcome execute(Connection connection, SqlStatement statement) {
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(statement, "statement");
        long start = clock.millis();
        Watch watch = new Watch();
        try {
            return run(connection, statement, watch, start);
        } catch (SQLException e) {
            Dialect d = dialect;
            return new ExecutionOutcome.Failure(toError(d == null ? dialectOfDriver(e) : d, e, watch, start));
        } catch (RuntimeException e) {
            return driverFailure(e, watch, start);
        }
    }

    /**
     * The error {@link #execute} reports for an exception the driver threw, for faults met on this
     * executor's database outside an execution (the engine check, taking a connection): the same
     * {@link ErrorCategory} as the same fault during an execution.
     *
     * @param e the driver's exception
     * @return the classified error, with no time spent
     * @throws NullPointerException if the exception is null
     */
    public ExecutionError classify(SQLException e) {
        Objects.requireNonNull(e, "e");
        Dialect d = dialect;
        return toError(d == null ? dialectOfDriver(e) : d, e, new Watch(), clock.millis());
    }

    /**
     * Returns the data source connections come from.
     *
     * @return the data source
     */
    public DataSource dataSource() {
        return dataSource;
    }

    private ExecutionOutcome run(Connection c, SqlStatement statement, Watch watch, long start) throws SQLException {
        Dialect d = dialectOf(c);
        // the question's remaining deadline shortens the statement's timeout and every bound derived from it
        long timeoutMillis = NetworkTimeouts.capped(driverTimeoutSeconds() * 1000L);
        int network = NetworkTimeouts.bind(c, d, networkTimeoutMillis(timeoutMillis));
        try {
            return new ExecutionOutcome.Success(runReadOnly(c, d, statement, watch, start, timeoutMillis));
        } finally {
            NetworkTimeouts.restore(c, network);
        }
    }

    private ExecutionOutcome driverFailure(RuntimeException e, Watch watch, long start) {
        // a driver bug must not escape the SPI contract; nothing says the SQL is at fault
        LOG.debug("driver threw {}", e.toString());
        return new ExecutionOutcome.Failure(new ExecutionError(
                watch.fired() ? ErrorCategory.TIMEOUT : ErrorCategory.UNKNOWN, null, 0,
                "driver failed: " + e, elapsed(start)));
    }

    private ResultTable runReadOnly(Connection c, Dialect d, SqlStatement statement, Watch watch, long start,
            long timeoutMillis) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        boolean readOnly = c.isReadOnly();
        boolean queryOnly = false;
        try {
            // a transaction to roll back (and PostgreSQL's cursor fetch needs one). DuckDB's driver opens its
            // own when auto-commit is off, so there the executor begins one itself; on MariaDB and MySQL a
            // connection in auto-commit mode begins one with START TRANSACTION READ ONLY, one round trip where
            // turning auto-commit off and on again and SET TRANSACTION READ ONLY took three
            EngineDatabase database = Engines.of(d).database();
            boolean begun = database.beginsTransaction(autoCommit);
            if (autoCommit != begun) {
                c.setAutoCommit(begun);
            }
            queryOnly = database.enterReadOnly(c, begun);
            try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
                // the question's scope: its scan and memory caps go in the session, its stop cancels the statement
                dev.sqlagent.internal.RunScope scope = dev.sqlagent.internal.RunScope.current();
                Optional<Runnable> serverCancel = database.serverLimits(c, dataSource, timeoutMillis,
                        statement.physicalOrder(), scope == null ? 0 : scope.maxScanBytes(),
                        scope == null ? 0 : scope.maxMemoryBytes());
                if (serverCancel.isPresent()) {
                    // no driver cancel timer: see the class comment
                    watch.serverCancel(serverCancel.get());
                } else {
                    ps.setQueryTimeout(seconds(timeoutMillis));
                }
                ps.setMaxRows(maxRows == Integer.MAX_VALUE ? 0 : maxRows + 1);
                setFetchSizeHint(ps);
                List<Object> params = statement.parameters();
                for (int i = 0; i < params.size(); i++) {
                    ps.setObject(i + 1, params.get(i));
                }
                watch.arm(watchdog(), ps, watchdogDelayMillis(database, timeoutMillis),
                        database.networked() ? c : null, serverCancel.isEmpty());
                // the question's cancellation or deadline cancels the statement at once
                dev.sqlagent.internal.RunScope.Binding stop = scope == null ? () -> { } : scope.onStop(watch::fireNow);
                try (ResultSet rs = ps.executeQuery()) {
                    return read(rs, start);
                } finally {
                    stop.close();
                    watch.disarm();
                }
            } finally {
                rollbackQuietly(c, begun);
            }
        } finally {
            restore(c, d, autoCommit, readOnly, queryOnly);
        }
    }

    /**
     * Sets the fetch size, never above the row cap: sqlite-jdbc rejects a fetch size larger than the
     * statement's max rows ("fetch size 200 out of bounds 11"). A driver that refuses the hint anyway runs
     * without it; the hint must not fail the query.
     */
    private void setFetchSizeHint(PreparedStatement ps) {
        int size = maxRows == Integer.MAX_VALUE ? fetchSize : Math.min(fetchSize, maxRows + 1);
        try {
            ps.setFetchSize(size);
        } catch (SQLException e) {
            LOG.debug("driver refused fetch size {}: {}", size, e.getMessage());
        }
    }

    /**
     * The dialect when no connection could be opened to ask: read from the driver's exception class, so
     * that a vendor code at connect time (H2's 90040, say) is still read in the right table.
     */
    static Dialect dialectOfDriver(SQLException e) {
        String name = e.getClass().getName();
        for (Dialect d : Dialect.values()) {
            for (String prefix : Engines.of(d).database().driverPackages()) {
                if (name.startsWith(prefix)) {
                    return d;
                }
            }
        }
        return Dialect.GENERIC;
    }

    private int driverTimeoutSeconds() {
        long secs = (queryTimeout.toMillis() + 999) / 1000;
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, secs));
    }

    private long watchdogDelayMillis(EngineDatabase database, long timeoutMillis) {
        if (!database.driverTimesOut()) {
            return Math.min(queryTimeout.toMillis(), timeoutMillis); // the driver has no execution timeout of its own
        }
        return seconds(timeoutMillis) * 1000L + DRIVER_GRACE_MILLIS;
    }

    /** Drivers count whole seconds: a timeout rounded up, at least one. */
    private static int seconds(long millis) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, (millis + 999) / 1000));
    }

    private Dialect dialectOf(Connection c) throws SQLException {
        Dialect d = dialect;
        if (d == null) {
            d = Dialect.fromProductName(c.getMetaData().getDatabaseProductName());
            dialect = d;
        }
        return d;
    }

    private ResultTable read(ResultSet rs, long start) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        List<ResultColumn> cols = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            String label = md.getColumnLabel(i);
            cols.add(new ResultColumn(label == null ? md.getColumnName(i) : label,
                    String.valueOf(md.getColumnTypeName(i)), md.getColumnType(i)));
        }
        List<List<Object>> rows = new ArrayList<>();
        boolean truncated = false;
        long chars = 0;
        while (rs.next()) {
            if (rows.size() == maxRows) {
                truncated = true;
                break;
            }
            List<Object> row = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) {
                Object v = rs.getObject(i);
                long size = v instanceof String ? ((String) v).length() : v instanceof byte[] ? ((byte[]) v).length : 8;
                if (size > MAX_VALUE_CHARS) {
                    throw new SQLException("a value of the result holds " + size + " characters, more than "
                            + MAX_VALUE_CHARS + "; the host does not keep it (row " + (rows.size() + 1) + ")", "54000");
                }
                chars += size;
                if (chars > MAX_RESULT_CHARS) {
                    throw new SQLException("the result holds more than " + MAX_RESULT_CHARS
                            + " characters; the host does not keep it (row " + (rows.size() + 1) + ")", "54000");
                }
                row.add(normalise(v));
            }
            rows.add(row);
        }
        return new ResultTable(cols, rows, truncated, elapsed(start));
    }

    /**
     * Normalises a JDBC value to the types {@link ResultTable} promises.
     *
     * @param v the value from {@link ResultSet#getObject(int)}
     * @return null, String, Long, Double, BigDecimal or Boolean
     * @throws SQLException if a large object cannot be read
     */
    static Object normalise(Object v) throws SQLException {
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Long || v instanceof Double
                || v instanceof BigDecimal) {
            return v;
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof Float) {
            return Double.valueOf(v.toString()); // 0.1f stays 0.1, not 0.10000000149011612
        }
        if (v instanceof BigInteger) {
            return new BigDecimal((BigInteger) v);
        }
        if (v instanceof byte[]) {
            return "<" + ((byte[]) v).length + " bytes>";
        }
        if (v instanceof Blob) {
            return "<" + ((Blob) v).length() + " bytes>";
        }
        if (v instanceof Clob) {
            return readClob((Clob) v);
        }
        if (v instanceof java.sql.Timestamp) {
            return ((java.sql.Timestamp) v).toLocalDateTime().toString();
        }
        if (v instanceof java.sql.Date) {
            return ((java.sql.Date) v).toLocalDate().toString();
        }
        if (v instanceof java.sql.Time) {
            return ((java.sql.Time) v).toLocalTime().toString();
        }
        if (v instanceof TemporalAccessor) {
            return v.toString(); // java.time values print ISO-8601
        }
        if (v instanceof java.sql.Array) {
            Object[] items = (Object[]) ((java.sql.Array) v).getArray();
            List<String> parts = new ArrayList<>(items.length);
            for (Object item : items) {
                parts.add(String.valueOf(normalise(item)));
            }
            return parts.toString();
        }
        return v.toString();
    }

    private static String readClob(Clob clob) throws SQLException {
        StringBuilder sb = new StringBuilder();
        char[] buf = new char[4096];
        try (Reader r = clob.getCharacterStream()) {
            int n;
            while (sb.length() < MAX_CLOB_CHARS && (n = r.read(buf, 0, Math.min(buf.length,
                    MAX_CLOB_CHARS - sb.length()))) > 0) {
                sb.append(buf, 0, n);
            }
        } catch (IOException e) {
            throw new SQLException("could not read a character large object: " + e.getMessage(), e);
        }
        return sb.toString();
    }

    private ExecutionError toError(Dialect d, SQLException e, Watch watch, long start) {
        ErrorClassifier.Diagnosis diagnosis = classifier.diagnose(d, e);
        SQLException source = diagnosis.source();
        ErrorCategory category = watch.fired() ? ErrorCategory.TIMEOUT : diagnosis.category();
        String message = source.getMessage() != null ? source.getMessage() : String.valueOf(e.getMessage());
        String sqlState = source.getSQLState() != null ? source.getSQLState() : e.getSQLState();
        int vendorCode = source.getErrorCode() != 0 ? source.getErrorCode() : e.getErrorCode();
        LOG.debug("statement failed: {} (SQLState {}, code {})", category, sqlState, vendorCode);
        return new ExecutionError(category, sqlState, vendorCode, message, elapsed(start));
    }

    private Duration elapsed(long start) {
        return Duration.ofMillis(Math.max(0, clock.millis() - start));
    }

    private static void rollbackQuietly(Connection c, boolean begun) {
        try {
            if (begun) {
                try (Statement s = c.createStatement()) {
                    s.execute("ROLLBACK");
                }
            } else if (!c.getAutoCommit()) {
                c.rollback();
            }
        } catch (SQLException ignored) {
            // the connection is closed next; a read-only transaction wrote nothing
        }
    }

    private static void restore(Connection c, Dialect d, boolean autoCommit, boolean readOnly,
                                boolean sessionChanged) {
        try {
            if (sessionChanged) {
                Engines.of(d).database().leaveReadOnly(c);
            }
            if (c.getAutoCommit() != autoCommit) {
                c.setAutoCommit(autoCommit);
            }
            if (c.isReadOnly() != readOnly) {
                c.setReadOnly(readOnly);
            }
        } catch (SQLException ignored) {
            // a pooled connection that cannot be restored is closed by its pool
        }
    }

    /**
     * Cancels a running statement once its time is up, on a helper thread so that a cancel the network
     * blocks holds neither the watchdog nor the question. On a network engine the connection is aborted
     * when the statement has not returned {@link #ABORT_GRACE} after the cancel. The statement is never
     * cancelled after {@link #disarm()} returned, so a late cancel cannot hit the connection's next
     * statement: disarm waits for a cancel in progress, and aborts the connection when that takes longer
     * than the grace.
     */
    private static final class Watch {
        private Statement statement;
        private Connection connection;
        private Future<?> task;
        private Future<?> abortTask;
        private Future<?> repeat;
        private boolean done;
        private boolean cancelling;
        private Runnable serverCancel;
        private boolean serverCancelling;
        private boolean aborted;
        private volatile boolean fired;

        private ScheduledExecutorService scheduler;

        synchronized void arm(ScheduledExecutorService scheduler, Statement s, long delayMillis, Connection c,
                boolean cancelFirst) {
            this.statement = s;
            this.connection = c;
            this.scheduler = scheduler;
            this.task = scheduler.schedule(() -> fire(scheduler, cancelFirst), delayMillis, TimeUnit.MILLISECONDS);
        }

        /** Cancels the statement now (the question was cancelled or ran out of time), aborting it if it hangs. */
        void fireNow() {
            synchronized (this) {
                if (done || fired || scheduler == null) {
                    return;
                }
            }
            fire(scheduler, true);
        }

        private synchronized void fire(ScheduledExecutorService scheduler, boolean cancelFirst) {
            if (done || fired) {
                return;
            }
            fired = true;
            if (!cancelFirst && connection != null) {
                abort(); // the server's own timeout has not answered: the network is gone
                return;
            }
            cancelling = true;
            HELPERS.execute(this::cancel);
            cancelOnServer();
            if (connection != null) {
                abortTask = scheduler.schedule(this::abortIfRunning, ABORT_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
            // a cancel can be lost: PostgreSQL drops one that arrives while the backend waits between the
            // messages of a statement (it already shows as active then); so cancel again until it returns
            repeat = scheduler.scheduleWithFixedDelay(this::cancelAgain, RECANCEL_MILLIS, RECANCEL_MILLIS,
                    TimeUnit.MILLISECONDS);
        }

        private synchronized void cancelAgain() {
            if (done || aborted) {
                return;
            }
            if (!cancelling) {
                cancelling = true;
                HELPERS.execute(this::cancel);
            }
            cancelOnServer();
        }

        /** @param cancel cancels the statement from another connection, which may be sent again */
        synchronized void serverCancel(Runnable cancel) {
            this.serverCancel = cancel;
        }

        /** Sends the server-side cancel, one at a time; disarm waits for one under way. */
        private synchronized void cancelOnServer() {
            if (serverCancel == null || serverCancelling || done || aborted) {
                return;
            }
            serverCancelling = true;
            HELPERS.execute(() -> {
                try {
                    synchronized (this) {
                        if (done) {
                            return; // the statement returned: the backend may run someone else's next
                        }
                    }
                    serverCancel.run();
                } finally {
                    synchronized (this) {
                        serverCancelling = false;
                        notifyAll();
                    }
                }
            });
        }

        private void cancel() {
            try {
                statement.cancel();
            } catch (SQLException | RuntimeException e) {
                LOG.debug("could not cancel a statement past its timeout: {}", e.toString());
            } finally {
                synchronized (this) {
                    cancelling = false;
                    notifyAll();
                }
            }
        }

        private synchronized void abortIfRunning() {
            if (!done) {
                abort();
            }
        }

        private void abort() {
            if (aborted || connection == null) {
                return;
            }
            aborted = true;
            try {
                connection.abort(HELPERS);
                LOG.debug("aborted a connection whose statement did not return {} after its cancel", ABORT_GRACE);
            } catch (SQLException | RuntimeException e) {
                LOG.debug("could not abort a connection: {}", e.toString());
            }
        }

        synchronized void disarm() {
            done = true;
            if (task != null) {
                task.cancel(false);
            }
            if (repeat != null) {
                repeat.cancel(false);
            }
            if (abortTask != null) {
                abortTask.cancel(false);
            }
            long until = System.nanoTime() + ABORT_GRACE.toNanos();
            boolean interrupted = false;
            while ((cancelling || serverCancelling) && !aborted) {
                long left = until - System.nanoTime();
                if (left <= 0 && connection != null) {
                    abort(); // the late cancel then hits a closed connection, never the next statement
                    break;
                }
                try {
                    wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        boolean fired() {
            return fired;
        }
    }

    /**
     * Runs cancels and aborts, which may block on the network, on the library's shared helper threads:
     * looked up at each use, never kept, because they stop when the last agent closes (a connection may
     * keep this executor beyond that, for its network timeout).
     */
    private static final java.util.concurrent.Executor HELPERS =
            task -> dev.sqlagent.internal.LibraryThreads.QUERY_HELPERS.current().execute(task);

    /**
     * Returns the builder's watchdog, or the library's shared one as it runs now.
     *
     * @return the builder's watchdog, or the library's shared one as it runs now
     */
    private ScheduledExecutorService watchdog() {
        return watchdog != null ? watchdog : dev.sqlagent.internal.LibraryThreads.QUERY_WATCHDOG.current();
    }

    /** Builds a {@link JdbcSqlExecutor}; setters check their arguments and name the bad value. */
    public static final class Builder {
        private final DataSource dataSource;
        private Duration queryTimeout = DEFAULT_QUERY_TIMEOUT;
        private int maxRows = DEFAULT_MAX_ROWS;
        private int fetchSize = DEFAULT_FETCH_SIZE;
        private ErrorClassifier classifier = ErrorClassifier.standard();
        private Clock clock = Clock.systemUTC();
        private ScheduledExecutorService watchdog;
        private Dialect dialect;

        private Builder(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        }

        /**
         * Sets the time allowed per query, including reading its rows.
         *
         * @param timeout per query, including reading its rows; at least one second (drivers count whole
         *     seconds, so it is rounded up for them)
         * @return this
         * @throws IllegalArgumentException if shorter than a second
         */
        public Builder queryTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "queryTimeout");
            if (timeout.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("queryTimeout must be >= 1s but was " + timeout);
            }
            this.queryTimeout = timeout;
            return this;
        }

        /**
         * Sets the rows kept per result, at least 1; a result with more is marked truncated.
         *
         * @param maxRows rows kept per result, at least 1; a result with more is marked truncated
         * @return this
         * @throws IllegalArgumentException if below 1
         */
        public Builder maxRows(int maxRows) {
            if (maxRows < 1) {
                throw new IllegalArgumentException("maxRows must be > 0 but was " + maxRows);
            }
            this.maxRows = maxRows;
            return this;
        }

        /**
         * Sets the fetch size, rows per round trip, at least 1.
         *
         * @param fetchSize rows per round trip, at least 1
         * @return this
         * @throws IllegalArgumentException if below 1
         */
        public Builder fetchSize(int fetchSize) {
            if (fetchSize < 1) {
                throw new IllegalArgumentException("fetchSize must be > 0 but was " + fetchSize);
            }
            this.fetchSize = fetchSize;
            return this;
        }

        /**
         * Sets the dialect, instead of detecting it.
         *
         * @param dialect the dialect, instead of detecting it
         * @return this builder
         */
        public Builder dialect(Dialect dialect) {
            this.dialect = Objects.requireNonNull(dialect, "dialect");
            return this;
        }

        /**
         * Sets the error classifier.
         *
         * @param classifier the error classifier
         * @return this builder
         */
        public Builder classifier(ErrorClassifier classifier) {
            this.classifier = Objects.requireNonNull(classifier, "classifier");
            return this;
        }

        /**
         * Sets the clock used to time queries.
         *
         * @param clock the clock used to time queries
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Sets the scheduler that cancels statements past their timeout.
         *
         * @param watchdog the scheduler that cancels statements past their timeout; by default a shared
         *     daemon thread. The executor never shuts it down.
         * @return this
         */
        public Builder watchdog(ScheduledExecutorService watchdog) {
            this.watchdog = Objects.requireNonNull(watchdog, "watchdog");
            return this;
        }

        /**
         * Builds the executor and, when the data source's login timeout is unset (0), sets it to the query
         * timeout in whole seconds so that acquiring a connection is bounded too (a data source that refuses
         * is left as it is).
         *
         * @return the executor
         */
        public JdbcSqlExecutor build() {
            JdbcSqlExecutor e = new JdbcSqlExecutor(this);
            try {
                if (dataSource.getLoginTimeout() == 0) {
                    dataSource.setLoginTimeout(e.driverTimeoutSeconds());
                }
            } catch (SQLException | RuntimeException ex) {
                LOG.debug("data source refused a login timeout: {}", ex.toString());
            }
            return e;
        }
    }
}
