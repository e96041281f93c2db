package dev.sqlagent.bench;

import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.cases.CaseDelivery;
import dev.sqlagent.cases.CaseRecord;
import dev.sqlagent.cases.CaseSink;
import dev.sqlagent.cases.InMemoryCaseSink;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.llm.LlmResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
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
 * What the case journal costs the asking thread, per question, by durability:
 *
 * <ul>
 *   <li>{@code accept}: {@link CaseDelivery#accept} of one real case (taken from an answered question, its
 *       trace included) into a delivery whose sink keeps up: with {@code SPILL} the queue only, with
 *       {@code WRITE_AHEAD} one {@code write} to the journal as well (shared by the cases that arrive
 *       together), with {@code WRITE_AHEAD_SYNC} also an {@code fsync};</li>
 *   <li>{@code ask}: a whole question (a scripted model, H2 in memory, a case sink that keeps up) with the
 *       agent's journal configured at that durability, and {@code none}: no case sink at all.</li>
 * </ul>
 *
 * The journal is in a temporary folder ({@code java.io.tmpdir}; set it to the disk a host would use).
 * Run: {@code java -jar bench/target/benchmarks.jar CaseJournalBenchmark -t 1}, and with {@code -t 4} for
 * asking threads that share the writes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CaseJournalBenchmark {

    @Param({"none", "SPILL", "WRITE_AHEAD", "WRITE_AHEAD_SYNC"})
    String durability;

    private Path dir;
    private CaseDelivery delivery;
    private SqlAgent agent;
    private CaseRecord sample;
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong stored = new AtomicLong();

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        dir = Files.createTempDirectory("sqlagent-journal-bench");
        UrlDataSource ds = new UrlDataSource("jdbc:h2:mem:journalbench;DB_CLOSE_DELAY=-1", "sa", "");
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS employees (id INT PRIMARY KEY, name VARCHAR(40), dept VARCHAR(20))");
            s.execute("MERGE INTO employees KEY (id) VALUES (1, 'Ada', 'R&D'), (2, 'Grace', 'R&D'), (3, 'Linus', 'Ops')");
        }
        CaseSink keepsUp = r -> stored.incrementAndGet();
        SqlAgent.Builder b = SqlAgent.builder()
                .llm(request -> LlmResponse.of("SELECT name FROM employees WHERE id = " + (request.text().length() % 3 + 1)))
                .dataSource(ds).policy(GuardPolicy.allowingTables("employees"));
        if (!durability.equals("none")) {
            b.caseSink(keepsUp).caseJournal(dir.resolve("agent"))
                    .caseDurability(CaseDelivery.Durability.valueOf(durability), Duration.ZERO);
        }
        agent = b.build();

        InMemoryCaseSink cases = new InMemoryCaseSink();
        SqlAgent once = SqlAgent.builder().llm(request -> LlmResponse.of("SELECT name FROM employees WHERE id = 2"))
                .dataSource(ds).policy(GuardPolicy.allowingTables("employees")).caseSink(cases).build();
        once.ask("Who is employee 2?");
        once.close();
        sample = cases.cases().get(0);
        CaseDelivery.Builder db = CaseDelivery.builder(keepsUp);
        if (!durability.equals("none")) {
            db.journal(dir.resolve("delivery").resolve("cases.jsonl"))
                    .durability(CaseDelivery.Durability.valueOf(durability), Duration.ZERO);
        }
        delivery = db.build();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        agent.close();
        delivery.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Benchmark
    public Object accept() {
        CaseRecord c = sample;
        CaseRecord copy = new CaseRecord("bench-" + ids.incrementAndGet(), c.question(), c.table(), c.category(),
                c.sql(), c.status(), c.outcome(), c.error(), c.errorCategory(), c.errorTags(), c.verified(),
                c.judgeScore(), c.corrections(), c.attempts(), c.tablesRead(), c.modelNames(), c.createdAt(),
                c.traceJson());
        delivery.accept(copy);
        return copy;
    }

    @Benchmark
    public AgentResult ask() {
        AgentResult r = agent.ask("Who is employee " + ids.incrementAndGet() % 3 + "?");
        if (r.status() != AgentResult.Status.ANSWERED) {
            throw new IllegalStateException("not answered: " + r);
        }
        return r;
    }
}
