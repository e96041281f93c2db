package dev.sqlagent.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.SqlAgent;
import dev.sqlagent.verify.Verifiers;
import dev.sqlagent.verify.ResultVerifier;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvaluationRunnerTest {

    @TempDir
    Path dir;

    private SqliteFixture db;
    private Path out;
    private final List<EvalQuestion> questions = SqliteFixture.questions();
    private final List<PredictionFile> files = Replays.files();
    private final AtomicInteger asks = new AtomicInteger();
    private final AtomicInteger agentsBuilt = new AtomicInteger();

    @BeforeEach
    void setUp() throws Exception {
        db = new SqliteFixture(dir);
        out = dir.resolve("out");
    }

    private EvaluationRunner.Builder runner(boolean verifiers) {
        return EvaluationRunner.builder().output(out).goldExecutor(db::goldExecutor).agentFactory(id -> {
            agentsBuilt.incrementAndGet();
            SqlAgent.Builder b = db.agent(id, questions, files).toBuilder().listener(t -> {
                if (t.from() == dev.sqlagent.trace.Stage.RECEIVED) {
                    asks.incrementAndGet();
                }
            });
            if (verifiers) {
                Verifiers.standard().forEach(b::verifier);
            }
            return b.build();
        });
    }

    private List<String> lines(String file) throws IOException {
        Path p = out.resolve(file);
        return Files.exists(p) ? Files.readAllLines(p, StandardCharsets.UTF_8) : List.of();
    }

    private List<String> ids(String... files) throws IOException {
        List<String> ids = new ArrayList<>();
        for (String f : files) {
            for (String line : lines(f)) {
                ids.add(Json.text(Json.parseObject(line).get("id")));
            }
        }
        return ids;
    }

    private static List<String> allIds() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ids.add("q" + i);
        }
        return ids;
    }

    @Test
    void aFullRunWritesOneResultAndOneTrajectoryPerQuestionAndTheSummary() throws Exception {
        EvalSummary s = runner(false).build().run(questions);

        assertThat(ids(EvaluationRunner.RESULTS)).containsExactlyElementsOf(allIds());
        assertThat(ids(EvaluationRunner.SUCCESS, EvaluationRunner.FAILURE)).containsExactlyInAnyOrderElementsOf(allIds());
        assertThat(s.executionAccuracy()).isEqualTo(0.7);
        assertThat(s.asMap()).containsEntry("questions", 10L).containsEntry("failed", 1L)
                .containsEntry("corrections", 1L).containsEntry("complete", true)
                .containsEntry("by_failure_kind", Map.of("CORRECTION_UNCHANGED", 1L));
        assertThat(Files.readString(out.resolve(EvaluationRunner.SUMMARY))).contains("\"execution_accuracy\":0.7");
        // each correction is counted by what it corrected, read from the question's trace
        @SuppressWarnings("unchecked")
        Map<String, Object> byCorrection = (Map<String, Object>) s.asMap().get("corrections_by_category");
        assertThat(byCorrection).hasSize(1).doesNotContainKey("(unknown)").containsValue(1L);
        assertThat(agentsBuilt).hasValue(2);
    }

    @Test
    void verifiersBreakTiesTowardsTheCandidateThatUsesTheQuestionsNumbers() throws Exception {
        EvalSummary s = runner(true).build().run(questions);

        assertThat(s.executionAccuracy()).isEqualTo(0.9);
        // the verifiers' findings are one of the chooser's signals: they decide the two ties
        assertThat(s.asMap().get("chosen_rules")).isEqualTo(Map.of("unanimous", 6L, "majority", 1L,
                "signals (findings)", 2L));
        assertThat(s.asMap()).containsKey("execution_accuracy_positional").containsKey("by_chosen_rule")
                .containsKey("by_half");
        @SuppressWarnings("unchecked")
        Map<String, Object> rule = (Map<String, Object>) ((Map<String, Object>) s.asMap().get("by_chosen_rule"))
                .get("signals (findings)");
        assertThat(rule).containsEntry("questions", 2L);
    }

    @Test
    void trajectoriesCarryEveryAttemptWithItsExecutionAndJudgement() throws Exception {
        runner(false).build().run(questions);

        Map<String, Object> t = null;
        for (String line : lines(EvaluationRunner.FAILURE)) {
            Map<String, Object> m = Json.parseObject(line);
            if ("q4".equals(m.get("id"))) {
                t = m;
            }
        }
        assertThat(t).isNotNull().containsEntry("question", "Singers older than 40?").containsEntry("category", "music");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> attempts = (List<Map<String, Object>>) t.get("attempts");
        assertThat(attempts).hasSize(3);
        assertThat(attempts.get(0)).containsEntry("round", 0L).containsEntry("sql", "SELECT name FROM singer WHERE age > 50");
        assertThat(attempts.get(0).get("judge").toString()).contains("chosen=true", "rule=order", "matches_gold=false");
        assertThat(attempts.get(1).get("judge").toString()).contains("chosen=false", "matches_gold=true");
        assertThat(attempts.get(1).get("exec_result").toString()).contains("ok=true", "rows=2");
    }

    /**
     * The hook stops the run at the fourth record while the other worker has finished a question and waits
     * for the writer's lock: the worst interleaving for "nothing is written after the stop", made certain
     * instead of left to the scheduler. Whatever was written must be whole records, a resumed run must ask
     * exactly the questions not written, and the results must end with every question exactly once.
     */
    @Test
    void aRunStoppedAfterKQuestionsResumesWithoutRedoingOrLosingAny() throws Exception {
        AtomicInteger written = new AtomicInteger();
        AtomicBoolean otherWorkerWaited = new AtomicBoolean();
        EvaluationRunner crashing = runner(false).concurrency(2).checkpointEvery(3).afterEachRecord(r -> {
            if (written.incrementAndGet() == 4) {
                otherWorkerWaited.set(awaitAWorkerWaitingToWrite());
                throw new IllegalStateException("simulated kill");
            }
        }).build();

        assertThatThrownBy(() -> crashing.run(questions)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("simulated kill");
        assertThat(otherWorkerWaited).as("the other worker reached the writer while the run stopped").isTrue();
        List<String> first = ids(EvaluationRunner.RESULTS);
        assertThat(first).as("every line a whole record, nothing written after the stop").hasSize(4)
                .doesNotHaveDuplicates().isSubsetOf(allIds());
        assertThat(ids(EvaluationRunner.SUCCESS, EvaluationRunner.FAILURE)).containsExactlyInAnyOrderElementsOf(first);
        asks.set(0);

        EvalSummary s = runner(false).concurrency(2).resume(true).build().run(questions);

        assertThat(asks).hasValue(allIds().size() - first.size());
        assertThat(ids(EvaluationRunner.RESULTS)).startsWith(first.toArray(new String[0]))
                .containsExactlyInAnyOrderElementsOf(allIds());
        assertThat(ids(EvaluationRunner.SUCCESS, EvaluationRunner.FAILURE)).containsExactlyInAnyOrderElementsOf(allIds());
        assertThat(s.executionAccuracy()).isEqualTo(0.7);
        assertThat(s.asMap()).containsEntry("resumed", (long) first.size()).containsEntry("complete", true);
    }

    /**
     * Waits (at most a minute, a bound on a hang) until another evaluation worker is blocked entering the
     * writer, which it must reach while the caller holds the writer's lock.
     */
    private static boolean awaitAWorkerWaitingToWrite() {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() - deadline < 0) {
            for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
                Thread t = e.getKey();
                if (t != Thread.currentThread() && t.getName().startsWith("sqlagent-eval-")
                        && t.getState() == Thread.State.BLOCKED && e.getValue().length > 0
                        && e.getValue()[0].getMethodName().equals("finish")) {
                    return true;
                }
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return false;
    }

    @Test
    void aTornLastLineIsDroppedAndItsQuestionRunAgainOnce() throws Exception {
        runner(false).build().run(questions);
        Path results = out.resolve(EvaluationRunner.RESULTS);
        String text = Files.readString(results);
        int lastStart = text.lastIndexOf('\n', text.length() - 2) + 1;
        Files.writeString(results, text.substring(0, lastStart + 25));
        String orphan = lines(EvaluationRunner.SUCCESS).get(lines(EvaluationRunner.SUCCESS).size() - 1);
        Files.writeString(out.resolve(EvaluationRunner.SUCCESS), orphan + "\n{\"id\": \"q9\", \"torn",
                java.nio.file.StandardOpenOption.APPEND);
        asks.set(0);

        runner(false).resume(true).build().run(questions);

        assertThat(asks).hasValue(1);
        assertThat(ids(EvaluationRunner.RESULTS)).containsExactlyElementsOf(allIds());
        assertThat(ids(EvaluationRunner.SUCCESS, EvaluationRunner.FAILURE)).containsExactlyInAnyOrderElementsOf(allIds());
    }

    @Test
    void resumingAFinishedRunAsksNothing() throws Exception {
        runner(false).build().run(questions);
        asks.set(0);

        EvalSummary s = runner(false).resume(true).build().run(questions);

        assertThat(asks).hasValue(0);
        assertThat(s.executionAccuracy()).isEqualTo(0.7);
        assertThat(lines(EvaluationRunner.RESULTS)).hasSize(10);
    }

    @Test
    void existingResultsAreNeverOverwrittenWithoutResume() throws Exception {
        runner(false).build().run(questions);

        assertThatThrownBy(() -> runner(false).build().run(questions)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already holds results");
        assertThat(lines(EvaluationRunner.RESULTS)).hasSize(10);
    }

    @Test
    void aDatabaseWithoutAgentGivesErrorRecordsAndTheRunGoesOn() throws Exception {
        EvalSummary s = EvaluationRunner.builder().output(out).goldExecutor(db::goldExecutor).agentFactory(id -> {
            if (id.equals("zoo")) {
                throw new IllegalArgumentException("no database zoo");
            }
            return db.agent(id, questions, files);
        }).build().run(questions);

        assertThat(s.asMap()).containsEntry("errors", 5L).containsEntry("questions", 10L);
        assertThat(lines(EvaluationRunner.RESULTS).get(9)).contains("\"status\":\"ERROR\"", "no database zoo");
    }

    @Test
    void goldSqlWithoutGoldExecutorIsRefusedBeforeAnythingRuns() {
        EvaluationRunner r = EvaluationRunner.builder().output(out).agentFactory(id -> db.agent(id, questions, files))
                .build();

        assertThatThrownBy(() -> r.run(questions)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no goldExecutor");
        assertThat(out).doesNotExist();
    }

    @Test
    void progressCountsEveryQuestionUpToTheTotal() throws Exception {
        List<Integer> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        runner(false).concurrency(3).progress((done, total) -> {
            assertThat(total).isEqualTo(10);
            seen.add(done);
        }).build().run(questions);

        assertThat(seen).startsWith(0).endsWith(10).hasSize(11);
    }

    @Test
    void baselinesRunThePredictionsWithoutTheAgent() {
        Map<String, Object> b = ReplayBaselines.compute(questions, files, db::goldExecutor);

        assertThat(b).containsEntry("questions_with_gold", 10L).containsEntry("oracle", 0.9)
                .containsEntry("first_executable", 0.6).containsEntry("majority", 0.7);
        assertThat(b.get("files")).isEqualTo(Map.of("filea", 0.6, "fileb", 0.8, "filec", 0.7));
    }
}
