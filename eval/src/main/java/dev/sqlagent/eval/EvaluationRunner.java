package dev.sqlagent.eval;

import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.execution.SqlExecutor;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.llm.TokenUsage;
import dev.sqlagent.trace.TraceEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a question set through agents, one {@link SqlAgent} per database id (built lazily by the agent
 * factory and kept), compares each answer with the gold SQL's result ({@link GoldComparison}), and
 * writes into the output directory:
 *
 * <ul>
 *   <li>{@value #RESULTS}: one {@link EvalRecord} a line, appended and handed to the OS as each
 *       question finishes: the commit log of the run;</li>
 *   <li>{@value #SUCCESS} and {@value #FAILURE}: one trajectory a line (question, table, category,
 *       attempts with round, sql, exec_result, judge), success meaning the answer matches the gold
 *       result (or, without gold SQL, that the question was answered);</li>
 *   <li>{@value #SUMMARY}: the {@link EvalSummary}, rewritten at every checkpoint and at the end.</li>
 * </ul>
 *
 * <p><b>Checkpoints and resumption.</b> Every {@code checkpointEvery} questions the files are forced to
 * disk and the interim summary written. With {@code resume}, the results file of an earlier run is read
 * back (a torn last line, left by a kill in mid-write, is dropped), its questions are skipped, and the
 * trajectory files are cut back to those questions; so a kill at any moment followed by a resumed run
 * ends with exactly one line per question. Without {@code resume}, a non-empty results file is an
 * error, never overwritten.
 *
 * <pre>{@code
 * EvalSummary s = EvaluationRunner.builder()
 *     .agentFactory(dbId -> buildAgentFor(dbId))
 *     .goldExecutor(dbId -> executorFor(dbId))
 *     .output(Path.of("eval-out")).concurrency(2).checkpointEvery(50).resume(true)
 *     .build()
 *     .run(EvalQuestions.load(Path.of("dev.jsonl")));
 * }</pre>
 *
 * A runner is reusable but not meant for concurrent {@link #run} calls on the same directory.
 */
public final class EvaluationRunner {

    /** The results file's name. */
    public static final String RESULTS = "results.jsonl";
    /** The successful trajectories' file name. */
    public static final String SUCCESS = "trajectories_success.jsonl";
    /** The failed trajectories' file name. */
    public static final String FAILURE = "trajectories_failure.jsonl";
    /** The summary's file name. */
    public static final String SUMMARY = "summary.json";
    /** Default number of questions run at once. */
    public static final int DEFAULT_CONCURRENCY = 1;
    /** Default checkpoint interval in questions. */
    public static final int DEFAULT_CHECKPOINT_EVERY = 50;
    /** Largest concurrency accepted. */
    public static final int MAX_CONCURRENCY = 64;

    private static final Logger LOG = LoggerFactory.getLogger(EvaluationRunner.class);

    /** Hears progress: called after each question is written, and once at the start. */
    @FunctionalInterface
    public interface ProgressListener {
        /**
         * Called after each question is written, and once at the start.
         *
         * @param finished questions finished, earlier runs included
         * @param total questions in the set
         */
        void onProgress(int finished, int total);
    }

    private final Function<String, SqlAgent> agentFactory;
    private final Function<String, SqlExecutor> goldExecutorFactory;
    private final Path output;
    private final int concurrency;
    private final int checkpointEvery;
    private final boolean resume;
    private final Clock clock;
    private final ProgressListener progress;
    private final Consumer<EvalRecord> afterEachRecord;

    private EvaluationRunner(Builder b) {
        this.agentFactory = b.agentFactory;
        this.goldExecutorFactory = b.goldExecutorFactory;
        this.output = b.output;
        this.concurrency = b.concurrency;
        this.checkpointEvery = b.checkpointEvery;
        this.resume = b.resume;
        this.clock = b.clock;
        this.progress = b.progress;
        this.afterEachRecord = b.afterEachRecord;
    }

    /** {@return a new builder} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs the questions not yet finished in the output directory and summarises all of them.
     *
     * @param questions the set, unique ids
     * @return the summary of every question of the set, also written to {@value #SUMMARY}
     * @throws IllegalArgumentException if two questions share an id
     * @throws IllegalStateException if a question has gold SQL but no gold executor was given; if results
     *     exist and {@code resume} is off; or if the after-each hook threw (the run then stops as a crash
     *     would: nothing more is written)
     * @throws IOException when the output cannot be written
     * @throws InterruptedException if interrupted while waiting for questions; running ones are
     *     interrupted and unfinished questions are left for a resumed run
     */
    public EvalSummary run(List<EvalQuestion> questions) throws IOException, InterruptedException {
        Objects.requireNonNull(questions, "questions");
        Map<String, EvalQuestion> byId = new LinkedHashMap<>();
        for (EvalQuestion q : questions) {
            if (byId.putIfAbsent(q.id(), q) != null) {
                throw new IllegalArgumentException("question id '" + q.id() + "' appears more than once");
            }
            if (q.hasGold() && goldExecutorFactory == null) {
                throw new IllegalStateException("question " + q.id() + " has gold SQL but no goldExecutor was given");
            }
        }
        long start = clock.millis();
        Files.createDirectories(output);
        Path results = output.resolve(RESULTS);
        Path success = output.resolve(SUCCESS);
        Path failure = output.resolve(FAILURE);
        if (!resume && Files.exists(results) && Files.size(results) > 0) {
            throw new IllegalStateException(results + " already holds results: resume the run or use another directory");
        }
        Map<String, EvalRecord> done = new ConcurrentHashMap<>();
        if (resume) {
            ResultsFiles.Recovered rec = ResultsFiles.recoverResults(results);
            rec.records().forEach(done::put);
            ResultsFiles.keepFinished(success, rec.records().keySet());
            ResultsFiles.keepFinished(failure, rec.records().keySet());
            LOG.info("resuming: {} question(s) already finished, {} line(s) dropped", done.size(), rec.dropped());
        } else {
            Files.deleteIfExists(success);
            Files.deleteIfExists(failure);
        }
        int resumed = (int) byId.keySet().stream().filter(done::containsKey).count();
        List<EvalQuestion> pending = new ArrayList<>();
        for (EvalQuestion q : questions) {
            if (!done.containsKey(q.id())) {
                pending.add(q);
            }
        }
        Run run = new Run(questions, done, resumed, start, new ResultsFiles.Appender(results),
                new ResultsFiles.Appender(success), new ResultsFiles.Appender(failure));
        try (run) {
            progress.onProgress(resumed, questions.size());
            run.execute(pending);
        }
        EvalSummary summary = run.summary(true);
        summary.writeTo(output.resolve(SUMMARY));
        return summary;
    }

    /** One run's shared state: the writers, the finished records, the abort flag. */
    private final class Run implements AutoCloseable {
        private final List<EvalQuestion> questions;
        private final Map<String, EvalRecord> done;
        private final int resumed;
        private final long start;
        private final ResultsFiles.Appender results;
        private final ResultsFiles.Appender success;
        private final ResultsFiles.Appender failure;
        private final Map<String, SqlAgent> agents = new ConcurrentHashMap<>();
        private final Map<String, SqlExecutor> goldExecutors = new ConcurrentHashMap<>();
        private final Object writeLock = new Object();
        private int sinceCheckpoint;
        private volatile Throwable abort;

        Run(List<EvalQuestion> questions, Map<String, EvalRecord> done, int resumed, long start,
                ResultsFiles.Appender results, ResultsFiles.Appender success, ResultsFiles.Appender failure) {
            this.questions = questions;
            this.done = done;
            this.resumed = resumed;
            this.start = start;
            this.results = results;
            this.success = success;
            this.failure = failure;
        }

        void execute(List<EvalQuestion> pending) throws InterruptedException, IOException {
            ExecutorService pool = Executors.newFixedThreadPool(concurrency, threads());
            try {
                for (EvalQuestion q : pending) {
                    pool.execute(() -> {
                        if (abort == null) {
                            try {
                                finish(evaluate(q));
                            } catch (Throwable t) {
                                abort(t);
                                pool.shutdownNow();
                            }
                        }
                    });
                }
                pool.shutdown();
                while (!pool.awaitTermination(1, TimeUnit.SECONDS)) {
                    if (abort != null) {
                        pool.shutdownNow();
                    }
                }
            } catch (InterruptedException e) {
                abort(e);
                pool.shutdownNow();
                throw e;
            }
            Throwable t = abort;
            if (t != null) {
                if (t instanceof IOException) {
                    throw (IOException) t;
                }
                throw new IllegalStateException("evaluation aborted after " + done.size() + " question(s): " + t, t);
            }
        }

        @Override
        public void close() throws IOException {
            try (results; success; failure) {
                if (abort == null) {
                    success.force();
                    failure.force();
                    results.force();
                }
            }
        }

        private void abort(Throwable t) {
            synchronized (writeLock) {
                if (abort == null) {
                    abort = t;
                }
            }
        }

        private void finish(Finished f) throws IOException {
            synchronized (writeLock) {
                if (abort != null || done.containsKey(f.record().id())) {
                    return;
                }
                try {
                    String trajectory = Json.write(f.trajectory());
                    boolean good = f.record().goldSql().isBlank() ? f.record().answered() : f.record().isCorrect();
                    (good ? success : failure).append(trajectory);
                    results.append(Json.write(f.record().toMap()));
                    done.put(f.record().id(), f.record());
                    if (++sinceCheckpoint >= checkpointEvery) {
                        sinceCheckpoint = 0;
                        checkpoint();
                    }
                    progress.onProgress(finishedOfSet(), questions.size());
                    afterEachRecord.accept(f.record());
                } catch (Throwable t) {
                    // set before the lock is released: a worker waiting for it must not write after a
                    // failed write or a hook that stopped the run
                    abort = t;
                    throw t;
                }
            }
        }

        private void checkpoint() throws IOException {
            success.force();
            failure.force();
            results.force();
            summary(false).writeTo(output.resolve(SUMMARY));
        }

        private int finishedOfSet() {
            int n = 0;
            for (EvalQuestion q : questions) {
                n += done.containsKey(q.id()) ? 1 : 0;
            }
            return n;
        }

        EvalSummary summary(boolean end) {
            List<EvalRecord> records = new ArrayList<>();
            for (EvalQuestion q : questions) {
                EvalRecord r = done.get(q.id());
                if (r != null) {
                    records.add(r);
                }
            }
            return EvalSummary.of(records, records.size() == questions.size(),
                    Duration.ofMillis(clock.millis() - start), resumed);
        }

        private Finished evaluate(EvalQuestion q) {
            long t0 = clock.millis();
            AgentResult result = null;
            String error = "";
            try {
                SqlAgent agent = agents.computeIfAbsent(q.dbId(), id -> Objects.requireNonNull(agentFactory.apply(id),
                        "the agent factory returned null for database " + id));
                result = agent.ask(q.question());
            } catch (RuntimeException e) {
                error = "no answer for database " + q.dbId() + ": " + e;
                LOG.warn("question {}: {}", q.id(), error);
                LOG.debug("question {}: the fault", q.id(), e);
            }
            ResultTable gold = null;
            String goldError = "";
            boolean ordered = false;
            if (q.hasGold()) {
                ordered = GoldComparison.hasTopLevelOrderBy(q.goldSql());
                try {
                    SqlExecutor ex = goldExecutors.computeIfAbsent(q.dbId(), id -> Objects.requireNonNull(
                            goldExecutorFactory.apply(id), "the gold executor factory returned null for " + id));
                    ExecutionOutcome o = ex.execute(SqlStatement.of(q.goldSql()));
                    if (o instanceof ExecutionOutcome.Success) {
                        gold = ((ExecutionOutcome.Success) o).table();
                    } else {
                        goldError = ((ExecutionOutcome.Failure) o).error().message();
                    }
                } catch (RuntimeException e) {
                    goldError = e.toString();
                }
            }
            EvalRecord rec = record(q, result, error, gold, goldError, ordered, clock.millis() - t0);
            return new Finished(rec, Trajectories.of(q, rec, result, gold, ordered));
        }
    }

    /** A finished question: its record and its trajectory line. */
    private record Finished(EvalRecord record, Map<String, Object> trajectory) {
    }

    private static EvalRecord record(EvalQuestion q, AgentResult r, String error, ResultTable gold, String goldError,
            boolean ordered, long elapsed) {
        if (r == null) {
            return new EvalRecord(q.id(), q.dbId(), q.question(), q.table(), q.category(), "ERROR", "", "", error, "",
                    q.goldSql(), ordered, goldError, q.hasGold() ? Boolean.FALSE : null, false, 0, 0, 0, 0, "",
                    elapsed, q.hasGold() ? Boolean.FALSE : null);
        }
        String failureKind = "";
        String errorCategory = "";
        String message = "";
        Boolean correct = q.hasGold() ? Boolean.FALSE : null;
        Boolean positional = correct;
        if (r instanceof AgentResult.Answered) {
            if (gold != null) {
                correct = GoldComparison.matches(gold, ((AgentResult.Answered) r).table(), ordered);
                positional = GoldComparison.matchesPositional(gold, ((AgentResult.Answered) r).table(), ordered);
            }
        } else if (r instanceof AgentResult.Failed) {
            AgentResult.Failed f = (AgentResult.Failed) r;
            failureKind = f.kind().name();
            errorCategory = f.errorCategory().map(Enum::name)
                    .orElse(r.trace().correction().map(c -> c.errorCategory()).orElse(""));
            message = f.message();
        } else {
            StringBuilder sb = new StringBuilder();
            for (Violation v : ((AgentResult.Rejected) r).violations()) {
                sb.append(sb.length() > 0 ? "; " : "").append(v.type()).append(": ").append(v.message());
            }
            message = sb.toString();
        }
        String rule = "";
        for (TraceEvent e : r.trace().events()) {
            if (e instanceof TraceEvent.Chosen) {
                rule = ((TraceEvent.Chosen) e).rule();
            }
        }
        TokenUsage tokens = r.trace().tokens();
        return new EvalRecord(q.id(), q.dbId(), q.question(), q.table(), q.category(), r.status().name(), failureKind,
                errorCategory, message, r.sql().orElse(""), q.goldSql(), ordered, goldError, correct, r.corrected(),
                r.trace().modelCallCount(), tokens.inputTokens(), tokens.outputTokens(), r.trace().executions().size(),
                rule, elapsed, positional, r.trace().correction().map(c -> c.errorCategory()).orElse(""));
    }

    private static ThreadFactory threads() {
        AtomicInteger n = new AtomicInteger();
        return task -> {
            Thread t = new Thread(task, "sqlagent-eval-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * Builds an {@link EvaluationRunner}. The agent factory and the output directory are required; the
     * gold executor is required as soon as a question has gold SQL.
     */
    public static final class Builder {
        private Function<String, SqlAgent> agentFactory;
        private Function<String, SqlExecutor> goldExecutorFactory;
        private Path output;
        private int concurrency = DEFAULT_CONCURRENCY;
        private int checkpointEvery = DEFAULT_CHECKPOINT_EVERY;
        private boolean resume;
        private Clock clock = Clock.systemUTC();
        private ProgressListener progress = (finished, total) -> { };
        private Consumer<EvalRecord> afterEachRecord = r -> { };

        private Builder() {
        }

        /**
         * Sets how the agent of each database is built; required.
         *
         * @param factory builds the agent of a database id; called once per id, on its first question. A
         *     factory that throws makes that question an {@code ERROR} record and is asked again next time.
         * @return this
         */
        public Builder agentFactory(Function<String, SqlAgent> factory) {
            this.agentFactory = Objects.requireNonNull(factory, "agentFactory");
            return this;
        }

        /**
         * Sets how the executor that runs a database's gold SQL is built; required as soon as a question has
         * gold SQL.
         *
         * @param factory builds the executor that runs a database's gold SQL (read-only, generous row cap);
         *     called once per id
         * @return this
         */
        public Builder goldExecutor(Function<String, SqlExecutor> factory) {
            this.goldExecutorFactory = Objects.requireNonNull(factory, "goldExecutor");
            return this;
        }

        /**
         * Sets the output directory; required.
         *
         * @param dir where the results, trajectories and summary go; created if missing
         * @return this builder
         * @throws NullPointerException if {@code dir} is null
         */
        public Builder output(Path dir) {
            this.output = Objects.requireNonNull(dir, "output");
            return this;
        }

        /**
         * Sets how many questions run at once; defaults to {@value EvaluationRunner#DEFAULT_CONCURRENCY}.
         *
         * @param n questions run at once, 1 to {@value EvaluationRunner#MAX_CONCURRENCY}
         * @return this builder
         * @throws IllegalArgumentException if {@code n} is out of range
         */
        public Builder concurrency(int n) {
            if (n < 1 || n > MAX_CONCURRENCY) {
                throw new IllegalArgumentException("concurrency must be in [1, " + MAX_CONCURRENCY + "] but was " + n);
            }
            this.concurrency = n;
            return this;
        }

        /**
         * Sets the checkpoint interval; defaults to {@value EvaluationRunner#DEFAULT_CHECKPOINT_EVERY}.
         *
         * @param n force the files to disk and write the interim summary every {@code n} questions, at
         *     least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code n} is below 1
         */
        public Builder checkpointEvery(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("checkpointEvery must be > 0 but was " + n);
            }
            this.checkpointEvery = n;
            return this;
        }

        /**
         * Chooses whether to continue the run found in the output directory (its finished questions are
         * skipped) rather than refuse a directory that already holds results; defaults to false.
         *
         * @param resume whether to continue the run found in the output directory
         * @return this builder
         */
        public Builder resume(boolean resume) {
            this.resume = resume;
            return this;
        }

        /**
         * Sets the clock that times questions and the run; defaults to the system clock in UTC.
         *
         * @param clock the clock, not null
         * @return this builder
         * @throws NullPointerException if {@code clock} is null
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Sets the listener told of progress; by default none. It is called from the writing thread, so
         * it should return quickly.
         *
         * @param listener hears progress, not null
         * @return this builder
         * @throws NullPointerException if {@code listener} is null
         */
        public Builder progress(ProgressListener listener) {
            this.progress = Objects.requireNonNull(listener, "progress");
            return this;
        }

        /**
         * A hook called after each question's lines are written, under the writer's lock. If it throws, the
         * run stops as a crash would: no further line is written and {@link #run} throws. Meant for tests
         * of resumption and for hosts that stop a run on a condition.
         *
         * @param hook receives each written record
         * @return this
         */
        public Builder afterEachRecord(Consumer<EvalRecord> hook) {
            this.afterEachRecord = Objects.requireNonNull(hook, "afterEachRecord");
            return this;
        }

        /**
         * Builds the runner from the values set so far.
         *
         * @return the runner
         * @throws IllegalStateException if the agent factory or the output directory is missing
         */
        public EvaluationRunner build() {
            if (agentFactory == null) {
                throw new IllegalStateException("an agent factory is required: call agentFactory(dbId -> agent)");
            }
            if (output == null) {
                throw new IllegalStateException("an output directory is required: call output(dir)");
            }
            return new EvaluationRunner(this);
        }
    }
}
