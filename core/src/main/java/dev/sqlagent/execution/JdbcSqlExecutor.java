package dev.sqlagent.execution;

import dev.sqlagent.Dialect;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Runs accepted statements over a {@link DataSource}: a read-only connection, a transaction that is
 * always rolled back, a query timeout, a row cap and a fetch size. Every {@link SQLException} becomes a
 * classified {@link ExecutionError}; nothing is thrown for a failing statement. Thread-safe: each call
 * takes its own connection.
 */
public final class JdbcSqlExecutor implements SqlExecutor {

    /** Default query timeout. */
    public static final Duration DEFAULT_QUERY_TIMEOUT = Duration.ofSeconds(30);
    /** Default row cap. */
    public static final int DEFAULT_MAX_ROWS = 1000;
    /** Default fetch size. */
    public static final int DEFAULT_FETCH_SIZE = 200;

    private final DataSource dataSource;
    private final Duration queryTimeout;
    private final int maxRows;
    private final int fetchSize;
    private final ErrorClassifier classifier;
    private final Clock clock;
    private volatile Dialect dialect;

    private JdbcSqlExecutor(Builder b) {
        this.dataSource = b.dataSource;
        this.queryTimeout = b.queryTimeout;
        this.maxRows = b.maxRows;
        this.fetchSize = b.fetchSize;
        this.classifier = b.classifier;
        this.clock = b.clock;
        this.dialect = b.dialect;
    }

    /** @param dataSource where connections come from  @return a builder */
    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    /**
     * The dialect, as configured or else detected from the connection's metadata on first use.
     *
     * @return the dialect, {@link Dialect#GENERIC} if detection fails
     */
    public Dialect dialect() {
        Dialect d = dialect;
        if (d == null) {
            try (Connection c = dataSource.getConnection()) {
                d = Dialect.fromProductName(c.getMetaData().getDatabaseProductName());
            } catch (SQLException e) {
                d = Dialect.GENERIC;
            }
            dialect = d;
        }
        return d;
    }

    /** @return the row cap */
    public int maxRows() {
        return maxRows;
    }

    @Override
    public ExecutionOutcome execute(SqlStatement statement) {
        Objects.requireNonNull(statement, "statement");
        long start = clock.millis();
        Dialect d = dialect();
        try (Connection c = dataSource.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            try {
                c.setReadOnly(true);
                if (autoCommit) {
                    c.setAutoCommit(false);
                }
                try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
                    long secs = Math.max(1, (queryTimeout.toMillis() + 999) / 1000);
                    ps.setQueryTimeout((int) Math.min(Integer.MAX_VALUE, secs));
                    ps.setMaxRows(maxRows + 1);
                    ps.setFetchSize(fetchSize);
                    List<Object> params = statement.parameters();
                    for (int i = 0; i < params.size(); i++) {
                        ps.setObject(i + 1, params.get(i));
                    }
                    try (ResultSet rs = ps.executeQuery()) {
                        return new ExecutionOutcome.Success(read(rs, start));
                    }
                } finally {
                    rollbackQuietly(c);
                }
            } finally {
                restore(c, autoCommit);
            }
        } catch (SQLException e) {
            return new ExecutionOutcome.Failure(toError(d, e, start));
        }
    }

    private ResultTable read(ResultSet rs, long start) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        List<ResultColumn> cols = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            cols.add(new ResultColumn(md.getColumnLabel(i), String.valueOf(md.getColumnTypeName(i)), md.getColumnType(i)));
        }
        List<List<Object>> rows = new ArrayList<>();
        boolean truncated = false;
        while (rs.next()) {
            if (rows.size() == maxRows) {
                truncated = true;
                break;
            }
            List<Object> row = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) {
                row.add(normalise(rs.getObject(i)));
            }
            rows.add(row);
        }
        return new ResultTable(cols, rows, truncated, Duration.ofMillis(clock.millis() - start));
    }

    static Object normalise(Object v) {
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Long || v instanceof Double
                || v instanceof BigDecimal) {
            return v;
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof Float) {
            return ((Float) v).doubleValue();
        }
        if (v instanceof BigInteger) {
            return new BigDecimal((BigInteger) v);
        }
        if (v instanceof byte[]) {
            return "<" + ((byte[]) v).length + " bytes>";
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
        return v.toString();
    }

    private ExecutionError toError(Dialect d, SQLException e, long start) {
        ErrorCategory category = e instanceof SQLTimeoutException ? ErrorCategory.TIMEOUT : classifier.classify(d, e);
        return new ExecutionError(category, e.getSQLState(), e.getErrorCode(), String.valueOf(e.getMessage()),
                Duration.ofMillis(clock.millis() - start));
    }

    private static void rollbackQuietly(Connection c) {
        try {
            if (!c.getAutoCommit()) {
                c.rollback();
            }
        } catch (SQLException ignored) {
            // the connection is closed next; nothing was written by a read-only query
        }
    }

    private static void restore(Connection c, boolean autoCommit) {
        try {
            c.setAutoCommit(autoCommit);
            c.setReadOnly(false);
        } catch (SQLException ignored) {
            // a pooled connection that cannot be restored is closed by its pool
        }
    }

    /** Builds a {@link JdbcSqlExecutor}; setters check their arguments. */
    public static final class Builder {
        private final DataSource dataSource;
        private Duration queryTimeout = DEFAULT_QUERY_TIMEOUT;
        private int maxRows = DEFAULT_MAX_ROWS;
        private int fetchSize = DEFAULT_FETCH_SIZE;
        private ErrorClassifier classifier = ErrorClassifier.standard();
        private Clock clock = Clock.systemUTC();
        private Dialect dialect;

        private Builder(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        }

        /** @param timeout per query, at least one second  @return this */
        public Builder queryTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "queryTimeout");
            if (timeout.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("queryTimeout must be >= 1s but was " + timeout);
            }
            this.queryTimeout = timeout;
            return this;
        }

        /** @param maxRows rows kept per result, at least 1  @return this */
        public Builder maxRows(int maxRows) {
            if (maxRows < 1) {
                throw new IllegalArgumentException("maxRows must be > 0 but was " + maxRows);
            }
            this.maxRows = maxRows;
            return this;
        }

        /** @param fetchSize rows per round trip, at least 1  @return this */
        public Builder fetchSize(int fetchSize) {
            if (fetchSize < 1) {
                throw new IllegalArgumentException("fetchSize must be > 0 but was " + fetchSize);
            }
            this.fetchSize = fetchSize;
            return this;
        }

        /** @param dialect the dialect, instead of detecting it  @return this */
        public Builder dialect(Dialect dialect) {
            this.dialect = Objects.requireNonNull(dialect, "dialect");
            return this;
        }

        /** @param classifier the error classifier  @return this */
        public Builder classifier(ErrorClassifier classifier) {
            this.classifier = Objects.requireNonNull(classifier, "classifier");
            return this;
        }

        /** @param clock the clock used to time queries  @return this */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** @return the executor */
        public JdbcSqlExecutor build() {
            return new JdbcSqlExecutor(this);
        }
    }
}
