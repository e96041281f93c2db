package dev.sqlagent.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.SqlAgent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The evaluator killed for real ({@code kill -9} of a child JVM, so no finally block and no close runs)
 * after four questions, with a torn fifth line left in its results as a kill in the middle of a write
 * leaves it, then resumed: every question ends up exactly once, and only the unfinished ones are asked.
 */
class EvaluatorKillTest {

    /** The child: evaluates, and hangs after the fourth record until it is killed. */
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        SqliteFixture db = new SqliteFixture(Path.of(args[1]));
        List<EvalQuestion> questions = SqliteFixture.questions();
        List<PredictionFile> files = Replays.files();
        AtomicInteger written = new AtomicInteger();
        EvaluationRunner.builder().output(out).goldExecutor(db::goldExecutor).concurrency(1).checkpointEvery(1)
                .agentFactory(id -> db.agent(id, questions, files)).afterEachRecord(r -> {
                    if (written.incrementAndGet() == 4) {
                        try {
                            Files.writeString(out.resolve("child-ready"), "4");
                            Thread.sleep(Long.MAX_VALUE);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }).build().run(questions);
    }

    @Test
    @Timeout(300)
    void killedForRealWithATornLastLineResumesEachQuestionOnce(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Path childDb = Files.createDirectories(dir.resolve("child-db"));
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), EvaluatorKillTest.class.getName(), out.toString(),
                childDb.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
        try {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
            while (!Files.exists(out.resolve("child-ready")) && child.isAlive() && System.nanoTime() < until) {
                Thread.sleep(50);
            }
            assertThat(out.resolve("child-ready")).as(Files.exists(dir.resolve("child.log"))
                    ? Files.readString(dir.resolve("child.log")) : "no log").exists();
        } finally {
            child.destroyForcibly(); // SIGKILL
            child.waitFor(60, TimeUnit.SECONDS);
        }
        Path results = out.resolve(EvaluationRunner.RESULTS);
        List<String> before = Files.readAllLines(results, StandardCharsets.UTF_8);
        assertThat(before).hasSize(4);
        Files.writeString(results, "{\"id\": \"q", StandardOpenOption.APPEND); // the torn fifth line

        SqliteFixture db = new SqliteFixture(Files.createDirectories(dir.resolve("db")));
        List<EvalQuestion> questions = SqliteFixture.questions();
        List<PredictionFile> files = Replays.files();
        AtomicInteger asks = new AtomicInteger();
        EvalSummary s = EvaluationRunner.builder().output(out).goldExecutor(db::goldExecutor).resume(true)
                .agentFactory(id -> {
                    SqlAgent a = db.agent(id, questions, files);
                    return a.toBuilder().listener(t -> {
                        if (t.from() == dev.sqlagent.trace.Stage.RECEIVED) {
                            asks.incrementAndGet();
                        }
                    }).build();
                }).build().run(questions);

        assertThat(asks).hasValue(6);
        assertThat(s.asMap()).containsEntry("resumed", 4L);
        List<String> ids = new ArrayList<>();
        for (String line : Files.readAllLines(results, StandardCharsets.UTF_8)) {
            ids.add(Json.text(Json.parseObject(line).get("id")));
        }
        List<String> all = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            all.add("q" + i);
        }
        assertThat(ids).containsExactlyInAnyOrderElementsOf(all);
    }
}
