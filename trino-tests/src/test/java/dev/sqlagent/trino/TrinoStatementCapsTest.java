package dev.sqlagent.trino;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentResult;
import dev.sqlagent.AgentRole;
import dev.sqlagent.Dialect;
import dev.sqlagent.FailureKind;
import dev.sqlagent.HandOff;
import dev.sqlagent.Question;
import dev.sqlagent.QuestionBudget;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testkit.ScriptedLlm;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The question budget's statement caps and the cancellation of a question, through the agent on the real
 * cluster: the memory cap and the scan cap kill the statement in Trino and end the question as a resource
 * limit, never corrected; the caps are set once per connection and value, and reset when a question drops
 * them; cancelling {@code askAsync}'s future (or a passed deadline) ends the Trino query, as
 * {@code system.runtime.queries} (read on a connection of its own) shows. No sleep: each wait polls the
 * cluster's state, bounded.
 */
class TrinoStatementCapsTest {

    private static final String REFINER = AgentRole.REFINER.id();
    /** TPC-H at scale 1000 (six billion line items): no cap used here lets a scan of it finish. */
    private static final String ENDLESS = "SELECT count(*) FROM lineitem WHERE quantity > 0";
    /**
     * 60M line items grouped by order: holds far more than a megabyte of hash table, and runs for many seconds
     * uncapped, long past the coordinator's once-a-second look at the query's memory.
     */
    private static final String BIG_GROUP_BY =
            "SELECT orderkey, count(*) AS n FROM lineitem GROUP BY orderkey ORDER BY n DESC LIMIT 1";
    /** 15,000³ rows from the memory connector, which reports the bytes it reads: never ends within a cap. */
    private static final String ENDLESS_MEMORY_SCAN = "SELECT count(*) FROM orders a CROSS JOIN orders b "
            + "CROSS JOIN orders c WHERE a.custkey + b.custkey + c.custkey = 17";

    @BeforeAll
    static void load() throws SQLException {
        try (Connection c = TrinoFixture.admin("memory", "default"); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS memory.caps");
            s.execute("DROP TABLE IF EXISTS memory.caps.orders");
            s.execute("CREATE TABLE memory.caps.orders AS SELECT orderkey, custkey, totalprice FROM tpch.tiny.orders");
        }
    }

    @AfterAll
    static void drop() throws SQLException {
        try (Connection c = TrinoFixture.admin("memory", "default"); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS memory.caps.orders");
        }
    }

    /** A login of its own, so that {@code system.runtime.queries} tells this agent's queries apart. */
    private static String login(String what) {
        return what + "-" + UUID.randomUUID();
    }

    private static SqlAgent.Builder agent(ScriptedLlm llm, DataSource ds, String table) {
        return SqlAgent.builder().llm(llm).dataSource(ds).dialect(Dialect.TRINO)
                .policy(GuardPolicy.builder().allowTables(table).build()).queryTimeout(Duration.ofMinutes(5));
    }

    @Test
    void theCapsAreSessionPropertiesOfThisClusterAndAnUnknownOneIsRefused() throws SQLException {
        try (Connection c = TrinoFixture.admin("memory", "caps"); Statement s = c.createStatement()) {
            // query_max_memory and query_max_total_memory are hidden from SHOW SESSION in 483, but set
            s.execute("SET SESSION query_max_memory = '1GB'");
            s.execute("SET SESSION query_max_total_memory = '1GB'");
            s.execute("SET SESSION query_max_scan_physical_bytes = '1GB'");
            SQLException unknown = null;
            try {
                s.execute("SET SESSION query_max_bytes_of_nothing = '1GB'");
            } catch (SQLException e) {
                unknown = e;
            }
            assertThat((Throwable) unknown).as("the cluster checks the names it is told to set").isNotNull();
            assertThat(unknown.getMessage()).contains("query_max_bytes_of_nothing");
        }
    }

    @Test
    void aStatementOverTheMemoryCapEndsTheQuestionAsAResourceLimitNeverCorrected() {
        ScriptedLlm llm = ScriptedLlm.create().enqueueFor(REFINER, BIG_GROUP_BY);
        DataSource ds = new UrlDataSource(TrinoFixture.cluster().jdbcUrl("tpch", "sf10"), TrinoFixture.ADMIN, null);
        try (SqlAgent agent = agent(llm, ds, "lineitem").build()) {
            AgentResult r = agent.ask(Question.of("Which order has the most line items?")
                    .withBudget(QuestionBudget.unlimited().withMaxMemoryBytes(1024 * 1024)));

            assertThat(r).isInstanceOf(AgentResult.Failed.class);
            AgentResult.Failed f = (AgentResult.Failed) r;
            assertThat(f.kind()).isEqualTo(FailureKind.ENVIRONMENT);
            assertThat(f.errorCategory()).contains(ErrorCategory.RESOURCE_LIMIT);
            assertThat(f.message()).contains("memory limit of 1MB");
            assertThat(r.corrected()).isFalse();
            assertThat(llm.callCount()).as("no correction was asked for").isEqualTo(1);
            assertThat(r.trace().executions()).hasSize(1);
            assertThat(vendorCode(r)).isEqualTo(131_073); // EXCEEDED_GLOBAL_MEMORY_LIMIT
        }
    }

    @Test
    void aStatementOverTheScanCapEndsTheQuestionAsAResourceLimitNeverCorrected() {
        ScriptedLlm llm = ScriptedLlm.create().enqueueFor(REFINER, ENDLESS_MEMORY_SCAN);
        DataSource ds = new UrlDataSource(TrinoFixture.cluster().jdbcUrl("memory", "caps"), TrinoFixture.ADMIN, null);
        try (SqlAgent agent = agent(llm, ds, "orders").budget(QuestionBudget.unlimited().withMaxScanBytes(1))
                .build()) {
            AgentResult r = agent.ask("How many triples of orders have customer keys adding up to 17?");

            assertThat(r).isInstanceOf(AgentResult.Failed.class);
            AgentResult.Failed f = (AgentResult.Failed) r;
            assertThat(f.kind()).isEqualTo(FailureKind.ENVIRONMENT);
            assertThat(f.errorCategory()).contains(ErrorCategory.RESOURCE_LIMIT);
            assertThat(f.message()).contains("Exceeded scan limit of 1B");
            assertThat(r.corrected()).isFalse();
            assertThat(llm.callCount()).isEqualTo(1);
            assertThat(r.trace().executions()).hasSize(1);
            assertThat(vendorCode(r)).isEqualTo(131_081); // EXCEEDED_SCAN_LIMIT
        }
    }

    @Test
    void eachCapIsSetOncePerConnectionAndValueAndResetWhenAQuestionDropsIt() throws SQLException {
        String user = login("caps");
        ScriptedLlm llm = ScriptedLlm.create().enqueueFor(REFINER, "SELECT count(*) FROM orders")
                .enqueueFor(REFINER, "SELECT count(*) FROM orders").enqueueFor(REFINER, "SELECT count(*) FROM orders");
        QuestionBudget caps = QuestionBudget.unlimited().withMaxScanBytes(1L << 30).withMaxMemoryBytes(1L << 30);
        try (Pool pool = new Pool(TrinoFixture.cluster().jdbcUrl("memory", "caps"), user);
             SqlAgent agent = agent(llm, pool, "orders").build();
             Connection watcher = TrinoFixture.admin("system", "runtime")) {
            AgentResult first = agent.ask(Question.of("How many orders?").withBudget(caps));
            assertThat(first.status()).as("%s", first).isEqualTo(AgentResult.Status.ANSWERED);
            assertThat(sessionStatements(watcher, user)).containsExactlyInAnyOrder(
                    "SET SESSION query_max_run_time = '300000ms'", "SET SESSION query_max_execution_time = '300000ms'",
                    "SET SESSION query_max_scan_physical_bytes = '1073741824B'",
                    "SET SESSION query_max_memory = '1073741824B'", "SET SESSION query_max_total_memory = '1073741824B'");
            // the pool's connection carries the cap after the question
            try (Connection c = pool.getConnection(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SHOW SESSION LIKE 'query_max_scan_physical_bytes'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("Value")).isEqualTo("1073741824B");
            }

            assertThat(agent.ask(Question.of("How many orders?").withBudget(caps)).status())
                    .isEqualTo(AgentResult.Status.ANSWERED);
            assertThat(sessionStatements(watcher, user)).as("the same caps on the same connection: nothing set")
                    .hasSize(5);

            assertThat(agent.ask("How many orders?").status()).isEqualTo(AgentResult.Status.ANSWERED);
            assertThat(sessionStatements(watcher, user)).as("a question without caps resets them").hasSize(8)
                    .contains("RESET SESSION query_max_scan_physical_bytes", "RESET SESSION query_max_memory",
                            "RESET SESSION query_max_total_memory");
            assertThat(pool.created()).as("every question ran on the pool's one connection").isEqualTo(1);
        }
    }

    @Test
    void cancellingTheQuestionCancelsItsTrinoQuery() throws Exception {
        String user = login("cancel");
        ScriptedLlm llm = ScriptedLlm.create().enqueueFor(REFINER, ENDLESS);
        DataSource ds = new UrlDataSource(TrinoFixture.cluster().jdbcUrl("tpch", "sf1000"), user, null);
        CompletableFuture<HandOff> handOff = new CompletableFuture<>();
        try (SqlAgent agent = agent(llm, ds, "lineitem").onHandOff(handOff::complete).build();
             Connection watcher = TrinoFixture.admin("system", "runtime")) {
            CompletableFuture<AgentResult> future = agent.askAsync("How many line items are there?");
            String query = awaitRunning(watcher, user);

            assertThat(future.cancel(true)).isTrue();

            assertThat(awaitEnd(watcher, query)).containsExactly("FAILED", "USER_CANCELED");
            assertThat(handOff.get(2, TimeUnit.MINUTES).failureKind()).contains(FailureKind.CANCELLED);
            assertThat(future).isCancelled();
        }
    }

    @Test
    void aPassedDeadlineEndsTheTrinoQuery() throws Exception {
        String user = login("deadline");
        ScriptedLlm llm = ScriptedLlm.create().enqueueFor(REFINER, ENDLESS);
        DataSource ds = new UrlDataSource(TrinoFixture.cluster().jdbcUrl("tpch", "sf1000"), user, null);
        try (SqlAgent agent = agent(llm, ds, "lineitem")
                .budget(QuestionBudget.unlimited().withDeadline(Duration.ofSeconds(10))).build();
             Connection watcher = TrinoFixture.admin("system", "runtime")) {
            CompletableFuture<AgentResult> future = agent.askAsync("How many line items are there?");
            String query = awaitRunning(watcher, user);
            AgentResult r = future.get(2, TimeUnit.MINUTES);

            assertThat(r).isInstanceOf(AgentResult.Failed.class);
            assertThat(((AgentResult.Failed) r).kind()).isEqualTo(FailureKind.DEADLINE_EXCEEDED);
            String[] ended = awaitEnd(watcher, query);
            assertThat(ended[0]).isEqualTo("FAILED");
            // the agent's cancel at the deadline, or the session's time cap cut to what was left of it
            assertThat(ended[1]).isIn("USER_CANCELED", "EXCEEDED_TIME_LIMIT");
        }
    }

    /** The Trino error code of the question's one execution. */
    private static int vendorCode(AgentResult r) {
        return ((ExecutionOutcome.Failure) r.trace().executions().get(0).outcome()).error().vendorCode();
    }

    /** The {@code SET SESSION} and {@code RESET SESSION} statements the login ran, as the cluster recorded them. */
    private static List<String> sessionStatements(Connection watcher, String user) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = watcher.prepareStatement("SELECT query FROM system.runtime.queries "
                + "WHERE \"user\" = ? AND (query LIKE 'SET SESSION%' OR query LIKE 'RESET SESSION%')")) {
            ps.setString(1, user);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    /**
     * Polls {@code system.runtime.queries} (each poll a round trip) until the login runs the executor's statement:
     * a prepared one ({@code EXECUTE statement2}: its text is not in the table) created after the executor put its
     * time cap in the session, unlike the prepared statements of the schema read, which come before (the engine
     * check's are {@code EXPLAIN}).
     *
     * @return the query's id
     */
    private static String awaitRunning(Connection watcher, String user) throws SQLException {
        return await(watcher, "\"user\" = ? AND query LIKE 'EXECUTE %' AND state = 'RUNNING' AND created >= "
                + "(SELECT max(created) FROM system.runtime.queries WHERE \"user\" = ? "
                + "AND query LIKE 'SET SESSION query_max_execution_time%')", user)[0];
    }

    /** Polls {@code system.runtime.queries} until the query ended: its state and error code. */
    private static String[] awaitEnd(Connection watcher, String queryId) throws SQLException {
        String[] q = await(watcher, "query_id = ? AND state IN ('FINISHED', 'FAILED')", queryId);
        return new String[] {q[1], q[2]};
    }

    private static String[] await(Connection watcher, String where, String value) throws SQLException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        try (PreparedStatement ps = watcher.prepareStatement("SELECT query_id, state, error_code "
                + "FROM system.runtime.queries WHERE " + where)) {
            for (int i = 1; i <= where.chars().filter(ch -> ch == '?').count(); i++) { // each the same value
                ps.setString(i, value);
            }
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        return new String[] {rs.getString(1), rs.getString(2), rs.getString(3)};
                    }
                }
            }
        }
        throw new AssertionError("no query " + where.replace("?", "'" + value + "'") + " within two minutes");
    }

    /**
     * A pool as a host's (HikariCP's) behaves: each borrow is a new wrapper of a driver connection that
     * outlives it, so that the session's caps stay from one question to the next.
     */
    private static final class Pool implements DataSource, AutoCloseable {
        private final UrlDataSource driver;
        private final Deque<Connection> idle = new ArrayDeque<>();
        private final List<Connection> all = new ArrayList<>();

        Pool(String url, String user) {
            this.driver = new UrlDataSource(url, user, null);
        }

        synchronized int created() {
            return all.size();
        }

        @Override
        public Connection getConnection() throws SQLException {
            Connection real;
            synchronized (this) {
                real = idle.pollFirst();
            }
            if (real == null) {
                real = driver.getConnection();
                synchronized (this) {
                    all.add(real);
                }
            }
            Connection physical = real;
            boolean[] closed = {false};
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        switch (method.getName()) {
                            case "close":
                                if (!closed[0]) {
                                    closed[0] = true;
                                    synchronized (Pool.this) {
                                        idle.addFirst(physical);
                                    }
                                }
                                return null;
                            case "isClosed":
                                return closed[0];
                            case "unwrap":
                                return ((Class<?>) args[0]).isInstance(physical) ? physical
                                        : physical.unwrap((Class<?>) args[0]);
                            default:
                                try {
                                    return method.invoke(physical, args);
                                } catch (InvocationTargetException e) {
                                    throw e.getCause();
                                }
                        }
                    });
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            throw new SQLFeatureNotSupportedException("one login");
        }

        @Override
        public synchronized void close() throws SQLException {
            for (Connection c : all) {
                c.close();
            }
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }
}
