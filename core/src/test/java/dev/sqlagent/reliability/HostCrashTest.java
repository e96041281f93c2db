package dev.sqlagent.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.cases.CaseRecord;
import dev.sqlagent.cases.CaseSink;
import dev.sqlagent.cases.JdbcCaseSink;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.testing.DatabaseServer;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host killed for real ({@code kill -9} of a child JVM: no finally block, no close, no flush runs) while
 * it answers under load with its case store down, restarted with the store back and killed again in the
 * middle of the journal's replay, and restarted once more: every case of a question whose {@code ask}
 * returned (the child prints the question's id after {@code ask} returns, and the test reads only what was
 * printed) is stored exactly once, and no case is stored twice. The store is PostgreSQL behind a TCP proxy
 * of the test's ({@link TcpProxy}, refusing connections while the store is down); the agent writes every
 * case ahead to its journal ({@code caseJournal}, the default durability). The second kill is certain to
 * fall inside the replay: that child holds the replay after its first stored batch until it is killed.
 * {@code -Dsqlagent.reliability.crashQuestions=N} asks more before the first kill (default
 * {@value #DEFAULT_QUESTIONS}).
 */
@Timeout(600)
class HostCrashTest {

    static final int DEFAULT_QUESTIONS = 2000;
    private static final Pattern HOST_PORT = Pattern.compile("//([^:/]+):(\\d+)/");
    private static final Pattern CONNECT_TIMEOUT = Pattern.compile("[?&]connectTimeout=\\d+");
    private static final int THREADS = 8;

    /**
     * The child host. Modes: {@code load} asks on {@value #THREADS} threads until killed, printing
     * {@code ASKED <id>} after each {@code ask} returns; {@code hold} replays the journal and holds the
     * replay after its first stored batch, printing {@code STORED <n>}; {@code replay} replays the journal
     * to its end, prints {@code REPLAYED} and exits.
     *
     * @param args mode, journal folder, store URL, user, password, table
     * @throws Exception on a failure, which ends the child with a stack trace
     */
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path journal = Path.of(args[1]);
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
                StandardCharsets.UTF_8);
        JdbcCaseSink store = JdbcCaseSink.create(new UrlDataSource(args[2], args[3], args[4]), args[5])
                .timeout(Duration.ofSeconds(1));
        CountDownLatch never = new CountDownLatch(1);
        CaseSink sink = new CaseSink() {
            @Override
            public void accept(CaseRecord r) throws Exception {
                store.accept(r);
            }

            @Override
            public void acceptAll(List<CaseRecord> records) throws Exception {
                store.acceptAll(records);
                if (mode.equals("hold")) {
                    out.println("STORED " + records.size());
                    never.await(); // killed here, in the middle of the replay
                }
            }
        };
        CompanyDatabase company = CompanyDatabase.create();
        ScriptedLlm llm = ScriptedLlm.create().fallback(r -> LlmResponse.of("SELECT COUNT(*) FROM orders"));
        SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(company.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).caseSink(sink)
                .caseJournal(journal).caseRetryBudget(1, Duration.ZERO)
                .caseRetryBackoff(Duration.ofMillis(50), Duration.ofMillis(200)).build();
        switch (mode) {
            case "load" -> {
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    Thread th = new Thread(() -> {
                        for (int i = 0; ; i++) {
                            AgentResult r = agent.ask("How many orders were placed? (" + i + ")");
                            out.println("ASKED " + r.trace().questionId());
                        }
                    });
                    th.start();
                    threads.add(th);
                }
                for (Thread th : threads) {
                    th.join();
                }
            }
            case "hold" -> never.await();
            default -> {
                while (journalFiles(journal) > 0 || !agent.awaitCases(Duration.ZERO)) {
                    Thread.sleep(50);
                }
                out.println("REPLAYED");
                agent.close();
                System.exit(0);
            }
        }
    }

    private static long journalFiles(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jsonl") && !n.contains("rejected"))
                    .count();
        }
    }

    /** A running child and the lines it printed. */
    private static final class Child {
        final Process process;
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        Child(Process process) {
            this.process = process;
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        lines.add(line);
                    }
                } catch (java.io.IOException e) {
                    // the child was killed
                }
                lines.add("EOF");
            }, "child-reader");
            reader.setDaemon(true);
            reader.start();
        }

        /** @return the next line, waiting at most the hang detector's time; "EOF" when the child ended */
        String next() throws InterruptedException {
            String line = lines.poll(240, TimeUnit.SECONDS);
            assertThat(line).as("the child printed nothing for 240 s").isNotNull();
            return line;
        }

        void kill() throws InterruptedException {
            process.destroyForcibly(); // SIGKILL
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static Child start(String mode, Path dir, String url, String user, String password, String table)
            throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), HostCrashTest.class.getName(), mode,
                dir.resolve("journal").toString(), url, user, password, table)
                .redirectError(dir.resolve("child-" + mode + ".log").toFile()).start();
        return new Child(p);
    }

    @Test
    void everyCaseOfAReturnedQuestionIsStoredOnceAcrossTwoKillsOfTheHost(@TempDir Path dir) throws Exception {
        DatabaseServer pg = DatabaseServer.postgres().require();
        Matcher m = HOST_PORT.matcher(pg.url());
        assertThat(m.find()).as(pg.url()).isTrue();
        String user = env("SQLAGENT_PG_USER", "postgres");
        String password = env("SQLAGENT_PG_PASSWORD", "");
        String table = "bounded_crash_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        int questions = Integer.getInteger("sqlagent.reliability.crashQuestions", DEFAULT_QUESTIONS);
        try (TcpProxy proxy = new TcpProxy(m.group(1), Integer.parseInt(m.group(2)))) {
            String url = HOST_PORT.matcher(CONNECT_TIMEOUT.matcher(pg.url()).replaceAll(""))
                    .replaceFirst("//127.0.0.1:" + proxy.port() + "/");

            // 1. under load, the store down: killed after this many questions returned
            proxy.mode(TcpProxy.Mode.CUT);
            Set<String> returned = ConcurrentHashMap.newKeySet();
            Child load = start("load", dir, url, user, password, table);
            try {
                while (returned.size() < questions) {
                    String line = load.next();
                    assertThat(line).as(log(dir, "load")).isNotEqualTo("EOF");
                    if (line.startsWith("ASKED ")) {
                        returned.add(line.substring("ASKED ".length()));
                    }
                }
            } finally {
                load.kill();
            }
            // whatever it printed before it died returned too
            for (String line; (line = load.lines.poll()) != null; ) {
                if (line.startsWith("ASKED ")) {
                    returned.add(line.substring("ASKED ".length()));
                }
            }

            // 2. the store back: killed in the middle of the replay, after its first batch was stored
            proxy.mode(TcpProxy.Mode.FORWARD);
            Child hold = start("hold", dir, url, user, password, table);
            try {
                String line = hold.next();
                assertThat(line).as(log(dir, "hold")).startsWith("STORED ");
            } finally {
                hold.kill();
            }
            int afterSecondKill = rows(pg, table).size();

            // 3. restarted: the replay runs to its end
            Child replay = start("replay", dir, url, user, password, table);
            try {
                String line = replay.next();
                assertThat(line).as(log(dir, "replay")).isEqualTo("REPLAYED");
                assertThat(replay.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            } finally {
                replay.kill();
            }

            Map<String, Integer> rows = rows(pg, table);
            long duplicates = rows.values().stream().filter(n -> n > 1).count();
            System.out.printf("[reliability] host crash: %d questions returned before kill -9 (store down); %d cases"
                    + " stored before the second kill -9 (mid-replay); %d rows after the last replay, %d missing,"
                    + " %d duplicated%n", returned.size(), afterSecondKill, rows.size(),
                    returned.stream().filter(id -> !rows.containsKey(id)).count(), duplicates);
            assertThat(afterSecondKill).as("the second kill came in the middle of the replay").isPositive()
                    .isLessThan(returned.size());
            assertThat(rows.keySet()).containsAll(returned);
            assertThat(duplicates).isZero();
        } finally {
            try (Connection c = pg.adminDataSource().getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    private static String log(Path dir, String mode) {
        try {
            String text = Files.readString(dir.resolve("child-" + mode + ".log"));
            return text.length() > 4000 ? text.substring(text.length() - 4000) : text;
        } catch (java.io.IOException e) {
            return "no log";
        }
    }

    private static Map<String, Integer> rows(DatabaseServer pg, String table) {
        Map<String, Integer> out = new HashMap<>();
        try (Connection c = pg.adminDataSource().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, COUNT(*) FROM " + table + " GROUP BY id")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getInt(2));
            }
        } catch (SQLException e) {
            return Map.of(); // no table yet: nothing stored
        }
        return out;
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
