package dev.sqlagent.bench;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.experimental.rag.content.retriever.sql.SqlDatabaseContentRetriever;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.query.Query;
import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.TokenUsage;
import dev.sqlagent.verify.Verifiers;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What answering one question costs besides the model, side by side on the same in-memory H2 database
 * and the same fake model (which answers at once with the SQL for the question):
 * <ul>
 *   <li>{@code plainJdbc}: the floor, the SQL run directly (connection, statement, read every row);</li>
 *   <li>{@code defaultAgent}: {@link SqlAgent} as built with only the required settings (guard, engine
 *       check on H2, read-only execution, trace, metrics);</li>
 *   <li>{@code defaultAgentWithoutEngineCheck}: the same with {@code engineCheck(false)}, so that the
 *       difference is the engine check's cost;</li>
 *   <li>{@code governedAgent}: three candidates per question (each guarded, engine-checked and run, then
 *       voted on) and {@code Verifiers.standard()};</li>
 *   <li>{@code langchain4jSqlRetriever}: LangChain4j's {@code SqlDatabaseContentRetriever}
 *       ({@code langchain4j-experimental-sql}), driven by a fake {@code ChatModel} that returns the SQL.</li>
 * </ul>
 * Every invocation asks about another customer (1 to 1000 in turn) in a question with its own serial
 * number, which the SQL carries as an always-true condition ({@code id > -serial}): no two questions of a
 * run have the same SQL, so no cache keyed by the statement (the guard's verdicts, the engine's plans)
 * answers the benchmark; the agents' fix cache serves only corrections, and there are none. Each setup checks that every path answers correctly, and
 * each iteration's end that every question was answered.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar AgentOverheadBenchmark} (about 2 min); add
 * {@code -p engine=postgresql} or {@code -p engine=mariadb} for the test servers ({@link #database}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class AgentOverheadBenchmark {

    static final int CUSTOMERS = 1000;
    /** The setup's own question, a serial the measured questions never reach. */
    private static final long SETUP_SERIAL = 1_000_000_007L;
    private static final Pattern CUSTOMER = Pattern.compile("of customer (\\d+) \\(question (\\d+)\\)\\?");

    private final AtomicLong counter = new AtomicLong();
    private DataSource dataSource;
    /** The database: {@code h2} (in memory), {@code postgresql} or {@code mariadb} (the test servers). */
    @Param({"h2"})
    public String engine = "h2";

    private SqlAgent defaultAgent;
    private SqlAgent uncheckedAgent;
    private SqlAgent governedAgent;
    private SqlDatabaseContentRetriever retriever;

    static String question(long serial) {
        return "What is the total amount of the paid orders of customer " + customerOf(serial) + " (question " + serial
                + ")?";
    }

    static int customerOf(long serial) {
        return (int) (serial % CUSTOMERS) + 1;
    }

    /** The SQL a model would write for a question, in one of three equivalent forms. */
    static String sql(long serial, int form) {
        int customer = customerOf(serial);
        switch (form % 3) {
            case 0:
                return "SELECT SUM(amount) AS total FROM orders WHERE customer_id = " + customer + " AND status = 'paid'"
                        + " AND id > -" + serial;
            case 1:
                return "SELECT SUM(o.amount) AS total FROM orders o WHERE o.customer_id = " + customer
                        + " AND o.status = 'paid' AND o.id > -" + serial;
            default:
                return "SELECT SUM(amount) AS total FROM orders WHERE status = 'paid' AND id > -" + serial
                        + " AND customer_id = " + customer;
        }
    }

    /** The serial number of the last question in a prompt. */
    static long serialIn(String text) {
        Matcher m = CUSTOMER.matcher(text);
        long found = -1;
        while (m.find()) {
            found = Long.parseLong(m.group(2));
        }
        if (found < 0) {
            throw new IllegalStateException("no question about a customer in the prompt");
        }
        return found;
    }

    /** sqlagent's fake model: as many candidates as asked for, each an equivalent form of the SQL. */
    static final class FakeLlm implements LlmClient {
        final AtomicLong calls = new AtomicLong();

        @Override
        public LlmResponse chat(LlmRequest request) {
            calls.incrementAndGet();
            long serial = serialIn(request.text());
            List<String> texts = new ArrayList<>();
            for (int i = 0; i < request.n(); i++) {
                texts.add(sql(serial, i));
            }
            return new LlmResponse(texts, new TokenUsage(300, 20), "fake");
        }
    }

    /** LangChain4j's fake model: the SQL for the question in the last user message. */
    static final class FakeChatModel implements ChatModel {
        @Override
        public ChatResponse doChat(ChatRequest request) {
            String question = "";
            for (ChatMessage m : request.messages()) {
                if (m instanceof UserMessage u) {
                    question = u.singleText();
                }
            }
            return ChatResponse.builder().aiMessage(AiMessage.from(sql(serialIn(question), 0))).build();
        }
    }

    private long nextSerial() {
        return counter.getAndIncrement();
    }

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        DataSource ds = database(engine);
        dataSource = ds;
        // a generous parse cap: on a loaded machine the first parses of a cold JVM may take long
        GuardPolicy policy = GuardPolicy.builder().allowTables("customers", "orders")
                .parseTimeout(Duration.ofSeconds(60)).build();
        FakeLlm model = new FakeLlm();
        defaultAgent = SqlAgent.builder().llm(model).dataSource(ds).policy(policy).build();
        uncheckedAgent = SqlAgent.builder().llm(model).dataSource(ds).policy(policy).engineCheck(false).build();
        governedAgent = SqlAgent.builder().llm(model).dataSource(ds).policy(policy).candidates(3)
                .verifiers(Verifiers.standard()).build();
        retriever = SqlDatabaseContentRetriever.builder().dataSource(ds).chatModel(new FakeChatModel()).build();

        BigDecimal expected = (BigDecimal) plainJdbc(SETUP_SERIAL);
        for (SqlAgent agent : List.of(defaultAgent, uncheckedAgent, governedAgent)) {
            long before = model.calls.get();
            AgentResult r = agent.ask(question(SETUP_SERIAL));
            if (!(r instanceof AgentResult.Answered a)
                    || ((BigDecimal) a.table().rows().get(0).get(0)).compareTo(expected) != 0) {
                throw new IllegalStateException("the agent did not answer " + expected + ": " + r);
            }
            if (model.calls.get() - before != 1) {
                throw new IllegalStateException("expected one model call per question but saw "
                        + (model.calls.get() - before));
            }
        }
        List<Content> contents = retriever.retrieve(Query.from(question(SETUP_SERIAL)));
        if (contents.isEmpty() || !contents.get(0).textSegment().text().contains(expected.toPlainString())) {
            throw new IllegalStateException("the retriever did not answer " + expected + ": " + contents);
        }
    }

    @TearDown(Level.Iteration)
    public void everyQuestionWasAnswered() {
        for (SqlAgent agent : List.of(defaultAgent, uncheckedAgent, governedAgent)) {
            if (agent.metrics().answered() != agent.metrics().questions()) {
                throw new IllegalStateException("not every question was answered: " + agent.metrics());
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        defaultAgent.close();
        uncheckedAgent.close();
        governedAgent.close();
    }

    /**
     * The benchmark's database, filled: 1,000 customers, 5,000 orders (four paid per customer), an index on
     * {@code orders.customer_id}. On PostgreSQL it is the schema {@code sqlagent_bench} of the
     * {@code SQLAGENT_PG_URL} database, on MariaDB the database {@code sqlagent_bench} of the
     * {@code SQLAGENT_MARIADB_URL} server (both created again, defaults: the local test servers), reached
 * through a HikariCP pool of 12 connections.
     *
     * @param engine {@code h2}, {@code postgresql} or {@code mariadb}
     * @return the database
     * @throws Exception if it cannot be created
     */
    static DataSource database(String engine) throws Exception {
        DataSource ds;
        switch (engine) {
            case "h2":
                ds = new UrlDataSource("jdbc:h2:mem:overhead-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");
                break;
            case "postgresql": {
                String url = env("SQLAGENT_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
                String user = env("SQLAGENT_PG_USER", "postgres");
                String password = env("SQLAGENT_PG_PASSWORD", "");
                try (Connection c = new UrlDataSource(url, user, password).getConnection();
                        Statement s = c.createStatement()) {
                    s.execute("DROP SCHEMA IF EXISTS sqlagent_bench CASCADE");
                    s.execute("CREATE SCHEMA sqlagent_bench");
                }
                ds = pool(url + (url.contains("?") ? "&" : "?") + "currentSchema=sqlagent_bench", user, password);
                break;
            }
            case "mariadb": {
                String url = env("SQLAGENT_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test");
                String user = env("SQLAGENT_MARIADB_USER", "root");
                String password = env("SQLAGENT_MARIADB_PASSWORD", "");
                try (Connection c = new UrlDataSource(url, user, password).getConnection();
                        Statement s = c.createStatement()) {
                    s.execute("DROP DATABASE IF EXISTS sqlagent_bench");
                    s.execute("CREATE DATABASE sqlagent_bench");
                }
                int slash = url.indexOf('/', url.indexOf("//") + 2);
                int query = url.indexOf('?');
                ds = pool(url.substring(0, slash) + "/sqlagent_bench" + (query < 0 ? "" : url.substring(query)), user,
                        password);
                break;
            }
            default:
                throw new IllegalArgumentException("engine must be h2, postgresql or mariadb but was " + engine);
        }
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, region VARCHAR(20))");
            s.execute("CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL REFERENCES customers(id),"
                    + " amount DECIMAL(10,2) NOT NULL, status VARCHAR(10) NOT NULL)");
            s.execute("CREATE INDEX orders_customer ON orders (customer_id)");
            c.setAutoCommit(false);
            String[] regions = {"north", "south", "east", "west"};
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO customers VALUES (?, ?, ?)")) {
                for (int x = 1; x <= CUSTOMERS; x++) {
                    ps.setInt(1, x);
                    ps.setString(2, "customer " + x);
                    ps.setString(3, regions[x % 4]);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            // five orders per customer, four of them paid
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?)")) {
                for (int x = 1; x <= 5 * CUSTOMERS; x++) {
                    ps.setInt(1, x);
                    ps.setInt(2, (x - 1) % CUSTOMERS + 1);
                    ps.setBigDecimal(3, BigDecimal.valueOf(10 + (x * 37L) % 500));
                    ps.setString(4, x > 4 * CUSTOMERS ? "refunded" : "paid");
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
            c.setAutoCommit(true);
            if (!engine.equals("h2")) {
                s.execute(engine.equals("postgresql") ? "ANALYZE" : "ANALYZE TABLE customers, orders");
            }
        }
        return ds;
    }

    /**
     * A server is reached through a pool, as a real host reaches it: without one, opening a connection
     * (tens of milliseconds) would be most of every contender's time. The in-memory H2 database is opened
     * per question by every contender alike, as before.
     */
    private static DataSource pool(String url, String user, String password) {
        com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(12);
        config.setMinimumIdle(12);
        config.setPoolName("bench");
        return new com.zaxxer.hikari.HikariDataSource(config);
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    private Object plainJdbc(long serial) throws Exception {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql(serial, 0))) {
            Object last = null;
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    last = rs.getObject(i);
                }
            }
            return last;
        }
    }

    @Benchmark
    public Object plainJdbc() throws Exception {
        return plainJdbc(nextSerial());
    }

    @Benchmark
    public AgentResult defaultAgent() {
        return defaultAgent.ask(question(nextSerial()));
    }

    @Benchmark
    public AgentResult defaultAgentWithoutEngineCheck() {
        return uncheckedAgent.ask(question(nextSerial()));
    }

    @Benchmark
    public AgentResult governedAgent() {
        return governedAgent.ask(question(nextSerial()));
    }

    @Benchmark
    public List<Content> langchain4jSqlRetriever() {
        return retriever.retrieve(Query.from(question(nextSerial())));
    }
}
