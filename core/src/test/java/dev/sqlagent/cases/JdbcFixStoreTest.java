package dev.sqlagent.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.testing.DatabaseServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The JDBC fix store on every engine it names: the contract, two instances sharing one table, concurrent
 * puts of one key from two instances, what the table holds, and the purge. PostgreSQL and MariaDB run when
 * their servers answer ({@code SQLAGENT_PG_URL}, {@code SQLAGENT_MARIADB_URL}).
 */
class JdbcFixStoreTest {

    /** The engine-independent part; each engine says where its database is. */
    abstract static class OnEngine extends FixStoreContract {

        final String table = "fixes_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

        abstract DataSource dataSource() throws Exception;

        @Override
        JdbcFixStore newStore(Clock clock) throws Exception {
            return JdbcFixStore.builder(dataSource()).table(table).expiry(EXPIRY).clock(clock).build();
        }

        @AfterEach
        void dropTable() throws Exception {
            try (Connection c = dataSource().getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + table);
            }
        }

        int rows() throws Exception {
            try (Connection c = dataSource().getConnection(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
                rs.next();
                return rs.getInt(1);
            }
        }

        @Test
        void aFixPutByOneInstanceServesAnother() throws Exception {
            FixStore first = newStore(clock);
            FixStore second = newStore(clock);
            first.put(key(1), "SELECT name FROM employees");

            assertThat(second.get(key(1))).contains("SELECT name FROM employees");
        }

        @Test
        void concurrentPutsOfOneKeyFromTwoInstancesLeaveOneRow() throws Exception {
            List<FixStore> instances = List.of(newStore(clock), newStore(clock));
            instances.get(0).get(key(9)); // both create the table before the race: the race is on the row
            int threads = 6;
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> puts = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    FixStore store = instances.get(i % 2);
                    String fix = "SELECT name FROM employees WHERE id > " + i;
                    puts.add(pool.submit(() -> {
                        start.await();
                        store.put(key(1), fix);
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> f : puts) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(rows()).isEqualTo(1);
            assertThat(instances.get(1).get(key(1)).orElseThrow()).startsWith("SELECT name FROM employees WHERE id > ");
        }

        @Test
        void theTableHoldsTheHashAndLabelsNeverTheFailedStatement() throws Exception {
            FixStore store = newStore(clock);
            store.put(key(3), "SELECT name FROM employees");
            store.get(key(3));
            store.get(key(3));

            try (Connection c = dataSource().getConnection(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT key_hash, category, policy_fp, schema_fp, fixed_sql,"
                            + " created_at, last_used, hits FROM " + table)) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo(key(3).hash());
                assertThat(rs.getString(2)).isEqualTo("COLUMN_NOT_FOUND");
                assertThat(rs.getString(3)).isEqualTo("abc123");
                assertThat(rs.getString(4)).isEqualTo("def456");
                assertThat(rs.getString(5)).isEqualTo("SELECT name FROM employees");
                assertThat(rs.getLong(6)).isEqualTo(clock.millis());
                assertThat(rs.getLong(7)).isEqualTo(clock.millis());
                assertThat(rs.getLong(8)).isEqualTo(2);
                assertThat(rs.next()).isFalse();
            }
        }

        @Test
        void expiredFixesArePurgedAndOnlyThey() throws Exception {
            JdbcFixStore store = newStore(clock);
            store.put(key(1), "SELECT 1");
            clock.advance(EXPIRY.minusHours(1));
            store.put(key(2), "SELECT 2");
            clock.advance(Duration.ofHours(2));

            assertThat(store.purgeExpired()).isEqualTo(1);
            assertThat(rows()).isEqualTo(1);
            assertThat(store.get(key(2))).contains("SELECT 2");
        }

        @Test
        void aPutAlsoPurgesExpiredRowsAtMostOncePerInterval() throws Exception {
            JdbcFixStore store = JdbcFixStore.builder(dataSource()).table(table).expiry(Duration.ofMinutes(10))
                    .clock(clock).build();
            store.put(key(1), "SELECT 1"); // the first put purges
            clock.advance(Duration.ofMinutes(20));
            store.put(key(2), "SELECT 2"); // key 1 expired, but the next purge is due an interval after the first
            assertThat(rows()).isEqualTo(2);

            clock.advance(JdbcFixStore.PURGE_INTERVAL.minusMinutes(19));
            store.put(key(3), "SELECT 3");
            assertThat(rows()).as("keys 1 and 2 expired and purged").isEqualTo(1);
        }
    }

    @Nested
    class H2 extends OnEngine {
        private final JdbcDataSource ds = new JdbcDataSource();

        H2() {
            ds.setURL("jdbc:h2:mem:fixes-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        }

        @Override
        DataSource dataSource() {
            return ds;
        }

        @Test
        void h2TakesTheUpdateThenInsertPath() {
            assertThat(JdbcFixStore.upsertSql(Dialect.H2, table)).isNull();
        }
    }

    @Nested
    class Sqlite extends OnEngine {
        private final DataSource ds;

        Sqlite() throws Exception {
            Path dir = Files.createTempDirectory("fixes");
            dir.toFile().deleteOnExit();
            ds = new UrlDataSource("jdbc:sqlite:" + dir.resolve("fixes.db"), null, null);
        }

        @Override
        DataSource dataSource() {
            return ds;
        }
    }

    @Nested
    class DuckDb extends OnEngine {
        private final DataSource ds;

        DuckDb() throws Exception {
            Path dir = Files.createTempDirectory("fixes");
            dir.toFile().deleteOnExit();
            ds = new UrlDataSource("jdbc:duckdb:" + dir.resolve("fixes.duckdb"), null, null);
        }

        @Override
        DataSource dataSource() {
            return ds;
        }

        @Test
        void bothWaysDuckDbRefusesTheSecondWriterOfOneRowAreRecognisedAsConflicts() throws Exception {
            JdbcFixStore store = newStore(clock);
            store.get(key(9)); // creates the table
            String upsert = JdbcFixStore.upsertSql(Dialect.DUCKDB, table);
            List<SQLException> refusals = new ArrayList<>();
            // the second writer fails at its statement (its snapshot sees the first's uncommitted key) ...
            try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
                a.setAutoCommit(false);
                b.setAutoCommit(false);
                write(a, upsert, "k1");
                try {
                    write(b, upsert, "k1");
                    a.commit();
                    b.commit();
                } catch (SQLException e) {
                    refusals.add(e);
                }
            }
            // ... or at its commit, when the first committed after the second's snapshot was taken
            try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
                b.setAutoCommit(false);
                b.createStatement().execute("SELECT count(*) FROM " + table); // takes b's snapshot
                write(a, upsert, "k2"); // a commits (autocommit)
                try {
                    write(b, upsert, "k2");
                    b.commit();
                } catch (SQLException e) {
                    refusals.add(e);
                }
            }
            assertThat(refusals).as("DuckDB let a second writer of one row through without an error").isNotEmpty();
            assertThat(refusals).allSatisfy(e -> assertThat(JdbcFixStore.isDuckDbWriteConflict(e))
                    .as("not recognised as a write conflict: %s", e.getMessage()).isTrue());
            assertThat(JdbcFixStore.isDuckDbWriteConflict(new SQLException("TransactionContext Error: Failed to"
                    + " commit: PRIMARY KEY or UNIQUE constraint violation: duplicate key \"00\""))).isTrue();
            assertThat(JdbcFixStore.isDuckDbWriteConflict(new SQLException("IO Error: disk full"))).isFalse();
        }

        private void write(Connection c, String upsert, String hash) throws SQLException {
            try (PreparedStatement ps = c.prepareStatement(upsert)) {
                ps.setString(1, hash);
                ps.setString(2, "COLUMN_NOT_FOUND");
                ps.setString(3, "p");
                ps.setString(4, "s");
                ps.setString(5, "SELECT 1");
                ps.setLong(6, 1L);
                ps.setLong(7, 1L);
                ps.executeUpdate();
            }
        }
    }

    @Nested
    class Postgres extends OnEngine {
        @Override
        DataSource dataSource() {
            return DatabaseServer.postgres().require().adminDataSource();
        }
    }

    @Nested
    class Mariadb extends OnEngine {
        @Override
        DataSource dataSource() {
            return DatabaseServer.mariadb().require().adminDataSource();
        }
    }

    @Test
    void badSettingsAreRefusedByName() {
        JdbcDataSource ds = new JdbcDataSource();
        assertThatThrownBy(() -> JdbcFixStore.builder(ds).table("fixes; DROP TABLE x"))
                .hasMessage("table must be a plain identifier but was 'fixes; DROP TABLE x'");
        assertThatThrownBy(() -> JdbcFixStore.builder(ds).expiry(Duration.ofSeconds(-1)))
                .hasMessage("expiry must be positive but was PT-1S");
        assertThatThrownBy(() -> JdbcFixStore.builder(ds).timeout(Duration.ofMillis(10)))
                .hasMessage("timeout must be >= 1s but was PT0.01S");
    }

    @Test
    void anUnreachableDatabaseIsAnSqlException() {
        JdbcFixStore store = JdbcFixStore.create(new UrlDataSource("jdbc:h2:mem:none;IFEXISTS=TRUE", "sa", ""));

        assertThatThrownBy(() -> store.get(FixStoreContract.key(1))).isInstanceOf(SQLException.class);
    }
}
