package dev.sqlagent.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.cases.JdbcCaseSink;
import dev.sqlagent.cases.JdbcFixStore;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.JdbcSqlExecutor;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.testing.DatabaseServer;
import dev.sqlagent.testing.TinyPool;
import dev.sqlagent.testkit.ScriptedLlm;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A network partition between the library and a real PostgreSQL or MariaDB server, made by TCP proxies of
 * our own on loopback ({@link TcpProxy}, {@link TcpProxy.Mode#PARTITION}: connections stay open, no byte
 * passes either way), with query timeouts of 1 s and 5 s. Three agents ask at once while it lasts:
 *
 * <ul>
 *   <li>one with the engine check (on by default), whose database is partitioned: its first read of a
 *       question is the engine check's, on a connection that was open when the partition began (the
 *       pools here hand idle connections out unchecked);</li>
 *   <li>one without the engine check on the same partitioned database: the execution's reads;</li>
 *   <li>one whose database answers but whose case sink and fix store are partitioned: each question
 *       needs a correction, so it looks a fix up in the partitioned store.</li>
 * </ul>
 *
 * Asks start until the partition has lasted a second longer than {@code executionBound()}, and every one
 * must return within the bound plus a generous margin (half the bound and two seconds, for a loaded
 * machine); the partition lasts until every one of them has returned (or four bounds have passed, which
 * fails the test), so a hang cannot hide behind a healed network.
 * {@code -Dsqlagent.reliability.partitionSeconds=20} keeps asking into a partition of at least 20 s. After healing, every agent answers again and every case of a question that returned is
 * stored exactly once. Measured times are printed ({@code [partition]} lines).
 */
@Timeout(600)
class PartitionTest {

    private static final Pattern HOST_PORT = Pattern.compile("//([^:/]+):(\\d+)/");
    private static final Pattern CONNECT_TIMEOUT = Pattern.compile("[?&]connectTimeout=\\d+");
    /** {@code -Dsqlagent.reliability.partitionSeconds=N}: keep asking into the partition for at least N s. */
    private static final long PARTITION_SECONDS = Long.getLong("sqlagent.reliability.partitionSeconds", 0);
    private static final int THREADS = 3;
    private static final int ASKS_PER_THREAD = 2;
    private static final String ANSWER = "SELECT COUNT(*) FROM singer";
    private static final GuardPolicy POLICY = GuardPolicy.allowingTables("singer", "concert", "stadium",
            "singer_in_concert");

    static Stream<Arguments> partitions() {
        return Stream.of(Arguments.of(DatabaseServer.Kind.POSTGRESQL, 1), Arguments.of(DatabaseServer.Kind.POSTGRESQL, 5),
                Arguments.of(DatabaseServer.Kind.MARIADB, 1), Arguments.of(DatabaseServer.Kind.MARIADB, 5));
    }

    record Asked(String agent, AgentResult result, long nanos) {
    }

    @ParameterizedTest(name = "{0}, query timeout {1} s")
    @MethodSource("partitions")
    void everyAskEndsWithinTheExecutionBoundWhileTheDatabaseIsPartitioned(DatabaseServer.Kind kind, int seconds,
            @TempDir Path journals) throws Exception {
        DatabaseServer server = kind == DatabaseServer.Kind.POSTGRESQL ? DatabaseServer.postgres()
                : DatabaseServer.mariadb();
        server.require();
        server.load("concert_singer");
        Matcher m = HOST_PORT.matcher(server.url());
        assertThat(m.find()).as(server.url()).isTrue();
        String host = m.group(1);
        int port = Integer.parseInt(m.group(2));
        String user = env(kind == DatabaseServer.Kind.POSTGRESQL ? "SQLAGENT_PG_USER" : "SQLAGENT_MARIADB_USER",
                kind == DatabaseServer.Kind.POSTGRESQL ? "postgres" : "root");
        String password = env(kind == DatabaseServer.Kind.POSTGRESQL ? "SQLAGENT_PG_PASSWORD" : "SQLAGENT_MARIADB_PASSWORD",
                "");
        Duration queryTimeout = Duration.ofSeconds(seconds);
        // the library's own documented bound for one ask on a database that stops answering
        Duration bound = JdbcSqlExecutor.builder(new UrlDataSource("jdbc:postgresql://x/y", null, null))
                .queryTimeout(queryTimeout).build().executionBound();
        Duration allowed = bound.plus(bound.dividedBy(2)).plusSeconds(2);
        String table = "bounded_cases_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        String fixes = "bounded_fixes_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

        List<SqlAgent> agents = new ArrayList<>();
        try (TcpProxy partitioned = new TcpProxy(host, port); TcpProxy healthy = new TcpProxy(host, port);
                TcpProxy stores = new TcpProxy(host, port)) {
            // the URL's own connectTimeout would win over the login timeout the executor sets (Q)
            String queries = CONNECT_TIMEOUT.matcher(server.spiderUrl("concert_singer")).replaceAll("");
            String storeUrl = CONNECT_TIMEOUT.matcher(server.url()).replaceAll("");
            JdbcCaseSink sink = JdbcCaseSink.create(
                    new TinyPool(new UrlDataSource(via(stores, storeUrl), user, password), 2, false), table)
                    .timeout(Duration.ofSeconds(1));
            JdbcFixStore fixStore = JdbcFixStore.builder(
                    new TinyPool(new UrlDataSource(via(stores, storeUrl), user, password), 2, false)).table(fixes).build();

            SqlAgent checked = agent(via(partitioned, queries), user, password, queryTimeout, sink, journals.resolve("a"))
                    .build();
            SqlAgent unchecked = agent(via(partitioned, queries), user, password, queryTimeout, sink,
                    journals.resolve("b")).engineCheck(false).build();
            SqlAgent correcting = agent(via(healthy, queries), user, password, queryTimeout, sink, journals.resolve("c"))
                    .llm(correctingModel()).fixStore(fixStore).build();
            agents.addAll(List.of(checked, unchecked, correcting));
            Map<String, SqlAgent> byName = Map.of("engine check", checked, "execution", unchecked,
                    "fix store", correcting);

            List<String> returned = Collections.synchronizedList(new ArrayList<>());
            // warm up: schemas read, pools hold open connections, the fix store and the case table exist
            for (Map.Entry<String, SqlAgent> e : byName.entrySet()) {
                for (Asked a : askAll(e.getKey(), e.getValue(), System.nanoTime(), Duration.ofMinutes(2))) {
                    assertThat(a.result().status()).as(e.getKey() + " " + a.result()).isEqualTo(AgentResult.Status.ANSWERED);
                    returned.add(a.result().trace().questionId());
                }
            }

            partitioned.mode(TcpProxy.Mode.PARTITION);
            stores.mode(TcpProxy.Mode.PARTITION);
            long start = System.nanoTime();
            // asks start until the partition has lasted longer than the bound; it ends when all have returned
            long askUntil = start + Math.max(bound.plusSeconds(1).toNanos(), TimeUnit.SECONDS.toNanos(PARTITION_SECONDS));
            List<Asked> during = new ArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(byName.size());
            try {
                List<Future<List<Asked>>> fs = new ArrayList<>();
                for (Map.Entry<String, SqlAgent> e : byName.entrySet()) {
                    fs.add(pool.submit(() -> askAll(e.getKey(), e.getValue(), askUntil,
                            bound.multipliedBy(4).plusSeconds(PARTITION_SECONDS))));
                }
                for (Future<List<Asked>> f : fs) {
                    during.addAll(f.get());
                }
            } finally {
                pool.shutdownNow();
            }
            long held = System.nanoTime() - start;
            partitioned.mode(TcpProxy.Mode.FORWARD);
            stores.mode(TcpProxy.Mode.FORWARD);
            during.forEach(a -> returned.add(a.result().trace().questionId()));

            Map<String, Long> maxMillis = new HashMap<>();
            Map<String, Map<String, Integer>> outcomes = new HashMap<>();
            for (Asked a : during) {
                maxMillis.merge(a.agent(), a.nanos() / 1_000_000, Math::max);
                outcomes.computeIfAbsent(a.agent(), k -> new HashMap<>()).merge(outcome(a.result()), 1, Integer::sum);
            }
            System.out.printf("[partition] %s, query timeout %d s: bound %d ms, allowed %d ms, partition held %d ms%n",
                    kind, seconds, bound.toMillis(), allowed.toMillis(), held / 1_000_000);
            for (String name : byName.keySet()) {
                System.out.printf("[partition]   %-12s asks %d, max %d ms, outcomes %s%n", name,
                        outcomes.getOrDefault(name, Map.of()).values().stream().mapToInt(Integer::intValue).sum(),
                        maxMillis.getOrDefault(name, 0L), outcomes.get(name));
            }

            assertThat(during).hasSizeGreaterThanOrEqualTo(byName.size() * THREADS * ASKS_PER_THREAD);
            assertThat(Duration.ofNanos(held)).isGreaterThan(bound);
            for (Asked a : during) {
                assertThat(Duration.ofNanos(a.nanos())).as(a.agent() + ": " + a.result()).isLessThanOrEqualTo(allowed);
                if (a.agent().equals("fix store")) {
                    assertThat(a.result().status()).as(a.result().toString()).isEqualTo(AgentResult.Status.ANSWERED);
                } else {
                    assertThat(a.result()).as(a.result().toString()).isInstanceOf(AgentResult.Failed.class);
                    assertThat(((AgentResult.Failed) a.result()).errorCategory()).as(a.result().toString())
                            .hasValueSatisfying(c -> assertThat(c.environmental()).isTrue());
                    assertThat(a.result().trace().correctionCount()).isZero();
                }
            }
            assertThat(correcting.metrics().fixStoreFailures()).as("the fix store was asked during the partition")
                    .isPositive();

            // healed: every agent answers again, and every case of a question that returned is stored once
            for (Map.Entry<String, SqlAgent> e : byName.entrySet()) {
                assertThat(answersAgain(e.getValue())).as(e.getKey() + " answers after healing").isTrue();
            }
            for (SqlAgent a : agents) {
                assertThat(a.awaitCases(Duration.ofMinutes(2))).isTrue();
            }
            Map<String, Integer> rows = Map.of();
            long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (System.nanoTime() < until) {
                rows = rows(server.adminDataSource(), table);
                if (rows.keySet().containsAll(returned)) {
                    break;
                }
                Thread.sleep(100); // polls the store for the replay; the deadline only detects a hang
            }
            assertThat(rows.keySet()).containsAll(returned);
            assertThat(rows.values()).allMatch(n -> n == 1);
        } finally {
            for (SqlAgent a : agents) {
                a.close();
            }
            try (Connection c = server.adminDataSource().getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + table);
                s.execute("DROP TABLE IF EXISTS " + fixes);
            }
        }
    }

    private static SqlAgent.Builder agent(String url, String user, String password, Duration queryTimeout,
            JdbcCaseSink sink, Path journal) {
        ScriptedLlm llm = ScriptedLlm.create().fallback(r -> LlmResponse.of(ANSWER));
        return SqlAgent.builder().llm(llm).policy(POLICY).queryTimeout(queryTimeout)
                .dataSource(new TinyPool(new UrlDataSource(url, user, password), THREADS, false))
                .caseSink(sink).caseJournal(journal).caseRetryBudget(2, Duration.ofSeconds(1))
                .caseRetryBackoff(Duration.ofMillis(50), Duration.ofMillis(200));
    }

    /** Writes SQL the guard cannot parse (a correctable error), and the right SQL when asked to correct it. */
    private static ScriptedLlm correctingModel() {
        return ScriptedLlm.create().fallback(r -> LlmResponse.of(r.text().contains("\"sql\"")
                ? "{\"reason\": \"completed the statement\", \"sql\": \"" + ANSWER + "\"}"
                : "SELECT COUNT(*) FROM singer WHERE"));
    }

    /**
     * {@value #THREADS} threads asking, at least {@value #ASKS_PER_THREAD} asks each and on until
     * {@code askUntil} (a {@link System#nanoTime()}); a hang past the cap fails.
     */
    private static List<Asked> askAll(String name, SqlAgent agent, long askUntil, Duration cap) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<List<Asked>>> fs = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                fs.add(pool.submit(() -> {
                    List<Asked> out = new ArrayList<>();
                    for (int i = 0; i < ASKS_PER_THREAD || System.nanoTime() - askUntil < 0; i++) {
                        long s = System.nanoTime();
                        AgentResult r = agent.ask("How many singers are there?");
                        out.add(new Asked(name, r, System.nanoTime() - s));
                    }
                    return out;
                }));
            }
            List<Asked> all = new ArrayList<>();
            long until = System.nanoTime() + cap.toNanos();
            for (Future<List<Asked>> f : fs) {
                all.addAll(f.get(Math.max(1, until - System.nanoTime()), TimeUnit.NANOSECONDS));
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    private static boolean answersAgain(SqlAgent agent) {
        long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < until) {
            if (agent.ask("How many singers are there?").status() == AgentResult.Status.ANSWERED) {
                return true;
            }
        }
        return false;
    }

    private static String outcome(AgentResult r) {
        if (r instanceof AgentResult.Failed f) {
            return "FAILED/" + f.errorCategory().map(ErrorCategory::name).orElse(f.kind().name());
        }
        return r.status().name();
    }

    private static String via(TcpProxy proxy, String url) {
        return HOST_PORT.matcher(url).replaceFirst("//127.0.0.1:" + proxy.port() + "/");
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    private static Map<String, Integer> rows(DataSource ds, String table) {
        Map<String, Integer> out = new HashMap<>();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, COUNT(*) FROM " + table + " GROUP BY id")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getInt(2));
            }
        } catch (java.sql.SQLException e) {
            return Map.of(); // the table may not exist yet
        }
        return out;
    }
}
