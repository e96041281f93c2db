package dev.sqlagent.bench;

import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
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
 * 200 questions asked at once with {@code askAsync}, each with a model that answers in 200 ms, on an H2
 * database in memory: the time until all 200 are answered. {@code owned} is the agent's default executor
 * (virtual threads on JDK 21+, else 48 platform threads); {@code commonPool} is the old default, the
 * common fork-join pool, for comparison (on JDK 25 and two cores it runs the questions nearly one after
 * another, so it is slow: run it with few iterations).
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar AskAsyncBenchmark}, and once more with the newest
 * JDK: {@code /usr/lib/jvm/temurin-25-jdk-amd64/bin/java -jar bench/target/benchmarks.jar AskAsyncBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(1)
public class AskAsyncBenchmark {

    /** Questions asked at once. */
    static final int QUESTIONS = 200;
    /** How long the model takes per call. */
    static final long MODEL_MILLIS = 200;

    @Param({"owned", "commonPool"})
    String executor;

    private SqlAgent agent;
    private int round;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        UrlDataSource ds = new UrlDataSource("jdbc:h2:mem:askasync;DB_CLOSE_DELAY=-1", "sa", "");
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS employees (id INT PRIMARY KEY, name VARCHAR(40), dept VARCHAR(20))");
            s.execute("MERGE INTO employees KEY (id) VALUES (1, 'Ada', 'R&D'), (2, 'Grace', 'R&D'), (3, 'Linus', 'Ops')");
        }
        LlmClient slow = new LlmClient() {
            @Override
            public LlmResponse chat(LlmRequest request) {
                try {
                    Thread.sleep(MODEL_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new LlmException(LlmException.Kind.OTHER, "interrupted");
                }
                // the literal varies with the question, so no cache answers for the agent
                String text = request.text();
                int n = text.length() % 3 + 1;
                return LlmResponse.of("SELECT name FROM employees WHERE id = " + n);
            }
        };
        SqlAgent.Builder b = SqlAgent.builder().llm(slow).dataSource(ds)
                .policy(GuardPolicy.allowingTables("employees"));
        if (executor.equals("commonPool")) {
            b.asyncExecutor(ForkJoinPool.commonPool());
        }
        agent = b.build();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        agent.close();
    }

    @Benchmark
    public int twoHundredAtOnce() {
        round++;
        List<CompletableFuture<AgentResult>> futures = new ArrayList<>(QUESTIONS);
        for (int i = 0; i < QUESTIONS; i++) {
            futures.add(agent.askAsync("Who is employee " + round + "-" + i + "?"));
        }
        int answered = 0;
        for (CompletableFuture<AgentResult> f : futures) {
            if (f.join().status() == AgentResult.Status.ANSWERED) {
                answered++;
            }
        }
        if (answered != QUESTIONS) {
            throw new IllegalStateException(answered + " of " + QUESTIONS + " answered");
        }
        return answered;
    }
}
