package dev.sqlagent.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code eval} on 30 Spider dev questions of two databases with the three recorded prediction files. */
class EvalCommandTest {

    @TempDir
    Path dir;

    private Path data;
    private Path questions;
    private String replay;

    @BeforeEach
    void setUp() throws Exception {
        data = Path.of(System.getProperty("sqlagent.projectRoot", ".")).resolve("../shared/data/spider-dev").normalize();
        assumeTrue(Files.isRegularFile(data.resolve("dev.jsonl")), "Spider dev data not found at " + data);
        List<String> subset = new ArrayList<>();
        int concert = 0;
        int pets = 0;
        for (String line : Files.readAllLines(data.resolve("dev.jsonl"))) {
            if (line.contains("\"db_id\": \"concert_singer\"") && concert < 15) {
                subset.add(line);
                concert++;
            } else if (line.contains("\"db_id\": \"pets_1\"") && pets < 15) {
                subset.add(line);
                pets++;
            }
        }
        questions = Files.write(dir.resolve("subset.jsonl"), subset);
        Path p = data.resolve("predictions");
        replay = p.resolve("codex-few-shot.jsonl") + "," + p.resolve("codex-din-sql.jsonl") + ","
                + p.resolve("gpt4-few-shot.jsonl");
    }

    private record Run(int exit, String out, String err) {
        String lastLine() {
            String[] lines = out.strip().split("\n");
            return lines[lines.length - 1];
        }

        double number(String key) {
            Matcher m = Pattern.compile("\"" + key + "\":([0-9.]+)").matcher(lastLine());
            assertThat(m.find()).as(key + " in " + lastLine()).isTrue();
            return Double.parseDouble(m.group(1));
        }
    }

    private static synchronized Run eval(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            List<String> all = new ArrayList<>(List.of("eval"));
            all.addAll(List.of(args));
            int exit = SqlAgentCli.run(all.toArray(new String[0]));
            return new Run(exit, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void replayOfThreeFilesEndsWithTheSummaryAsOneJsonLine() throws Exception {
        Path out = dir.resolve("out");
        Run r = eval("--questions", questions.toString(), "--sqlite-dir", data.resolve("sqlite").toString(),
                "--replay", replay, "--out", out.toString(), "--concurrency", "2", "--checkpoint-every", "7");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.lastLine()).startsWith("{\"questions\":30,").contains("\"baselines\":", "\"by_error_category\":");
        assertThat(r.number("execution_accuracy")).isBetween(0.8, 1.0);
        assertThat(r.number("model_calls_per_question")).isGreaterThanOrEqualTo(1.0);
        assertThat(Files.readAllLines(out.resolve("results.jsonl"))).hasSize(30);
        assertThat(Files.readAllLines(out.resolve("trajectories_success.jsonl")).size()
                + Files.readAllLines(out.resolve("trajectories_failure.jsonl")).size()).isEqualTo(30);
        assertThat(Files.readString(out.resolve("summary.json")).strip()).isEqualTo(r.lastLine());
        assertThat(r.err()).doesNotContain("[#");
    }

    @Test
    void resumeOfAFinishedRunRedoesNothingAndGivesTheSameAccuracy() throws Exception {
        Path out = dir.resolve("out");
        String[] args = {"--questions", questions.toString(), "--sqlite-dir", data.resolve("sqlite").toString(),
            "--replay", replay, "--out", out.toString(), "--verifiers", "--no-correction"};
        Run first = eval(args);
        List<String> args2 = new ArrayList<>(List.of(args));
        args2.add("--resume");

        Run again = eval(args2.toArray(new String[0]));

        assertThat(again.exit()).isZero();
        assertThat(again.number("execution_accuracy")).isEqualTo(first.number("execution_accuracy"));
        assertThat(again.number("resumed")).isEqualTo(30.0);
        assertThat(Files.readAllLines(out.resolve("results.jsonl"))).hasSize(30);
    }

    @Test
    void secondPassReusesTheFirstPassFixesAndCases() throws Exception {
        List<String> subset = new ArrayList<>();
        for (String line : Files.readAllLines(data.resolve("dev.jsonl"))) {
            if (line.contains("\"db_id\": \"car_1\"") || line.contains("\"db_id\": \"dog_kennels\"")) {
                subset.add(line);
            }
        }
        Path q = Files.write(dir.resolve("learn.jsonl"), subset);
        Path p = data.resolve("predictions");
        Run r = eval("--questions", q.toString(), "--sqlite-dir", data.resolve("sqlite").toString(),
                "--replay", p.resolve("codex-few-shot.jsonl").toString(),
                "--correction-replay", p.resolve("gpt4-few-shot.jsonl") + "," + p.resolve("codex-din-sql.jsonl"),
                "--learn", "--verifiers", "--passes", "2", "--out", dir.resolve("learn").toString(), "--no-baselines");

        assertThat(r.exit()).as(r.err()).isZero();
        Matcher m = Pattern.compile("\\{\"pass\":(\\d),\"execution_accuracy\":[0-9.]+,\"model_calls\":(\\d+),"
                + "\"fix_cache_hits\":(\\d+),\"questions_with_examples\":(\\d+)").matcher(r.lastLine());
        long[][] passes = new long[3][];
        while (m.find()) {
            passes[Integer.parseInt(m.group(1))] = new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                Long.parseLong(m.group(4))};
        }
        assertThat(passes[1]).as(r.lastLine()).isNotNull();
        assertThat(passes[2]).as(r.lastLine()).isNotNull();
        assertThat(passes[2][1]).as("fix-cache hits in pass 2").isGreaterThan(passes[1][1]);
        assertThat(passes[2][0]).as("model calls in pass 2").isLessThan(passes[1][0]);
        assertThat(passes[2][2]).as("questions shown examples in pass 2").isGreaterThan(passes[1][2]);
        assertThat(Files.readAllLines(dir.resolve("learn/pass-2/results.jsonl"))).hasSize(subset.size());
    }

    @Test
    void judgeWithoutARealModelConfiguredIsAUsageError() {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("SQLAGENT_LLM_MODEL") == null
                && System.getenv("OPENAI_MODEL") == null, "a real model is configured in this environment");
        Run r = eval("--questions", questions.toString(), "--sqlite-dir", data.resolve("sqlite").toString(),
                "--replay", replay, "--out", dir.resolve("j").toString(), "--judge");

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--judge needs a real model", "SQLAGENT_LLM_MODEL");
    }

    @Test
    void moreCandidatesThanReplayFilesIsAUsageError() {
        Run r = eval("--questions", questions.toString(), "--sqlite-dir", data.resolve("sqlite").toString(),
                "--replay", replay, "--out", dir.resolve("x").toString(), "--candidates", "4");

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--candidates must be in [1, 3]");
    }
}
