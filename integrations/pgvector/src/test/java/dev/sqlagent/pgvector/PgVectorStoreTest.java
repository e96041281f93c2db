package dev.sqlagent.pgvector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.vector.VectorFilter;
import dev.sqlagent.vector.VectorStore;
import dev.sqlagent.vector.VectorStoreContract;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The contract against a real PostgreSQL with pgvector, at 127.0.0.1:5432 as user postgres (override
 * with SQLAGENT_PG_HOST, SQLAGENT_PG_PORT, SQLAGENT_PG_USER, SQLAGENT_PG_PASSWORD). It works in its own
 * database, sqlagent_pgvector_test, which it creates. Skipped, loudly, when the server or the extension
 * is missing, unless SQLAGENT_REQUIRE_SERVERS=true, when it fails instead.
 */
class PgVectorStoreTest extends VectorStoreContract {

    private static final String DATABASE = "sqlagent_pgvector_test";
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static DataSource dataSource;

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    private static PGSimpleDataSource source(String database) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setServerNames(new String[] {env("SQLAGENT_PG_HOST", "127.0.0.1")});
        ds.setPortNumbers(new int[] {Integer.parseInt(env("SQLAGENT_PG_PORT", "5432"))});
        ds.setUser(env("SQLAGENT_PG_USER", "postgres"));
        ds.setPassword(env("SQLAGENT_PG_PASSWORD", ""));
        ds.setDatabaseName(database);
        ds.setConnectTimeout(5);
        return ds;
    }

    @BeforeAll
    static void connect() {
        try {
            try (Connection c = source("postgres").getConnection(); Statement st = c.createStatement()) {
                try (ResultSet rs = st.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
                    if (!rs.next()) {
                        st.execute("CREATE DATABASE " + DATABASE);
                    }
                }
            }
            PGSimpleDataSource ds = source(DATABASE);
            try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
                st.execute("CREATE EXTENSION IF NOT EXISTS vector");
            }
            dataSource = new ReusingDataSource(ds); // connections reused, as a host's pool would
        } catch (SQLException e) {
            String why = "PostgreSQL with pgvector is not available (" + e.getMessage()
                    + "); see integrations/pgvector/install-pgvector.sh";
            System.err.println("*** SKIPPING PgVectorStoreTest: " + why);
            if ("true".equalsIgnoreCase(System.getenv("SQLAGENT_REQUIRE_SERVERS"))) {
                Assertions.fail(why, e);
            }
            Assumptions.abort(why);
        }
    }

    private static PgVectorStore newTable(int dimension, boolean index) {
        String table = "contract_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + table);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return PgVectorStore.builder(dataSource, table, dimension).hnswIndex(index).build().createTable();
    }

    private static void drop(VectorStore store) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + ((PgVectorStore) store).table());
        }
    }

    @Override
    protected VectorStore newStore(int dimension) {
        return newTable(dimension, false);
    }

    @Override
    protected void closeStore(VectorStore store) throws SQLException {
        drop(store);
    }

    @Test
    void anExistingTableOfAnotherDimensionIsRefusedWhenTheStoreIsCreated() throws Exception {
        PgVectorStore narrow = newTable(8, false);
        try {
            PgVectorStore wide = PgVectorStore.builder(dataSource, narrow.table(), 16).build();
            assertThatThrownBy(wide::createTable).isInstanceOf(IllegalStateException.class)
                    .hasMessage("table " + narrow.table() + " holds vectors of dimension 8 but this store was built"
                            + " for dimension 16");
            assertThat(PgVectorStore.builder(dataSource, narrow.table(), 8).build().createTable().dimension())
                    .isEqualTo(8);
        } finally {
            drop(narrow);
        }
    }

    /** The contract again with pgvector's HNSW index on the table. */
    @Nested
    class WithHnswIndex extends VectorStoreContract {
        @Override
        protected VectorStore newStore(int dimension) {
            return newTable(dimension, true);
        }

        @Override
        protected void closeStore(VectorStore store) throws SQLException {
            drop(store);
        }
    }

    @Test
    void metadataIsStoredAsJsonbThatSqlCanQuery() throws Exception {
        PgVectorStore s = (PgVectorStore) store();
        s.add("case-1", axis(0), Map.of("status", "good", "sql", "SELECT 'x' FROM t"));
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT metadata ->> 'sql' FROM " + s.table() + " WHERE id = 'case-1'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("SELECT 'x' FROM t");
        }
        assertThat(s.search(axis(0), 1, VectorFilter.eq("sql", "SELECT 'x' FROM t"))).hasSize(1);
    }

    @Test
    void missingTableFailsNamingTheTable() {
        PgVectorStore s = PgVectorStore.builder(dataSource, "no_such_table", DIM).build();
        assertThatThrownBy(s::size)
                .isInstanceOf(PgVectorStoreException.class)
                .hasMessageContaining("no_such_table")
                .hasMessageContaining("42P01");
    }

    @Test
    void unsafeTableNamesAreRefused() {
        assertThatThrownBy(() -> PgVectorStore.builder(dataSource, "cases; DROP TABLE x", DIM))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("table");
    }

    @Test
    void zeroVectorCannotBeAdded() throws Exception {
        VectorStore s = store();
        assertThatThrownBy(() -> s.add("zero", new float[DIM], Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("zero");
    }
}
