package dev.sqlagent.examples.cli;

import dev.sqlagent.SqlAgent;
import dev.sqlagent.StageMode;
import dev.sqlagent.eval.EvalQuestion;
import dev.sqlagent.eval.EvalQuestions;
import dev.sqlagent.eval.EvalSummary;
import dev.sqlagent.eval.EvaluationRunner;
import dev.sqlagent.eval.PredictionFile;
import dev.sqlagent.eval.ReplayBaselines;
import dev.sqlagent.eval.ReplayLlm;
import dev.sqlagent.execution.JdbcSqlExecutor;
import dev.sqlagent.execution.SqlExecutor;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.verify.Verifiers;
import dev.sqlagent.verify.ResultVerifier;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code eval} command: runs a question set through one agent per SQLite database, answering with
 * recorded predictions replayed as the model, and prints the summary as the last line on stdout.
 *
 * <p>Each database {@code <db_id>.sqlite} of {@code --sqlite-dir} is opened read-only; its agent may read
 * all its tables, {@code SELECT *} included (Spider's gold SQL uses it), with a row cap high enough that
 * no Spider result is cut. Corrections cannot be replayed: the replay answers a correction with the SQL
 * that failed, which the agent stops as {@code CORRECTION_UNCHANGED} (see {@link ReplayLlm}).
 */
@Command(name = "eval", mixinStandardHelpOptions = true,
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every question ran; the summary is the last line",
            "1:internal error (a bug: please report it)",
            "2:usage error: a bad or missing option",
            "5:an input cannot be read: the questions, a replay file, the --sqlite-dir directory"},
        description = "Evaluate the agent on a question set (JSONL or CSV) against SQLite databases, replaying"
                + " recorded predictions as the model. Last stdout line: the summary as one JSON object.")
final class EvalCommand implements Callable<Integer> {

    /** Row cap of agents and gold SQL: above every Spider dev result, so no answer is cut. */
    static final int MAX_ROWS = 100_000;

    @Option(names = "--questions", required = true, description = "Questions: JSONL or CSV with id, question,"
            + " gold_sql, db_id, table, category.")
    Path questionsFile;

    @Option(names = "--sqlite-dir", required = true, description = "Directory of <db_id>.sqlite files.")
    Path sqliteDir;

    @Option(names = "--replay", required = true, split = ",", description = "Prediction files (JSONL: id, db_id,"
            + " predicted_sql), one candidate per file, in this order.")
    List<Path> replay;

    @Option(names = "--out", required = true, description = "Output directory: results.jsonl, trajectories, summary.json.")
    Path out;

    @Option(names = "--concurrency", defaultValue = "1", description = "Questions run at once (default ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--checkpoint-every", defaultValue = "50",
            description = "Force results to disk and write the summary every N questions (default ${DEFAULT-VALUE}).")
    int checkpointEvery;

    @Option(names = "--resume", description = "Continue the run in --out: finished questions are skipped.")
    boolean resume;

    @Option(names = "--limit", defaultValue = "0", description = "Only the first N questions (0: all).")
    int limit;

    @Option(names = "--verifiers", description = "Add the deterministic verifiers: non-empty result, numbers of the"
            + " question present in the SQL. They break ties between candidates and may use the correction.")
    boolean verifiers;

    @Option(names = "--no-correction", description = "Disable the single correction.")
    boolean noCorrection;

    @Option(names = "--candidates", defaultValue = "0",
            description = "Candidates per question, at most the number of replay files (default: all files).")
    int candidates;

    @Option(names = "--correction-replay", split = ",", description = "Prediction files whose SQL stands in for"
            + " corrections (the first that differs from the failed SQL).")
    List<Path> correctionReplay = new ArrayList<>();

    @Option(names = "--learn", description = "Give each database's agent a case library: verified answers become"
            + " few-shot examples, corrections become repairs.")
    boolean learn;

    @Option(names = "--judge", description = "Add a judge: a real OpenAI-compatible model named by"
            + " SQLAGENT_LLM_BASE_URL/SQLAGENT_LLM_API_KEY/SQLAGENT_LLM_MODEL (a replay has no judge of its own).")
    boolean judge;

    @Option(names = "--scripted-judge", description = "Add a scripted judge that always picks the chooser's first"
            + " finalist and finds every answer right: measures the judge's cost (calls, prompt tokens), not its value.")
    boolean scriptedJudge;

    @Option(names = "--passes", defaultValue = "1", description = "Run the questions this many times with the same"
            + " agents (fix cache and case library carry over); pass p writes to <out>/pass-p (default ${DEFAULT-VALUE}).")
    int passes;

    @Option(names = "--no-baselines", description = "Skip the baselines computed from the predictions alone.")
    boolean noBaselines;

    @Override
    public Integer call() throws Exception {
        PrintStream err = System.err;
        List<String> unreadable = new ArrayList<>();
        unreadable.add(Causes.unreadable(questionsFile, "--questions"));
        for (Path p : replay) {
            unreadable.add(Causes.unreadable(p, "--replay"));
        }
        if (!Files.isDirectory(sqliteDir)) {
            unreadable.add("cannot read the directory " + sqliteDir + " (--sqlite-dir): " + (Files.exists(sqliteDir)
                    ? "not a directory" : "no such directory") + "; check the path");
        }
        for (String why : unreadable) {
            if (why != null) {
                err.println("eval: " + why);
                return ExitCodes.UNREACHABLE;
            }
        }
        List<EvalQuestion> questions = EvalQuestions.load(questionsFile);
        if (limit < 0) {
            err.println("eval: --limit must be >= 0 but was " + limit);
            return ExitCodes.USAGE;
        }
        if (limit > 0 && limit < questions.size()) {
            questions = questions.subList(0, limit);
        }
        List<PredictionFile> files = new ArrayList<>();
        for (Path p : replay) {
            files.add(PredictionFile.load(p));
        }
        int k = candidates == 0 ? files.size() : candidates;
        if (k < 1 || k > files.size() || k > SqlAgent.MAX_CANDIDATES) {
            err.println("eval: --candidates must be in [1, " + Math.min(files.size(), SqlAgent.MAX_CANDIDATES)
                    + "] (one per replay file) but was " + candidates);
            return ExitCodes.USAGE;
        }
        if (!Files.isDirectory(sqliteDir)) {
            err.println("eval: --sqlite-dir is not a directory: " + sqliteDir);
            return ExitCodes.USAGE;
        }
        if (judge) {
            try {
                dev.sqlagent.llm.openai.OpenAiCompatibleClient.fromEnvironment();
            } catch (IllegalStateException | IllegalArgumentException e) {
                err.println("eval: --judge needs a real model: " + e.getMessage());
                return ExitCodes.USAGE;
            }
        }
        if (passes < 1 || passes > 10) {
            err.println("eval: --passes must be in [1, 10] but was " + passes);
            return ExitCodes.USAGE;
        }
        if (passes > 1 && resume) {
            err.println("eval: --resume works on a single pass; drop --passes or --resume");
            return ExitCodes.USAGE;
        }
        List<PredictionFile> fixes = new ArrayList<>();
        for (Path p : correctionReplay) {
            fixes.add(PredictionFile.load(p));
        }
        List<EvalQuestion> all = questions;
        java.util.Map<String, SqlAgent> agents = new java.util.concurrent.ConcurrentHashMap<>();
        EvalSummary summary = null;
        List<Object> perPass = new ArrayList<>();
        for (int pass = 1; pass <= passes; pass++) {
            Path dir = passes == 1 ? out : out.resolve("pass-" + pass);
            long[] before = totals(agents);
            ProgressBar bar = System.console() != null ? new ProgressBar(err) : null;
            EvaluationRunner runner = EvaluationRunner.builder()
                    .agentFactory(dbId -> agents.computeIfAbsent(dbId, id -> agent(id, all, files, k, fixes)))
                    .goldExecutor(this::executor)
                    .output(dir).concurrency(concurrency).checkpointEvery(checkpointEvery).resume(resume)
                    .progress(bar == null ? (done, total) -> { } : bar::show)
                    .build();
            summary = runner.run(questions);
            if (bar != null) {
                bar.end();
            }
            long[] after = totals(agents);
            java.util.Map<String, Object> p = new java.util.LinkedHashMap<>();
            p.put("pass", (long) pass);
            p.put("execution_accuracy", summary.executionAccuracy());
            p.put("model_calls", after[0] - before[0]);
            p.put("fix_cache_hits", after[1] - before[1]);
            p.put("questions_with_examples", after[2] - before[2]);
            p.put("corrections", after[3] - before[3]);
            perPass.add(p);
            summary = summary.with("settings", settings(files, k));
            if (passes > 1) {
                summary.writeTo(dir.resolve(EvaluationRunner.SUMMARY));
            }
        }
        if (passes > 1) {
            summary = summary.with("passes", perPass);
        }
        if (!noBaselines) {
            summary = summary.with("baselines", ReplayBaselines.compute(questions, files.subList(0, k), this::executor));
        }
        summary.writeTo(out.resolve(EvaluationRunner.SUMMARY));
        System.out.println(summary.toJson());
        System.out.flush();
        return 0;
    }

    /** Model calls, fix-cache hits, questions shown examples and corrections, summed over the agents. */
    private static long[] totals(java.util.Map<String, SqlAgent> agents) {
        long[] t = new long[4];
        for (SqlAgent a : agents.values()) {
            t[0] += a.metrics().modelCalls();
            t[1] += a.metrics().fixCacheHits();
            t[2] += a.metrics().questionsWithExamples();
            t[3] += a.metrics().corrections();
        }
        return t;
    }

    private java.util.Map<String, Object> settings(List<PredictionFile> files, int k) {
        java.util.Map<String, Object> s = new java.util.LinkedHashMap<>();
        List<Object> names = new ArrayList<>();
        for (PredictionFile f : files.subList(0, k)) {
            names.add(f.name());
        }
        s.put("replay", names);
        s.put("candidates", (long) k);
        s.put("verifiers", verifiers);
        s.put("correction", !noCorrection);
        s.put("judge", judge);
        s.put("scripted_judge", scriptedJudge);
        s.put("retrieval", learn);
        s.put("correction_replay", (long) correctionReplay.size());
        s.put("passes", (long) passes);
        s.put("concurrency", (long) concurrency);
        return s;
    }

    private SqlAgent agent(String dbId, List<EvalQuestion> questions, List<PredictionFile> files, int k,
            List<PredictionFile> fixes) {
        SQLiteDataSource ds = dataSource(dbId);
        SqlAgent.Builder b = SqlAgent.builder()
                .llm(ReplayLlm.create(dbId, questions, files.subList(0, k), fixes))
                .dataSource(ds)
                .policy(GuardPolicy.builder().allowTables(tables(dbId, ds)).allowSelectStar(true).maxRows(MAX_ROWS)
                        .build())
                .candidates(k)
                // a replay holds SQL only: it has nothing to say as selector or decomposer
                .selector(StageMode.NEVER)
                .decomposer(StageMode.NEVER)
                .correction(!noCorrection);
        if (verifiers) {
            Verifiers.standard().forEach(b::verifier);
        }
        if (learn) {
            b.caseLibrary(dev.sqlagent.cases.CaseLibrary.builder().build());
        }
        if (judge) {
            b.judge(true).llm(dev.sqlagent.AgentRole.JUDGE, dev.sqlagent.llm.openai.OpenAiCompatibleClient.fromEnvironment());
        } else if (scriptedJudge) {
            b.judge(true).llm(dev.sqlagent.AgentRole.JUDGE, dev.sqlagent.testkit.ScriptedLlm.create().modelName("scripted-judge")
                    .fallback(request -> new dev.sqlagent.llm.LlmResponse(
                            List.of("{\"choice\": 1, \"is_correct\": true, \"score\": 80}"),
                            dev.sqlagent.llm.TokenUsage.NONE, "")));
        }
        return b.build();
    }

    private SqlExecutor executor(String dbId) {
        return JdbcSqlExecutor.builder(dataSource(dbId)).maxRows(MAX_ROWS).build();
    }

    private SQLiteDataSource dataSource(String dbId) {
        Path file = sqliteDir.resolve(dbId + ".sqlite");
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no SQLite database for db_id '" + dbId + "': " + file + " is missing");
        }
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        SQLiteDataSource ds = new SQLiteDataSource(config);
        ds.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
        return ds;
    }

    private static List<String> tables(String dbId, SQLiteDataSource ds) {
        List<String> tables = new ArrayList<>();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"
                        + " AND name NOT LIKE 'sqlite_%'")) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        } catch (SQLException e) {
            throw new IllegalArgumentException("cannot list the tables of " + dbId + ": " + e.getMessage(), e);
        }
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("database " + dbId + " has no tables");
        }
        return tables;
    }

    /** A one-line progress bar on a terminal, redrawn in place. */
    static final class ProgressBar {
        private static final int WIDTH = 30;
        private final PrintStream err;
        private final long start = System.nanoTime();

        ProgressBar(PrintStream err) {
            this.err = err;
        }

        void show(int done, int total) {
            int filled = total == 0 ? WIDTH : (int) ((long) done * WIDTH / total);
            double secs = (System.nanoTime() - start) / 1e9;
            err.print(String.format(Locale.ROOT, "\r[%s%s] %d/%d %5.1f%% %6.1fs", "#".repeat(filled),
                    ".".repeat(WIDTH - filled), done, total, total == 0 ? 100.0 : 100.0 * done / total, secs));
            err.flush();
        }

        void end() {
            err.println();
        }
    }
}
