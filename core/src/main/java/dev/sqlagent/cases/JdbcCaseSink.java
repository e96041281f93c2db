package dev.sqlagent.cases;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import dev.sqlagent.internal.NetworkTimeouts;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Writes cases into a {@code training_pairs} table (name configurable), creating it when missing:
 * {@code id, question, sql_text, status (good/bad), outcome, error, corrections, created_at, trace_json},
 * and the learning columns {@code table_label, category, error_category, error_tags} (comma-separated),
 * {@code verified, judge_score} (NULL without a judge), {@code rounds} and {@code trajectory} (the
 * attempts as a JSON array).
 * The DDL uses portable types (VARCHAR, a large text type chosen per database, INTEGER, TIMESTAMP).
 * Thread-safe; each case is one insert in its own transaction.
 *
 * <p>The insert is idempotent, keyed by the case id, so that a retry after a lost acknowledgement (the
 * commit reached the server, its answer did not) succeeds without a second row:
 * {@code INSERT … ON CONFLICT (id) DO NOTHING} on PostgreSQL and SQLite,
 * {@code INSERT … ON DUPLICATE KEY UPDATE id = id} on MariaDB and MySQL (unlike {@code INSERT IGNORE} it
 * does not turn bad data or another constraint into a warning), {@code MERGE INTO … KEY (id)} on H2, and
 * elsewhere a plain insert whose key violation counts as success when a row with that id is there. Every
 * other error reaches the caller: SQLState classes 22 and 23 are permanent ({@link CaseDelivery#isPermanent}).
 * Each statement has a timeout ({@link #timeout(Duration)}, default 10 s), and on PostgreSQL and MariaDB
 * the connection's network timeout is set to twice that for the call, so that a store that stops
 * answering cannot hold the delivery thread for ever; a data source without a login timeout gets the
 * statement timeout as one (a pool must bound its own wait for a connection).
 */
public final class JdbcCaseSink implements CaseSink {

    /** Default table name. */
    public static final String DEFAULT_TABLE = "training_pairs";
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    /** Default statement timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    private static final String COLUMNS = "id, question, sql_text, status, outcome, error, corrections, created_at,"
            + " trace_json, table_label, category, error_category, error_tags, verified, judge_score, rounds, trajectory";
    private static final String PARAMS = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";

    private final DataSource dataSource;
    private final String table;
    private final Duration timeout;
    private volatile boolean tableReady;
    private volatile Dialect dialect;

    private JdbcCaseSink(DataSource dataSource, String table, Duration timeout) {
        this.dataSource = dataSource;
        this.table = table;
        this.timeout = timeout;
    }

    /**
     * Creates a sink writing to the default table {@value #DEFAULT_TABLE}.
     *
     * @param dataSource where to write; its user needs CREATE TABLE (once) and INSERT
     * @return a sink writing {@value #DEFAULT_TABLE}
     */
    public static JdbcCaseSink create(DataSource dataSource) {
        return create(dataSource, DEFAULT_TABLE);
    }

    /**
     * Creates a sink writing to the given table.
     *
     * @param dataSource where to write
     * @param table the table name, a plain identifier
     * @return a sink
     * @throws IllegalArgumentException if the table name is not a plain identifier
     */
    public static JdbcCaseSink create(DataSource dataSource, String table) {
        Objects.requireNonNull(dataSource, "dataSource");
        Objects.requireNonNull(table, "table");
        if (!IDENTIFIER.matcher(table).matches()) {
            throw new IllegalArgumentException("table must be a plain identifier but was '" + table + "'");
        }
        return new JdbcCaseSink(dataSource, table, DEFAULT_TIMEOUT).boundLogin();
    }

    /**
     * Returns a sink like this one with another statement timeout; this sink is unchanged.
     *
     * @param timeout the statement timeout, at least 1 s; the network timeout is twice that
     * @return a sink like this one with that timeout
     * @throws IllegalArgumentException if shorter than a second
     */
    public JdbcCaseSink timeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("timeout must be >= 1s but was " + timeout);
        }
        return new JdbcCaseSink(dataSource, table, timeout).boundLogin();
    }

    /** Bounds connection acquisition by the timeout when the data source has no login timeout. */
    private JdbcCaseSink boundLogin() {
        try {
            if (dataSource.getLoginTimeout() == 0) {
                dataSource.setLoginTimeout((int) Math.max(1, timeout.toSeconds()));
            }
        } catch (SQLException | RuntimeException ignored) {
            // a data source that refuses keeps its own bound; a pool must set one
        }
        return this;
    }

    /** {@return the statement timeout} */
    public Duration timeout() {
        return timeout;
    }

    /**
     * @param d a dialect
     * @param table the table
     * @return the idempotent insert for that dialect, keyed by {@code id}
     */
    static String insertSql(Dialect d, String table) {
        String ifAbsent = Engines.of(d).database().insertIfAbsent(table, COLUMNS, PARAMS, "id");
        return ifAbsent != null ? ifAbsent : "INSERT INTO " + table + " (" + COLUMNS + ") VALUES (" + PARAMS + ")";
    }

    /** {@return the table written} */
    public String table() {
        return table;
    }

    @Override
    public void accept(CaseRecord r) throws SQLException {
        acceptAll(java.util.List.of(r));
    }

    /**
     * Inserts the cases in one transaction (one batch on the generic dialects too, where a key violation
     * is checked case by case).
     *
     * @param records the cases
     * @throws SQLException when they could not be stored; nothing of this call is committed then
     */
    @Override
    public void acceptAll(java.util.List<CaseRecord> records) throws SQLException {
        if (records.isEmpty()) {
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            Dialect d = dialectOf(c);
            int network = NetworkTimeouts.bind(c, d, 2 * timeout.toMillis());
            try {
                ensureTable(c);
                if (records.size() == 1 || !idempotent(d)) {
                    for (CaseRecord r : records) {
                        insert(c, d, r);
                    }
                } else {
                    insertBatch(c, d, records);
                }
            } finally {
                NetworkTimeouts.restore(c, network);
            }
        }
    }

    /** Whether the engine has an insert that does nothing when the row is there already. */
    private static boolean idempotent(Dialect d) {
        return Engines.of(d).database().insertIfAbsent("t", "c", "?", "c") != null;
    }

    private void insert(Connection c, Dialect d, CaseRecord r) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement(insertSql(d, table))) {
            if (!Engines.of(d).database().driverCancelNeedsSecondConnection()) {
                // pgjdbc's cancel needs a second connection; the network timeout bounds it
                ps.setQueryTimeout((int) Math.max(1, timeout.toSeconds()));
            }
            bind(ps, r);
            ps.executeUpdate();
            c.commit();
        } catch (SQLException e) {
            rollbackQuietly(c);
            if (!idempotent(d)) {
                if (e.getSQLState() != null && e.getSQLState().startsWith("23") && stored(c, r.id())) {
                    return; // an earlier attempt was committed and its acknowledgement lost
                }
            }
            throw e;
        } finally {
            try {
                c.setAutoCommit(auto);
            } catch (SQLException ignored) {
                // a broken connection is closed next; its pool discards it
            }
        }
    }

    private void insertBatch(Connection c, Dialect d, java.util.List<CaseRecord> records) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement(insertSql(d, table))) {
            if (!Engines.of(d).database().driverCancelNeedsSecondConnection()) {
                ps.setQueryTimeout((int) Math.max(1, timeout.toSeconds()));
            }
            for (CaseRecord r : records) {
                bind(ps, r);
                ps.addBatch();
            }
            ps.executeBatch();
            c.commit();
        } catch (SQLException e) {
            rollbackQuietly(c);
            throw e.getNextException() != null && e.getSQLState() == null ? e.getNextException() : e;
        } finally {
            try {
                c.setAutoCommit(auto);
            } catch (SQLException ignored) {
                // a broken connection is closed next; its pool discards it
            }
        }
    }

    private static void bind(PreparedStatement ps, CaseRecord r) throws SQLException {
        ps.setString(1, r.id());
        ps.setString(2, r.question());
        ps.setString(3, r.sql());
        ps.setString(4, r.status() == CaseRecord.Status.GOOD ? "good" : "bad");
        ps.setString(5, r.outcome());
        ps.setString(6, r.error());
        ps.setInt(7, r.corrections());
        ps.setTimestamp(8, Timestamp.from(r.createdAt()));
        ps.setString(9, r.traceJson());
        ps.setString(10, r.table());
        ps.setString(11, r.category());
        ps.setString(12, r.errorCategory());
        ps.setString(13, String.join(",", r.errorTags()));
        ps.setInt(14, r.verified() ? 1 : 0);
        if (r.judgeScore().isPresent()) {
            ps.setInt(15, r.judgeScore().getAsInt());
        } else {
            ps.setNull(15, java.sql.Types.INTEGER);
        }
        ps.setInt(16, r.rounds());
        ps.setString(17, dev.sqlagent.internal.CaseJson.writeAttempts(r.attempts()));
    }

    private boolean stored(Connection c, String id) {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM " + table + " WHERE id = ?")) {
            ps.setQueryTimeout((int) Math.max(1, timeout.toSeconds()));
            ps.setString(1, id);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        } catch (SQLException e) {
            return false;
        }
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // nothing was committed; a broken connection is closed next
        }
    }

    private Dialect dialectOf(Connection c) throws SQLException {
        Dialect d = dialect;
        if (d == null) {
            d = Dialect.fromProductName(c.getMetaData().getDatabaseProductName());
            dialect = d;
        }
        return d;
    }

    private void ensureTable(Connection c) throws SQLException {
        if (tableReady) {
            return;
        }
        synchronized (this) {
            if (tableReady) {
                return;
            }
            String product = c.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT);
            String text = product.contains("mysql") || product.contains("mariadb") ? "LONGTEXT"
                    : product.contains("oracle") ? "CLOB" : product.contains("microsoft") ? "NVARCHAR(MAX)"
                    : product.contains("h2") ? "CLOB" : "TEXT";
            String ddl = "CREATE TABLE IF NOT EXISTS " + table + " (id VARCHAR(64) PRIMARY KEY, question " + text
                    + " NOT NULL, sql_text " + text + ", status VARCHAR(8) NOT NULL, outcome VARCHAR(16) NOT NULL, error "
                    + text + ", corrections INTEGER NOT NULL, created_at TIMESTAMP NOT NULL, trace_json " + text
                    + ", table_label VARCHAR(200), category VARCHAR(200), error_category VARCHAR(40), error_tags"
                    + " VARCHAR(400), verified INTEGER NOT NULL, judge_score INTEGER, rounds INTEGER NOT NULL, trajectory "
                    + text + ")";
            try (Statement s = c.createStatement()) {
                s.execute(ddl);
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
            tableReady = true;
        }
    }
}
