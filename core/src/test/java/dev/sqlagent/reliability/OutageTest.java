package dev.sqlagent.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentResult;
import dev.sqlagent.Dialect;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.cases.CaseDelivery;
import dev.sqlagent.cases.JdbcCaseSink;
import dev.sqlagent.execution.JdbcSqlExecutor;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.testing.TinyPool;
import dev.sqlagent.testkit.ScriptedLlm;
import dev.sqlagent.testing.DatabaseServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Load and outages with TCP proxies on loopback, one between the agent and PostgreSQL and one in front of
 * the case database. Nothing here asserts a duration except bounds that only detect a hang; the
 * latencies are measured and printed ({@code [reliability]} lines). Outages last a few seconds by
 * default; {@code -Dsqlagent.reliability.long=true} runs the 30 s case-store outage and 10 s
 * partition.
 */
@Timeout(600)
class OutageTest {

    private static final boolean LONG = Boolean.getBoolean("sqlagent.reliability.long");
    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(1);
    private static final int THREADS = 4;
    private static final Pattern HOST_PORT = Pattern.compile("//([^:/]+):(\\d+)/");

    private DatabaseServer pg;
    private TcpProxy queries;
    private TcpProxy cases;
    private String user;
    private String password;

    @BeforeEach
    void setUp() throws Exception {
        pg = DatabaseServer.postgres().require();
        pg.load("concert_singer");
        Matcher m = HOST_PORT.matcher(pg.url());
        assertThat(m.find()).as(pg.url()).isTrue();
        queries = new TcpProxy(m.group(1), Integer.parseInt(m.group(2)));
        cases = new TcpProxy(m.group(1), Integer.parseInt(m.group(2)));
        user = env("SQLAGENT_PG_USER", "postgres");
        password = env("SQLAGENT_PG_PASSWORD", "");
    }

    @AfterEach
    void tearDown() throws Exception {
        queries.close();
        cases.close();
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    private String via(TcpProxy proxy, String url) {
        return HOST_PORT.matcher(url).replaceFirst("//127.0.0.1:" + proxy.port() + "/");
    }

    private SqlAgent.Builder agent(DataSource queryDs) {
        ScriptedLlm llm = ScriptedLlm.create().fallback(r -> LlmResponse.of("SELECT COUNT(*) FROM singer"));
        return SqlAgent.builder().llm(llm).dataSource(queryDs).dialect(Dialect.POSTGRESQL).queryTimeout(QUERY_TIMEOUT)
                .policy(GuardPolicy.allowingTables("singer", "concert", "stadium", "singer_in_concert"));
    }

    /** Asks on {@value #THREADS} threads until the deadline (and at least minimum questions). */
    private static List<Asked> askUntil(SqlAgent agent, long deadlineNanos, int minimum) throws Exception {
        List<Asked> out = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> fs = new ArrayList<>();
            java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
            for (int t = 0; t < THREADS; t++) {
                fs.add(pool.submit(() -> {
                    while (System.nanoTime() < deadlineNanos || n.get() < minimum) {
                        int i = n.incrementAndGet();
                        long start = System.nanoTime();
                        AgentResult r = agent.ask("How many singers are there? (" + i + ")");
                        out.add(new Asked(r, System.nanoTime() - start));
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        return new ArrayList<>(out);
    }

    record Asked(AgentResult result, long nanos) {
    }

    static String stats(List<Asked> asked) {
        long[] ns = asked.stream().mapToLong(Asked::nanos).sorted().toArray();
        if (ns.length == 0) {
            return "none";
        }
        return String.format("n=%d p50=%.1f ms p99=%.1f ms max=%.1f ms", ns.length, ns[ns.length / 2] / 1e6,
                ns[Math.min(ns.length - 1, (int) Math.ceil(ns.length * 0.99) - 1)] / 1e6, ns[ns.length - 1] / 1e6);
    }

    static long maxMillis(List<Asked> asked) {
        return asked.stream().mapToLong(Asked::nanos).max().orElse(0) / 1_000_000;
    }

    @Test
    void aCaseStoreOutageNeitherSlowsAnAnswerNorLosesOrDuplicatesACase(@TempDir Path journal) throws Exception {
        String table = "pairs_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        DataSource caseDs = new TinyPool(new UrlDataSource(via(cases, pg.url()), user, password), 2);
        JdbcCaseSink sink = JdbcCaseSink.create(caseDs, table).timeout(Duration.ofSeconds(1));
        DataSource queryDs = new TinyPool(new UrlDataSource(via(queries, pg.spiderUrl("concert_singer")), user, password),
                THREADS);
        SqlAgent agent = agent(queryDs).caseSink(sink).caseJournal(journal)
                .caseRetryBudget(3, Duration.ofSeconds(2)).build();
        try {
            askUntil(agent, 0, 40); // warm up: schema, JIT, connections
            int phase = LONG ? 30 : 6;
            List<Asked> healthy = askUntil(agent, System.nanoTime() + phase * 1_000_000_000L, 0);

            long third = phase * 1_000_000_000L / 3;
            cases.mode(TcpProxy.Mode.NO_REPLIES); // the commit arrives, its acknowledgement does not
            List<Asked> outage = new ArrayList<>(askUntil(agent, System.nanoTime() + third, 0));
            cases.mode(TcpProxy.Mode.PARTITION); // silence both ways
            outage.addAll(askUntil(agent, System.nanoTime() + third, 0));
            cases.mode(TcpProxy.Mode.CUT); // refused
            outage.addAll(askUntil(agent, System.nanoTime() + third, 0));
            cases.mode(TcpProxy.Mode.FORWARD);
            long restored = System.nanoTime();

            Set<String> ids = new HashSet<>();
            for (List<Asked> l : List.of(healthy, outage)) {
                for (Asked a : l) {
                    assertThat(a.result().status()).as(a.result().toString()).isEqualTo(AgentResult.Status.ANSWERED);
                    ids.add(a.result().trace().questionId());
                }
            }
            CaseDelivery d = agent.caseDeliveries().get(0);
            long firstStored = -1;
            long allStored = -1;
            long hang = System.nanoTime() + 300_000_000_000L;
            int total = 40 + healthy.size() + outage.size();
            while (System.nanoTime() < hang) {
                if (firstStored < 0 && d.replayed() > 0) {
                    firstStored = System.nanoTime() - restored;
                }
                if (agent.awaitCases(Duration.ZERO) && !d.sinkDown() && count(caseDs, table) >= total) {
                    allStored = System.nanoTime() - restored;
                    break;
                }
                Thread.sleep(50);
            }
            Map<String, Integer> rows = rows(caseDs, table);
            System.out.println("[reliability] case-store outage " + phase + " s (NO_REPLIES, PARTITION, CUT a third each), "
                    + THREADS + " threads");
            System.out.println("[reliability]   healthy ask: " + stats(healthy));
            System.out.println("[reliability]   outage  ask: " + stats(outage));
            System.out.printf("[reliability]   recovery: first journalled case stored %.0f ms, all %d cases stored %.0f ms after the"
                    + " store came back; journalled %d, replayed %d, rejected %d, lost %d, rows %d, duplicates %d%n",
                    firstStored / 1e6, total, allStored / 1e6, d.journalled(), d.replayed(), d.rejected(), d.lost(),
                    rows.size(), rows.values().stream().filter(v -> v > 1).count());

            assertThat(allStored).as("every case stored after the outage").isPositive();
            assertThat(rows.keySet()).containsAll(ids).hasSize(total);
            assertThat(rows.values()).allMatch(v -> v == 1);
            assertThat(d.lost() + d.rejected() + d.discarded()).isZero();
            // a hang detector, not a latency claim: the asks never touch the case store
            assertThat(maxMillis(outage)).isLessThan(10_000);
        } finally {
            agent.close();
            try (Connection c = pg.adminDataSource().getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    @Test
    void duringAPartitionEveryAskEndsWithinItsBound() throws Exception {
        DataSource queryDs = new TinyPool(new UrlDataSource(via(queries, pg.spiderUrl("concert_singer")), user, password),
                THREADS);
        SqlAgent agent = agent(queryDs).build();
        Duration bound = JdbcSqlExecutor.builder(new UrlDataSource("jdbc:postgresql://x/y", null, null))
                .queryTimeout(QUERY_TIMEOUT).build().executionBound();
        try {
            askUntil(agent, 0, 20);
            int seconds = LONG ? 10 : 6;
            queries.mode(TcpProxy.Mode.PARTITION);
            List<Asked> during = askUntil(agent, System.nanoTime() + seconds * 1_000_000_000L, THREADS);
            queries.mode(TcpProxy.Mode.FORWARD);
            long healed = System.nanoTime();
            long recovered = -1;
            while (System.nanoTime() - healed < 120_000_000_000L) { // a hang detector
                if (agent.ask("How many singers are there?").status() == AgentResult.Status.ANSWERED) {
                    recovered = System.nanoTime() - healed;
                    break;
                }
            }
            List<Asked> after = askUntil(agent, 0, 20);

            Map<String, Integer> outcomes = new ConcurrentHashMap<>();
            for (Asked a : during) {
                String k = a.result().status() + (a.result() instanceof AgentResult.Failed
                        ? "/" + ((AgentResult.Failed) a.result()).errorCategory().map(Enum::name).orElse("-") : "");
                outcomes.merge(k, 1, Integer::sum);
            }
            long over = during.stream().filter(a -> a.nanos() > bound.toNanos()).count();
            System.out.println("[reliability] partition " + seconds + " s, query timeout " + QUERY_TIMEOUT.toSeconds()
                    + " s, bound per ask " + bound.toMillis() + " ms, " + THREADS + " threads");
            System.out.println("[reliability]   during: " + stats(during) + ", over the bound " + over + ", outcomes "
                    + outcomes);
            System.out.printf("[reliability]   after healing: first answer %.0f ms after; then %s, %d answered%n",
                    recovered / 1e6, stats(after), after.stream().filter(a -> a.result().status()
                            == AgentResult.Status.ANSWERED).count());

            for (Asked a : during) {
                assertThat(a.result().status()).isIn(AgentResult.Status.FAILED, AgentResult.Status.ANSWERED);
            }
            assertThat(recovered).as("answers again after healing").isPositive();
            // a hang detector: twice the designed bound; the measured maximum is printed above
            assertThat(maxMillis(during)).isLessThan(2 * bound.toMillis());
        } finally {
            agent.close();
        }
    }

    private static int count(DataSource ds, String table) {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getInt(1);
        } catch (java.sql.SQLException e) {
            return -1;
        }
    }

    private static Map<String, Integer> rows(DataSource ds, String table) throws Exception {
        Map<String, Integer> out = new java.util.HashMap<>();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, COUNT(*) FROM " + table + " GROUP BY id")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getInt(2));
            }
        }
        return out;
    }
}
