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

    /** Customers in the database (five orders each): 1,000 unless a harness sets fewer before the set-up. */
    static volatile int customers = 1000;
    /**
     * Whether every question has one of eight shapes of SQL ({@link #variedSql}: joins, grouping, a
     * sub-query, a CTE, a window, an outer join, a LIKE and IN list) instead of the one sum of paid orders.
     */
    static volatile boolean varied;
    /** The setup's own question, a serial the measured questions never reach. */
    private static final long SETUP_SERIAL = 1_000_000_007L;
    private static final Pattern CUSTOMER = Pattern.compile("\\(question (\\d+)\\)\\?");

    private final AtomicLong counter = new AtomicLong();
    private DataSource dataSource;
    /** The database: {@code h2} (in memory), {@code postgresql} or {@code mariadb} (the test servers). */
    @Param({"h2"})
    public String engine = "h2";

    private SqlAgent defaultAgent;
    private SqlAgent uncheckedAgent;
    private SqlAgent governedAgent;
    private SqlDatabaseContentRetriever retriever;

    /** What each shape of {@link #variedSql} answers, so that the verifiers find the question answered. */
    private static final String[] ASKED = {
        "What is the total amount of the paid orders",
        "Which customers in the region have the most orders, with their number,",
        "Which are the five largest paid orders, with the customer name,",
        "Which customers have an order above the average amount, by name,",
        "Name three customers and what they spent on orders,",
        "List the orders with their value and place in order of value",
        "What is the paid amount and the number of buyers per region,",
        "How many north or east customers have a name starting with the digit one,"};

    static String question(long serial) {
        if (varied) {
            int shape = (int) ((serial / 7) % 8);
            return ASKED[shape] + (shape == 0 || shape == 5 ? " of customer " + customerOf(serial) : "")
                    + " (question " + serial + ")?";
        }
        return "What is the total amount of the paid orders of customer " + customerOf(serial) + " (question " + serial
                + ")?";
    }

    static int customerOf(long serial) {
        return (int) (serial % customers) + 1;
    }

    /** The SQL a model would write for a question, in one of three equivalent forms. */
    static String sql(long serial, int form) {
        if (varied) {
            return variedSql(serial, form);
        }
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

    /**
     * The SQL of the varied workload: the question's serial picks one of eight shapes and is carried as an
     * always-true condition, so no two questions have the same SQL; the forms differ only in spelling (the
     * case of a keyword, a space), so that three candidates return the same rows.
     */
    static String variedSql(long serial, int form) {
        int c = customerOf(serial);
        String region = new String[] {"north", "south", "east", "west"}[(int) (serial % 4)];
        String sql;
        switch ((int) ((serial / 7) % 8)) {
            case 0:
                sql = "SELECT SUM(amount) AS total FROM orders WHERE customer_id = " + c
                        + " AND status = 'paid' AND id > -" + serial;
                break;
            case 1:
                sql = "SELECT c.name, COUNT(*) AS n FROM customers c JOIN orders o ON o.customer_id = c.id"
                        + " WHERE c.region = '" + region + "' AND o.id > -" + serial
                        + " GROUP BY c.name ORDER BY n DESC, c.name LIMIT 5";
                break;
            case 2:
                sql = "SELECT o.id, o.amount, c.name FROM orders o JOIN customers c ON c.id = o.customer_id"
                        + " WHERE o.status = 'paid' AND o.id > -" + serial + " ORDER BY o.amount DESC, o.id LIMIT 5";
                break;
            case 3:
                sql = "SELECT name FROM customers WHERE id IN (SELECT customer_id FROM orders WHERE amount >"
                        + " (SELECT AVG(amount) FROM orders WHERE id > -" + serial + ")) ORDER BY name LIMIT 10";
                break;
            case 4:
                sql = "WITH t AS (SELECT customer_id, SUM(amount) AS total FROM orders WHERE id > -" + serial
                        + " GROUP BY customer_id) SELECT c.name, t.total FROM t JOIN customers c"
                        + " ON c.id = t.customer_id ORDER BY t.total DESC, c.name LIMIT 3";
                break;
            case 5:
                sql = "SELECT id, amount, ROW_NUMBER() OVER (ORDER BY amount DESC, id) AS rn FROM orders"
                        + " WHERE customer_id = " + c + " AND id > -" + serial;
                break;
            case 6:
                sql = "SELECT c.region, SUM(CASE WHEN o.status = 'paid' THEN o.amount ELSE 0 END) AS paid,"
                        + " COUNT(DISTINCT c.id) AS buyers FROM customers c LEFT JOIN orders o"
                        + " ON o.customer_id = c.id AND o.id > -" + serial + " GROUP BY c.region ORDER BY c.region";
                break;
            default:
                sql = "SELECT COUNT(*) AS n FROM customers WHERE name LIKE 'customer 1%'"
                        + " AND region IN ('north', 'east') AND id > -" + serial;
                break;
        }
        switch (form % 3) {
            case 0:
                return sql;
            case 1:
                // the first keyword in lower case (WITH for the CTE's shape, which once became "select AS (…")
                return sql.startsWith("WITH ") ? "with" + sql.substring(4) : "select" + sql.substring("SELECT".length());
            default:
                return sql.replace(" FROM ", "  FROM ");
        }
    }

    /** The serial number of the last question in a prompt. */
    static long serialIn(String text) {
        Matcher m = CUSTOMER.matcher(text);
        long found = -1;
        while (m.find()) {
            found = Long.parseLong(m.group(1));
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

        // every shape of SQL answered alike by plain JDBC, the three agents and the retriever
        for (int shape = 0; shape < (varied ? 8 : 1); shape++) {
            long serial = SETUP_SERIAL + 7L * shape;
            List<List<String>> expected = rows(serial);
            for (SqlAgent agent : List.of(defaultAgent, uncheckedAgent, governedAgent)) {
                long before = model.calls.get();
                AgentResult r = agent.ask(question(serial));
                if (!(r instanceof AgentResult.Answered a) || !expected.equals(strings(a.table().rows()))) {
                    throw new IllegalStateException("the agent did not answer " + expected + ": " + r);
                }
                if (model.calls.get() - before != 1) {
                    throw new IllegalStateException("expected one model call per question but saw "
                            + (model.calls.get() - before) + " for " + sql(serial, 0) + ": " + r);
                }
            }
            List<Content> contents = retriever.retrieve(Query.from(question(serial)));
            String last = expected.isEmpty() ? "" : expected.get(expected.size() - 1).get(0);
            if (contents.isEmpty() || !contents.get(0).textSegment().text().contains(last)) {
                throw new IllegalStateException("the retriever did not answer " + expected + ": " + contents);
            }
        }
    }

    private static List<List<String>> strings(List<List<Object>> rows) {
        List<List<String>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<String> r = new ArrayList<>();
            for (Object v : row) {
                r.add(v instanceof BigDecimal d ? d.stripTrailingZeros().toPlainString() : String.valueOf(v));
            }
            out.add(r);
        }
        return out;
    }

    private List<List<String>> rows(long serial) throws Exception {
        List<List<Object>> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql(serial, 0))) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    row.add(rs.getObject(i));
                }
                out.add(row);
            }
        }
        return strings(out);
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
                for (int x = 1; x <= customers; x++) {
                    ps.setInt(1, x);
                    ps.setString(2, "customer " + x);
                    ps.setString(3, regions[x % 4]);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            // five orders per customer, four of them paid
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?)")) {
                for (int x = 1; x <= 5 * customers; x++) {
                    ps.setInt(1, x);
                    ps.setInt(2, (x - 1) % customers + 1);
                    ps.setBigDecimal(3, BigDecimal.valueOf(10 + (x * 37L) % 500));
                    ps.setString(4, x > 4 * customers ? "refunded" : "paid");
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
