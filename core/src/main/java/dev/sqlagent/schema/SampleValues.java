package dev.sqlagent.schema;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.sqlagent.internal.NetworkTimeouts;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a few distinct values of columns with a bounded query
 * ({@code SELECT DISTINCT c FROM t WHERE c IS NOT NULL}, capped by {@link Statement#setMaxRows(int)} and
 * a query timeout), keeping them in a Caffeine cache. Only tables and columns of the catalog are read,
 * with quoted identifiers. A column that cannot be read is skipped and noted in
 * {@link Loaded#failures()}, never thrown, and is not cached (the next load tries again). Thread-safe.
 */
public final class SampleValues {

    /** Values read per column unless set. */
    public static final int DEFAULT_MAX_VALUES = 5;
    /** Longest value kept, in characters, unless set; longer ones are cut and end in an ellipsis. */
    public static final int DEFAULT_MAX_VALUE_LENGTH = 40;
    /** Query timeout in seconds unless set. */
    public static final int DEFAULT_QUERY_TIMEOUT_SECONDS = 5;
    /** How long read values are kept unless set. */
    public static final Duration DEFAULT_EXPIRE_AFTER_WRITE = Duration.ofHours(1);
    /** Columns kept in the cache at most unless set. */
    public static final long DEFAULT_MAX_CACHED_COLUMNS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(SampleValues.class);

    /**
     * What one load read.
     *
     * @param values table to column to values, in the catalog's spelling and order; columns without a
     *     value are left out
     * @param failures one line per column that could not be read, saying why
     */
    public record Loaded(Map<String, Map<String, List<String>>> values, List<String> failures) {
        /**
         * Copies the parts.
         *
         * @param values table to column to values, in the catalog's spelling and order; columns without a
         *     value are left out
         * @param failures one line per column that could not be read, saying why
         */
        public Loaded {
            Map<String, Map<String, List<String>>> copy = new LinkedHashMap<>();
            values.forEach((t, cols) -> {
                Map<String, List<String>> c = new LinkedHashMap<>();
                cols.forEach((k, v) -> c.put(k, List.copyOf(v)));
                copy.put(t, Collections.unmodifiableMap(c));
            });
            values = Collections.unmodifiableMap(copy);
            failures = List.copyOf(failures);
        }
    }

    private final DataSource dataSource;
    private final int maxValues;
    private final int maxValueLength;
    private final int queryTimeoutSeconds;
    private final Cache<String, List<String>> cache;

    private SampleValues(Builder b) {
        this.dataSource = b.dataSource;
        this.maxValues = b.maxValues;
        this.maxValueLength = b.maxValueLength;
        this.queryTimeoutSeconds = b.queryTimeoutSeconds;
        this.cache = Caffeine.newBuilder()
                .expireAfterWrite(b.expireAfterWrite)
                .maximumSize(b.maxCachedColumns)
                .ticker(b.ticker)
                .build();
    }

    /**
     * Starts a builder for a loader of sample values from a database.
     *
     * @param dataSource the database to read from (a read-only account is advisable)
     * @return a builder
     * @throws NullPointerException if {@code dataSource} is null
     */
    public static Builder builder(DataSource dataSource) {
        return new Builder(Objects.requireNonNull(dataSource, "dataSource"));
    }

    /**
     * Reads every column of every table except primary-key and foreign-key columns (their values say
     * nothing).
     *
     * @param catalog the catalog whose tables to read
     * @return the values read and the failures
     */
    public Loaded loadAll(SchemaCatalog catalog) {
        Map<String, Collection<String>> wanted = new LinkedHashMap<>();
        for (SchemaCatalog.Table t : catalog.tables()) {
            List<String> cols = new ArrayList<>();
            for (SchemaCatalog.Column c : t.columns()) {
                boolean foreignKey = t.foreignKeys().stream().anyMatch(fk -> fk.column().equalsIgnoreCase(c.name()));
                if (!containsIgnoreCase(t.primaryKey(), c.name()) && !foreignKey) {
                    cols.add(c.name());
                }
            }
            wanted.put(t.name(), cols);
        }
        return load(catalog, wanted);
    }

    /**
     * Reads the given columns.
     *
     * @param catalog the catalog naming the tables and columns
     * @param columns table to columns, any case; names the catalog lacks are noted as failures
     * @return the values read and the failures
     */
    public Loaded load(SchemaCatalog catalog, Map<String, ? extends Collection<String>> columns) {
        Objects.requireNonNull(catalog, "catalog");
        Map<String, Map<String, List<String>>> values = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        Connection connection = null;
        int network = -1;
        try {
            for (Map.Entry<String, ? extends Collection<String>> e : columns.entrySet()) {
                Optional<SchemaCatalog.Table> table = catalog.table(e.getKey());
                if (table.isEmpty()) {
                    failures.add(e.getKey() + ": no such table in the catalog");
                    continue;
                }
                for (String columnName : e.getValue()) {
                    Optional<SchemaCatalog.Column> column = catalog.column(table.get().name(), columnName);
                    if (column.isEmpty()) {
                        failures.add(table.get().name() + "." + columnName + ": no such column in the catalog");
                        continue;
                    }
                    String t = table.get().name();
                    String c = column.get().name();
                    String key = SchemaEnrichment.key(t, c);
                    List<String> read = cache.getIfPresent(key);
                    if (read == null) {
                        try {
                            if (connection == null) {
                                connection = dataSource.getConnection();
                                if (queryTimeoutSeconds > 0) {
                                    // every read of the connection, not only the statement, is bounded
                                    network = NetworkTimeouts.bind(connection, queryTimeoutSeconds * 1000L
                                            + NetworkTimeouts.GRACE_MILLIS);
                                }
                            }
                            read = query(connection, t, c);
                            cache.put(key, read);
                        } catch (SQLException | RuntimeException ex) {
                            LOG.debug("cannot read sample values of {}.{}: {}", t, c, ex.toString());
                            failures.add(t + "." + c + ": " + ex.getClass().getSimpleName() + ": " + ex.getMessage());
                            continue;
                        }
                    }
                    if (!read.isEmpty()) {
                        values.computeIfAbsent(t, k -> new LinkedHashMap<>()).put(c, read);
                    }
                }
            }
        } finally {
            if (connection != null) {
                NetworkTimeouts.restore(connection, network);
                try {
                    connection.close();
                } catch (SQLException ex) {
                    LOG.debug("cannot close the sample connection: {}", ex.toString());
                }
            }
        }
        return new Loaded(values, failures);
    }

    private List<String> query(Connection connection, String table, String column) throws SQLException {
        String q = quote(connection);
        String col = quoted(q, column);
        String sql = "SELECT DISTINCT " + col + " FROM " + quoted(q, table) + " WHERE " + col + " IS NOT NULL";
        List<String> out = new ArrayList<>();
        try (Statement s = connection.createStatement()) {
            s.setMaxRows(maxValues);
            if (queryTimeoutSeconds > 0) {
                s.setQueryTimeout(queryTimeoutSeconds);
            }
            try (ResultSet rs = s.executeQuery(sql)) {
                while (rs.next() && out.size() < maxValues) {
                    String v = rs.getString(1);
                    if (v != null) {
                        out.add(v.length() > maxValueLength ? v.substring(0, maxValueLength) + "…" : v);
                    }
                }
            }
        }
        return List.copyOf(out);
    }

    private static String quote(Connection connection) throws SQLException {
        String q = connection.getMetaData().getIdentifierQuoteString();
        return q == null || q.isBlank() ? "" : q.trim();
    }

    private static String quoted(String q, String name) {
        return q.isEmpty() ? name : q + name.replace(q, q + q) + q;
    }

    private static boolean containsIgnoreCase(List<String> names, String name) {
        for (String n : names) {
            if (n.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    /** Settings of a {@link SampleValues}. */
    public static final class Builder {
        private final DataSource dataSource;
        private int maxValues = DEFAULT_MAX_VALUES;
        private int maxValueLength = DEFAULT_MAX_VALUE_LENGTH;
        private int queryTimeoutSeconds = DEFAULT_QUERY_TIMEOUT_SECONDS;
        private Duration expireAfterWrite = DEFAULT_EXPIRE_AFTER_WRITE;
        private long maxCachedColumns = DEFAULT_MAX_CACHED_COLUMNS;
        private Ticker ticker = Ticker.systemTicker();

        private Builder(DataSource dataSource) {
            this.dataSource = dataSource;
        }

        /**
         * Sets how many distinct values are read per column; defaults to
         * {@value SampleValues#DEFAULT_MAX_VALUES}.
         *
         * @param maxValues distinct values read per column, &gt; 0
         * @return this builder
         * @throws IllegalArgumentException if {@code maxValues} is not positive
         */
        public Builder maxValues(int maxValues) {
            if (maxValues <= 0) {
                throw new IllegalArgumentException("maxValues must be > 0 but was " + maxValues);
            }
            this.maxValues = maxValues;
            return this;
        }

        /**
         * Sets the longest value kept, in characters; defaults to
         * {@value SampleValues#DEFAULT_MAX_VALUE_LENGTH}.
         *
         * @param maxValueLength longest value kept in characters, &gt; 0
         * @return this builder
         * @throws IllegalArgumentException if {@code maxValueLength} is not positive
         */
        public Builder maxValueLength(int maxValueLength) {
            if (maxValueLength <= 0) {
                throw new IllegalArgumentException("maxValueLength must be > 0 but was " + maxValueLength);
            }
            this.maxValueLength = maxValueLength;
            return this;
        }

        /**
         * Sets the timeout of each query that reads values; defaults to
         * {@value SampleValues#DEFAULT_QUERY_TIMEOUT_SECONDS} seconds.
         *
         * @param seconds query timeout, &gt;= 0 (0: none)
         * @return this builder
         * @throws IllegalArgumentException if {@code seconds} is negative
         */
        public Builder queryTimeoutSeconds(int seconds) {
            if (seconds < 0) {
                throw new IllegalArgumentException("queryTimeoutSeconds must be >= 0 but was " + seconds);
            }
            this.queryTimeoutSeconds = seconds;
            return this;
        }

        /**
         * Sets how long values read are cached before they are read again; defaults to
         * {@link SampleValues#DEFAULT_EXPIRE_AFTER_WRITE}.
         *
         * @param expireAfterWrite how long read values are kept, positive
         * @return this builder
         * @throws IllegalArgumentException if {@code expireAfterWrite} is zero or negative
         */
        public Builder expireAfterWrite(Duration expireAfterWrite) {
            Objects.requireNonNull(expireAfterWrite, "expireAfterWrite");
            if (expireAfterWrite.isNegative() || expireAfterWrite.isZero()) {
                throw new IllegalArgumentException("expireAfterWrite must be positive but was " + expireAfterWrite);
            }
            this.expireAfterWrite = expireAfterWrite;
            return this;
        }

        /**
         * Caps how many columns' values the cache holds; defaults to
         * {@value SampleValues#DEFAULT_MAX_CACHED_COLUMNS}.
         *
         * @param maxCachedColumns columns kept in the cache at most, &gt; 0
         * @return this builder
         * @throws IllegalArgumentException if {@code maxCachedColumns} is not positive
         */
        public Builder maxCachedColumns(long maxCachedColumns) {
            if (maxCachedColumns <= 0) {
                throw new IllegalArgumentException("maxCachedColumns must be > 0 but was " + maxCachedColumns);
            }
            this.maxCachedColumns = maxCachedColumns;
            return this;
        }

        /**
         * Sets the cache's time source; defaults to the system ticker. Tests pass a fake.
         *
         * @param ticker the cache's time source, not null
         * @return this builder
         * @throws NullPointerException if {@code ticker} is null
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /**
         * Builds the loader from the settings given so far; nothing is read until it is asked.
         *
         * @return the loader
         */
        public SampleValues build() {
            return new SampleValues(this);
        }
    }
}
