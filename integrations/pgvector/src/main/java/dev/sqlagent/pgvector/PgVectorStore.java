package dev.sqlagent.pgvector;

import dev.sqlagent.vector.VectorFilter;
import dev.sqlagent.vector.VectorMatch;
import dev.sqlagent.vector.VectorStore;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * A {@link VectorStore} in a PostgreSQL table with pgvector: {@code id text primary key, embedding
 * vector(d), metadata jsonb}. Scores are {@code 1 - (embedding <=> query)}, pgvector's cosine
 * similarity. {@link VectorFilter}s become a {@code WHERE} clause on the jsonb column; any other
 * {@link Predicate} is applied in Java to rows streamed nearest first, until {@code k} pass.
 *
 * <p>Without an index (the default) every search is exact. {@link Builder#hnswIndex(boolean)} adds
 * pgvector's HNSW index; searches filtered by a {@link VectorFilter} then use pgvector 0.8's iterative
 * index scans so that a selective filter still finds {@code k} rows, and searches with any other
 * predicate scan the table exactly.
 *
 * <p>Every call takes a connection from the {@link DataSource} and gives it back; the store is
 * thread-safe as far as the data source is. Every call but {@link #createTable()} (an index build may
 * rightly take minutes) is bounded, so that a database that stops answering cannot hold a question that
 * looks up similar cases: each read of the call blocks at most {@link Builder#timeout} plus three seconds
 * (the connection's network timeout, put back afterwards), a search runs under a server-side
 * {@code statement_timeout} of {@link Builder#timeout}, and a data source without a login timeout gets
 * that timeout as one. The database must have the extension
 * ({@code CREATE EXTENSION vector}, which needs a privileged role); {@link #createTable()} creates the
 * table and index if they are missing. Database failures surface as {@link PgVectorStoreException}
 * naming the table.
 */
public final class PgVectorStore implements VectorStore {

    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}(\\.[a-z_][a-z0-9_]{0,62})?");
    private static final int FETCH_SIZE = 256;

    /** Default bound of a call's statement; every read of a call gets three seconds more. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
    private static final long NETWORK_GRACE_MILLIS = 3000;

    private final DataSource dataSource;
    private final String table;
    private final int dimension;
    private final boolean hnswIndex;
    private final Duration timeout;

    private PgVectorStore(Builder b) {
        this.dataSource = b.dataSource;
        this.table = b.table;
        this.dimension = b.dimension;
        this.hnswIndex = b.hnswIndex;
        this.timeout = b.timeout;
        try {
            if (dataSource.getLoginTimeout() == 0) {
                dataSource.setLoginTimeout((int) Math.max(1, timeout.toSeconds()));
            }
        } catch (SQLException | RuntimeException e) {
            // a data source that refuses keeps its own bound
        }
    }

    /**
     * Takes a connection whose every read is bounded until it is closed (its own network timeout is then
     * put back).
     */
    private Connection bounded() throws SQLException {
        Connection c = dataSource.getConnection();
        int old;
        try {
            old = c.getNetworkTimeout();
            c.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis() + NETWORK_GRACE_MILLIS));
        } catch (SQLException | RuntimeException e) {
            old = -1;
        }
        int restore = old;
        return (Connection) java.lang.reflect.Proxy.newProxyInstance(PgVectorStore.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (p, m, a) -> {
                    if (m.getName().equals("close") && restore >= 0 && !c.isClosed()) {
                        try {
                            c.setNetworkTimeout(Runnable::run, restore);
                        } catch (SQLException | RuntimeException ignored) {
                            // a broken connection is closed now; its pool discards it
                        }
                    }
                    try {
                        return m.invoke(c, a);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /**
     * Returns the bound of a call's statement.
     *
     * @return the timeout
     */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Starts a builder.
     *
     * @param dataSource where connections come from, not null
     * @param table the table name, lower-case letters, digits and underscores, optionally
     *     schema-qualified
     * @param dimension the dimension of every vector, 1 to 16000 (pgvector's limit)
     * @return the builder
     * @throws IllegalArgumentException if the table name or the dimension is not acceptable
     */
    public static Builder builder(DataSource dataSource, String table, int dimension) {
        return new Builder(dataSource, table, dimension);
    }

    /**
     * Returns the table name.
     *
     * @return the table
     */
    public String table() {
        return table;
    }

    /**
     * Returns the dimension of every vector, as given to the builder.
     *
     * @return the dimension
     */
    @Override
    public int dimension() {
        return dimension;
    }

    /**
     * Creates the table (and the HNSW index if configured) unless they exist, and checks that an existing
     * table holds vectors of this store's dimension. The extension itself must already be installed in
     * the database.
     *
     * @return this store
     * @throws PgVectorStoreException if the statements fail, for example because the extension is
     *     missing
     * @throws IllegalStateException if the table exists with another vector dimension
     */
    public PgVectorStore createTable() {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS " + table + " (id text PRIMARY KEY, embedding vector(" + dimension
                    + ") NOT NULL, metadata jsonb NOT NULL DEFAULT '{}'::jsonb)");
            try (PreparedStatement ps = c.prepareStatement("SELECT atttypmod FROM pg_attribute"
                    + " WHERE attrelid = CAST(? AS regclass) AND attname = 'embedding'")) {
                ps.setString(1, table);
                try (ResultSet rs = ps.executeQuery()) {
                    int existing = rs.next() ? rs.getInt(1) : -1;
                    if (existing > 0 && existing != dimension) { // vector(n) keeps n as its type modifier
                        throw new IllegalStateException("table " + table + " holds vectors of dimension " + existing
                                + " but this store was built for dimension " + dimension);
                    }
                }
            }
            if (hnswIndex) {
                st.execute("CREATE INDEX IF NOT EXISTS " + table.replace('.', '_') + "_embedding_hnsw ON " + table
                        + " USING hnsw (embedding vector_cosine_ops)");
            }
            return this;
        } catch (SQLException e) {
            throw fail("creating the table", e);
        }
    }

    /**
     * Adds or replaces an entry.
     *
     * @throws IllegalArgumentException if the id is blank, the dimension differs, a component is not
     *     finite or the vector is zero (it has no cosine with anything)
     * @throws NullPointerException if an argument, a metadata key or a metadata value is null
     * @throws PgVectorStoreException if the database fails
     */
    @Override
    public void add(String id, float[] vector, Map<String, String> metadata) {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("id must not be blank");
        }
        String literal = literal(vector, false);
        Map<String, String> meta = Map.copyOf(Objects.requireNonNull(metadata, "metadata"));
        String[] keys = meta.keySet().toArray(new String[0]);
        String[] values = new String[keys.length];
        for (int i = 0; i < keys.length; i++) {
            values[i] = meta.get(keys[i]);
        }
        String sql = "INSERT INTO " + table + " (id, embedding, metadata) VALUES (?, ?::vector, jsonb_object(?, ?))"
                + " ON CONFLICT (id) DO UPDATE SET embedding = EXCLUDED.embedding, metadata = EXCLUDED.metadata";
        try (Connection c = bounded(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, id);
            ps.setString(2, literal);
            ps.setArray(3, c.createArrayOf("text", keys));
            ps.setArray(4, c.createArrayOf("text", values));
            ps.executeUpdate();
        } catch (SQLException e) {
            throw fail("adding " + id, e);
        }
    }

    /**
     * Removes an entry.
     *
     * @throws PgVectorStoreException if the database fails
     */
    @Override
    public boolean remove(String id) {
        Objects.requireNonNull(id, "id");
        try (Connection c = bounded();
                PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE id = ?")) {
            ps.setString(1, id);
            return ps.executeUpdate() > 0;
        } catch (SQLException e) {
            throw fail("removing " + id, e);
        }
    }

    /**
     * Counts the entries.
     *
     * @throws PgVectorStoreException if the database fails
     */
    @Override
    public int size() {
        try (Connection c = bounded(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return Math.toIntExact(rs.getLong(1));
        } catch (SQLException e) {
            throw fail("counting", e);
        }
    }

    /**
     * Finds the entries nearest to the query by cosine distance.
     *
     * @throws IllegalArgumentException if the dimension differs, {@code k < 1} or a component is not
     *     finite
     * @throws NullPointerException if the query or the filter is null
     * @throws PgVectorStoreException if the database fails
     */
    @Override
    public List<VectorMatch> search(float[] query, int k, Predicate<Map<String, String>> filter) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1 but was " + k);
        }
        Objects.requireNonNull(filter, "filter");
        String literal = literal(query, true);
        List<String> params = new ArrayList<>();
        boolean inSql = filter instanceof VectorFilter;
        String where = inSql ? where((VectorFilter) filter, params) : "TRUE";
        String sql = "SELECT id, 1 - (embedding <=> ?::vector) AS score,"
                + " ARRAY(SELECT key FROM jsonb_each_text(metadata) ORDER BY key) AS keys,"
                + " ARRAY(SELECT value FROM jsonb_each_text(metadata) ORDER BY key) AS vals"
                + " FROM " + table + " WHERE " + where + " ORDER BY embedding <=> ?::vector"
                + (inSql ? " LIMIT " + k : "");
        try (Connection c = bounded()) {
            boolean autoCommit = c.getAutoCommit();
            // A cursor (fetch size) and SET LOCAL both need a transaction.
            c.setAutoCommit(false);
            try {
                try (Statement st = c.createStatement()) {
                    // in the server: the driver's own timeout cancels over a second connection, which a
                    // partition blocks
                    st.execute("SET LOCAL statement_timeout = " + Math.max(1, timeout.toMillis()));
                }
                if (hnswIndex) {
                    try (Statement st = c.createStatement()) {
                        if (inSql) {
                            st.execute("SET LOCAL hnsw.iterative_scan = strict_order");
                            st.execute("SET LOCAL hnsw.ef_search = " + Math.max(40, Math.min(1000, 2 * k)));
                        } else {
                            // An index scan stops after ef_search rows; a Java predicate may need all.
                            st.execute("SET LOCAL enable_indexscan = off");
                        }
                    }
                }
                List<VectorMatch> out = new ArrayList<>(Math.min(k, 1024));
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    ps.setFetchSize(inSql ? 0 : FETCH_SIZE);
                    int p = 1;
                    ps.setString(p++, literal);
                    for (String param : params) {
                        ps.setString(p++, param);
                    }
                    ps.setString(p, literal);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (out.size() < k && rs.next()) {
                            Map<String, String> meta = metadata(rs.getArray(3), rs.getArray(4));
                            if (inSql || filter.test(meta)) {
                                double score = rs.getDouble(2);
                                out.add(new VectorMatch(rs.getString(1), Double.isNaN(score) ? 0 : score, meta));
                            }
                        }
                    }
                }
                c.commit();
                return out;
            } finally {
                if (!c.getAutoCommit()) {
                    c.rollback();
                }
                c.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw fail("searching", e);
        }
    }

    /** Translates a filter into SQL over the jsonb column, adding its parameters in order. */
    private static String where(VectorFilter filter, List<String> params) {
        if (filter instanceof VectorFilter.Everything) {
            return "TRUE";
        }
        if (filter instanceof VectorFilter.Eq eq) {
            params.add(eq.key());
            params.add(eq.value());
            return "(metadata ->> ?) = ?";
        }
        if (filter instanceof VectorFilter.In in) {
            if (in.values().isEmpty()) {
                return "FALSE";
            }
            params.add(in.key());
            StringBuilder sb = new StringBuilder("(metadata ->> ?) IN (");
            boolean first = true;
            for (String v : in.values()) {
                sb.append(first ? "?" : ", ?");
                params.add(v);
                first = false;
            }
            return sb.append(')').toString();
        }
        if (filter instanceof VectorFilter.AllOf all) {
            if (all.filters().isEmpty()) {
                return "TRUE";
            }
            StringBuilder sb = new StringBuilder("(");
            for (int i = 0; i < all.filters().size(); i++) {
                sb.append(i == 0 ? "" : " AND ").append(where(all.filters().get(i), params));
            }
            return sb.append(')').toString();
        }
        throw new IllegalArgumentException("unknown filter " + filter);
    }

    private static Map<String, String> metadata(Array keys, Array values) throws SQLException {
        String[] k = (String[]) keys.getArray();
        String[] v = (String[]) values.getArray();
        Map<String, String> out = new HashMap<>(k.length * 2);
        for (int i = 0; i < k.length; i++) {
            out.put(k[i], v[i]);
        }
        return out;
    }

    /** The vector as pgvector's text form {@code [x,y,...]}, checked. */
    private String literal(float[] vector, boolean zeroAllowed) {
        Objects.requireNonNull(vector, "vector");
        if (vector.length != dimension) {
            throw new IllegalArgumentException("vector dimension must be " + dimension + " but was " + vector.length);
        }
        StringBuilder sb = new StringBuilder(vector.length * 12).append('[');
        boolean zero = true;
        for (int i = 0; i < vector.length; i++) {
            float x = vector[i];
            if (!Float.isFinite(x)) {
                throw new IllegalArgumentException("vector component " + i + " must be finite but was " + x);
            }
            zero &= x == 0f;
            sb.append(i == 0 ? "" : ",").append(x);
        }
        if (zero && !zeroAllowed) {
            throw new IllegalArgumentException("vector must not be zero: it has no cosine with anything");
        }
        return sb.append(']').toString();
    }

    private PgVectorStoreException fail(String what, SQLException e) {
        return new PgVectorStoreException("pgvector store " + table + ": " + what + " failed (SQLState "
                + e.getSQLState() + "): " + e.getMessage(), e);
    }

    /** Settings of a store; every setter checks its value. */
    public static final class Builder {
        private final DataSource dataSource;
        private final String table;
        private final int dimension;
        private boolean hnswIndex;
        private Duration timeout = DEFAULT_TIMEOUT;

        private Builder(DataSource dataSource, String table, int dimension) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
            Objects.requireNonNull(table, "table");
            if (!IDENTIFIER.matcher(table).matches()) {
                throw new IllegalArgumentException("table must be a lower-case SQL identifier (optionally"
                        + " schema.table) but was '" + table + "'");
            }
            if (dimension < 1 || dimension > 16_000) {
                throw new IllegalArgumentException("dimension must be between 1 and 16000 but was " + dimension);
            }
            this.table = table;
            this.dimension = dimension;
        }

        /**
         * Whether {@link #createTable()} adds pgvector's HNSW index (approximate search; worth it from
         * some ten thousand rows). Off by default: exact search.
         *
         * @param hnswIndex whether to index
         * @return this builder
         */
        public Builder hnswIndex(boolean hnswIndex) {
            this.hnswIndex = hnswIndex;
            return this;
        }

        /**
         * Sets the bound of a call's statement (default {@link PgVectorStore#DEFAULT_TIMEOUT}); every read
         * of a call may take three seconds more, and a data source without a login timeout gets this one.
         *
         * @param timeout the bound, at least a second
         * @return this builder
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
         * Builds the store; it does not touch the database (a data source without a login timeout gets
         * {@link #timeout} as one).
         *
         * @return the store
         */
        public PgVectorStore build() {
            return new PgVectorStore(this);
        }
    }
}
