package dev.sqlagent.cases;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import dev.sqlagent.internal.NetworkTimeouts;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Verified fixes in a database table that several agent instances share: a fix learnt by one instance
 * serves every other one on the next identical failure, without a model call. The table
 * ({@value #DEFAULT_TABLE} by default) is created when missing:
 * {@code key_hash} (primary key, the SHA-256 of the failure's key, so no statement is ever indexed),
 * {@code category}, {@code policy_fp}, {@code schema_fp} (to read the table by), {@code fixed_sql},
 * {@code created_at}, {@code last_used} (epoch milliseconds of this store's {@link Clock}) and {@code hits}.
 *
 * <p>A fix expires when it was not used for the expiry time (default 24 hours, as the in-memory store):
 * a lookup ignores it, and expired rows are deleted at most once per {@link #PURGE_INTERVAL} by a
 * {@link #put} (or by {@link #purgeExpired()}). A hit sets {@code last_used} and counts in {@code hits}.
 * A put is one idempotent upsert keyed by {@code key_hash}, safe when two instances put the same key at
 * once (the later fix wins; both ran without error): {@code INSERT … ON CONFLICT (key_hash) DO UPDATE} on
 * PostgreSQL and SQLite, {@code INSERT … ON DUPLICATE KEY UPDATE} on MariaDB and MySQL, and elsewhere
 * (H2 included) an update, else an insert, whose key violation from a concurrent insert is followed by
 * the update.
 *
 * <p>The store sits on the question's path, so every call is bounded: each statement has a timeout
 * ({@link Builder#timeout}, default 2 s, cut to what is left of the question's deadline when the
 * question has one), PostgreSQL, MariaDB and MySQL connections get twice that as
 * their network timeout for the call, and a data source without a login timeout gets the statement timeout
 * as one (a pool must bound its own wait). The agent treats any error here as "no fix" and never fails a
 * question for it. The login needs CREATE TABLE (once), SELECT, INSERT, UPDATE and DELETE on the table:
 * give it its own schema or database, never the read-only login the agent queries with. Thread-safe.
 */
public final class JdbcFixStore implements FixStore {

    /** Default table name. */
    public static final String DEFAULT_TABLE = "sqlagent_fixes";
    /** Default statement timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);
    /** How often, at most, a put also deletes expired rows. */
    public static final Duration PURGE_INTERVAL = Duration.ofHours(1);

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
    private static final String COLUMNS = "key_hash, category, policy_fp, schema_fp, fixed_sql, created_at,"
            + " last_used, hits";

    private final DataSource dataSource;
    private final String table;
    private final Duration expiry;
    private final Duration timeout;
    private final Clock clock;
    private final AtomicLong nextPurge = new AtomicLong(Long.MIN_VALUE);
    private volatile boolean tableReady;
    private volatile Dialect dialect;

    private JdbcFixStore(Builder b) {
        this.dataSource = b.dataSource;
        this.table = b.table;
        this.expiry = b.expiry;
        this.timeout = b.timeout;
        this.clock = b.clock;
        try {
            if (dataSource.getLoginTimeout() == 0) {
                dataSource.setLoginTimeout((int) Math.max(1, timeout.toSeconds()));
            }
        } catch (SQLException | RuntimeException ignored) {
            // a data source that refuses keeps its own bound; a pool must set one
        }
    }

    /**
     * Returns a store on {@value #DEFAULT_TABLE} with the defaults.
     *
     * @param dataSource the database that holds the table; see the class comment for the rights it needs
     * @return a store on {@value #DEFAULT_TABLE} with the defaults
     */
    public static JdbcFixStore create(DataSource dataSource) {
        return builder(dataSource).build();
    }

    /**
     * Returns a builder.
     *
     * @param dataSource the database that holds the table
     * @return a builder
     */
    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    /** {@return the table written} */
    public String table() {
        return table;
    }

    /** {@return how long an unused fix is kept} */
    public Duration expiry() {
        return expiry;
    }

    /**
     * Returns its fix, unless missing or unused for longer than the expiry.
     *
     * @param key the failure's key
     * @return its fix, unless missing or unused for longer than the expiry
     * @throws SQLException when the table cannot be read
     */
    @Override
    public Optional<String> get(Key key) throws SQLException {
        Objects.requireNonNull(key, "key");
        long now = clock.millis();
        long oldest = now - expiry.toMillis();
        return call((c, d) -> {
            String fix;
            long lastUsed;
            try (PreparedStatement ps = prepare(c, d, "SELECT fixed_sql, last_used FROM " + table
                    + " WHERE key_hash = ?")) {
                ps.setString(1, key.hash());
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    fix = rs.getString(1);
                    lastUsed = rs.getLong(2);
                }
            }
            if (lastUsed < oldest) {
                // only if nobody used it since: a concurrent hit or put keeps it
                try (PreparedStatement ps = prepare(c, d, "DELETE FROM " + table
                        + " WHERE key_hash = ? AND last_used < ?")) {
                    ps.setString(1, key.hash());
                    ps.setLong(2, oldest);
                    ps.executeUpdate();
                }
                return Optional.empty();
            }
            // never moves last_used back when another instance used the fix later by its clock
            try (PreparedStatement ps = prepare(c, d, "UPDATE " + table + " SET last_used = CASE WHEN last_used < ?"
                    + " THEN ? ELSE last_used END, hits = hits + 1 WHERE key_hash = ?")) {
                ps.setLong(1, now);
                ps.setLong(2, now);
                ps.setString(3, key.hash());
                ps.executeUpdate();
            }
            return Optional.ofNullable(fix);
        });
    }

    /**
     * Keeps a verified fix for a failure, replacing any fix kept for the same key (an upsert).
     *
     * @param key the failure's key
     * @param fixedSql the verified fix, not blank
     * @throws SQLException when the table cannot be written
     * @throws IllegalArgumentException if the fix is blank
     */
    @Override
    public void put(Key key, String fixedSql) throws SQLException {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(fixedSql, "fixedSql");
        if (fixedSql.isBlank()) {
            throw new IllegalArgumentException("fixedSql must not be blank");
        }
        long now = clock.millis();
        call((c, d) -> {
            upsert(c, d, key, fixedSql, now);
            long due = nextPurge.get();
            if (now >= due && nextPurge.compareAndSet(due, now + PURGE_INTERVAL.toMillis())) {
                purge(c, d, now);
            }
            return null;
        });
    }

    /**
     * Deletes the fixes unused for longer than the expiry.
     *
     * @return how many were deleted
     * @throws SQLException when the table cannot be written
     */
    public int purgeExpired() throws SQLException {
        long now = clock.millis();
        return call((c, d) -> purge(c, d, now));
    }

    /**
     * Returns the one-statement upsert for that dialect, or null where the update-then-insert is used.
     *
     * @param d a dialect
     * @param table the table
     * @return the one-statement upsert for that dialect, or null where the update-then-insert is used
     */
    static String upsertSql(Dialect d, String table) {
        String insert = "INSERT INTO " + table + " (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, 0)";
        return Engines.of(d).database().upsert(insert, "key_hash", List.of("fixed_sql", "last_used"));
    }

    private void upsert(Connection c, Dialect d, Key key, String fixedSql, long now) throws SQLException {
        String upsert = upsertSql(d, table);
        if (upsert != null) {
            for (int attempt = 1; ; attempt++) {
                try (PreparedStatement ps = prepare(c, d, upsert)) {
                    bindInsert(ps, key, fixedSql, now);
                    ps.executeUpdate();
                    return;
                } catch (SQLException e) {
                    // DuckDB's optimistic concurrency fails the second of two concurrent writers of one row,
                    // at the statement ("Conflict on …", a duplicate key its ON CONFLICT did not see in its
                    // snapshot) or at commit ("TransactionContext Error: Failed to commit: … duplicate key");
                    // the other row is committed now: write again, in a new transaction
                    if (!Engines.of(d).database().retriesWriteConflicts() || attempt == 10 || !isDuckDbWriteConflict(e)) {
                        throw e;
                    }
                }
            }
        }
        if (update(c, d, key, fixedSql, now) > 0) {
            return;
        }
        try (PreparedStatement ps = prepare(c, d, "INSERT INTO " + table + " (" + COLUMNS
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, 0)")) {
            bindInsert(ps, key, fixedSql, now);
            ps.executeUpdate();
        } catch (SQLException e) {
            // another instance inserted the key between our update and insert: update its row instead
            if (e.getSQLState() == null || !e.getSQLState().startsWith("23") || update(c, d, key, fixedSql, now) == 0) {
                throw e;
            }
        }
    }

    /**
     * Tells whether DuckDB refused a write because a concurrent transaction wrote the same row first.
     *
     * @param e what the write threw
     * @return true for a write-write conflict, which a new transaction does not meet again
     */
    static boolean isDuckDbWriteConflict(SQLException e) {
        String m = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        return m.contains("conflict on") || m.contains("duplicate key")
                || m.contains("transactioncontext error") && m.contains("failed to commit");
    }

    private int update(Connection c, Dialect d, Key key, String fixedSql, long now) throws SQLException {
        try (PreparedStatement ps = prepare(c, d, "UPDATE " + table
                + " SET fixed_sql = ?, last_used = ? WHERE key_hash = ?")) {
            ps.setString(1, fixedSql);
            ps.setLong(2, now);
            ps.setString(3, key.hash());
            return ps.executeUpdate();
        }
    }

    private static void bindInsert(PreparedStatement ps, Key key, String fixedSql, long now) throws SQLException {
        ps.setString(1, key.hash());
        ps.setString(2, key.category());
        ps.setString(3, key.policyFingerprint());
        ps.setString(4, key.schemaFingerprint());
        ps.setString(5, fixedSql);
        ps.setLong(6, now);
        ps.setLong(7, now);
    }

    private int purge(Connection c, Dialect d, long now) throws SQLException {
        try (PreparedStatement ps = prepare(c, d, "DELETE FROM " + table + " WHERE last_used < ?")) {
            ps.setLong(1, now - expiry.toMillis());
            return ps.executeUpdate();
        }
    }

    private PreparedStatement prepare(Connection c, Dialect d, String sql) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        if (!Engines.of(d).database().driverCancelNeedsSecondConnection()) {
            // pgjdbc's cancel needs a second connection; the network timeout bounds it
            ps.setQueryTimeout((int) Math.max(1, (NetworkTimeouts.capped(timeout.toMillis()) + 999) / 1000));
        }
        return ps;
    }

    /** One unit of work on a connection of the store, each statement committed on its own. */
    private interface Work<T> {
        T run(Connection c, Dialect d) throws SQLException;
    }

    private <T> T call(Work<T> work) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            Dialect d = dialectOf(c);
            int network = NetworkTimeouts.bind(c, d, 2 * NetworkTimeouts.capped(timeout.toMillis()));
            try {
                ensureTable(c, d);
                return work.run(c, d);
            } finally {
                NetworkTimeouts.restore(c, network);
            }
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

    private void ensureTable(Connection c, Dialect d) throws SQLException {
        if (tableReady) {
            return;
        }
        synchronized (this) {
            if (tableReady) {
                return;
            }
            String text = Engines.of(d).database().longTextType();
            String ddl = "CREATE TABLE IF NOT EXISTS " + table + " (key_hash VARCHAR(64) PRIMARY KEY,"
                    + " category VARCHAR(64) NOT NULL, policy_fp VARCHAR(64) NOT NULL, schema_fp VARCHAR(64) NOT NULL,"
                    + " fixed_sql " + text + " NOT NULL, created_at BIGINT NOT NULL, last_used BIGINT NOT NULL,"
                    + " hits BIGINT NOT NULL)";
            try (Statement s = c.createStatement()) {
                s.setQueryTimeout((int) Math.max(1, timeout.toSeconds()));
                s.execute(ddl);
            } catch (SQLException e) {
                // two instances creating the table at once: PostgreSQL may refuse the second; it is there
                if (!exists(c)) {
                    throw e;
                }
            }
            if (Engines.of(d).database().createsIndexIfNotExists()) { // else its purge scans the table
                String index = (table.length() > 50 ? table.substring(0, 50) : table) + "_last_used";
                try (Statement s = c.createStatement()) {
                    s.setQueryTimeout((int) Math.max(1, timeout.toSeconds()));
                    s.execute("CREATE INDEX IF NOT EXISTS " + index + " ON " + table + " (last_used)");
                } catch (SQLException e) {
                    // an index is an optimisation for the purge, never a reason to fail a lookup
                }
            }
            tableReady = true;
        }
    }

    private boolean exists(Connection c) {
        try (Statement s = c.createStatement()) {
            s.executeQuery("SELECT key_hash FROM " + table + " WHERE 1 = 0").close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "JdbcFixStore{table=" + table + ", expiry=" + expiry + '}';
    }

    /** Builds a {@link JdbcFixStore}; setters check their arguments. */
    public static final class Builder {
        private final DataSource dataSource;
        private String table = DEFAULT_TABLE;
        private Duration expiry = DEFAULT_EXPIRY;
        private Duration timeout = DEFAULT_TIMEOUT;
        private Clock clock = Clock.systemUTC();

        private Builder(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        }

        /**
         * Sets the table name, a plain identifier (default {@value JdbcFixStore#DEFAULT_TABLE}).
         *
         * @param table the table name, a plain identifier (default {@value JdbcFixStore#DEFAULT_TABLE})
         * @return this
         * @throws IllegalArgumentException if it is not a plain identifier
         */
        public Builder table(String table) {
            Objects.requireNonNull(table, "table");
            if (!IDENTIFIER.matcher(table).matches()) {
                throw new IllegalArgumentException("table must be a plain identifier but was '" + table + "'");
            }
            this.table = table.toLowerCase(Locale.ROOT);
            return this;
        }

        /**
         * Sets how long an unused fix is kept, positive (default 24 hours).
         *
         * @param expiry how long an unused fix is kept, positive (default 24 hours)
         * @return this
         * @throws IllegalArgumentException if not positive
         */
        public Builder expiry(Duration expiry) {
            Objects.requireNonNull(expiry, "expiry");
            if (expiry.isNegative() || expiry.isZero()) {
                throw new IllegalArgumentException("expiry must be positive but was " + expiry);
            }
            this.expiry = expiry;
            return this;
        }

        /**
         * Sets the statement timeout, at least 1 s (default 2 s); the network timeout is twice that.
         *
         * @param timeout the statement timeout, at least 1 s (default 2 s); the network timeout is twice that
         * @return this
         * @throws IllegalArgumentException if shorter than a second
         */
        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("timeout must be >= 1s but was " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Sets the clock that {@code last_used} and the expiry are measured by.
         *
         * @param clock what {@code last_used} and the expiry are measured by (default the system clock, UTC);
         *     instances sharing a table should have clocks that agree
         * @return this
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** {@return the store; the table is created on first use} */
        public JdbcFixStore build() {
            return new JdbcFixStore(this);
        }
    }
}
