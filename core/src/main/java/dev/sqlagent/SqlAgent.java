package dev.sqlagent;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sqlagent.cases.CaseLibrary;
import dev.sqlagent.cases.CaseRecord;
import dev.sqlagent.cases.CaseSink;
import dev.sqlagent.clean.SqlCleaner;
import dev.sqlagent.execution.JdbcSqlExecutor;
import dev.sqlagent.execution.SqlExecutor;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.internal.AgentConfig;
import dev.sqlagent.internal.Bounded;
import dev.sqlagent.internal.CaseBuilder;
import dev.sqlagent.internal.FixCache;
import dev.sqlagent.internal.RunScope;
import dev.sqlagent.internal.SchemaSource;
import dev.sqlagent.internal.run.QuestionRun;
import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.metrics.MetricTool;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.trace.StageListener;
import dev.sqlagent.verify.ResultVerifier;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers natural-language questions about a database through a governed process: the model writes
 * SQL, the guard checks it against a policy, it runs read-only, and an error that a corrected SQL can
 * fix gets exactly one correction. Every question ends in an {@link AgentResult} carrying its trace,
 * and becomes a case for the configured {@link CaseSink}s.
 *
 * <pre>{@code
 * SqlAgent agent = SqlAgent.builder()
 *     .llm(myModel)
 *     .dataSource(dataSource)
 *     .policy(GuardPolicy.allowingTables("orders", "customers"))
 *     .build();
 * AgentResult result = agent.ask("How many orders did each customer place in 2023?");
 * }</pre>
 *
 * <p>Immutable once built and safe for many threads. {@link #ask} never throws for a bad question, a
 * failing model, a failing database or a failing sink: those end in a {@link AgentResult.Failed} or
 * are logged. It throws only for a null question.
 */
public final class SqlAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SqlAgent.class);

    /** Default cap on a question's length in characters. */
    public static final int DEFAULT_MAX_QUESTION_LENGTH = 4000;
    /** Default refiner temperature. */
    public static final double DEFAULT_TEMPERATURE = 0.0;
    /** Default number of candidate SQLs per question. */
    public static final int DEFAULT_CANDIDATES = 1;
    /** Largest number of candidates accepted. */
    public static final int MAX_CANDIDATES = 16;
    /** The longest {@link #close()} waits for questions under way to end once cancelled. */
    public static final int CLOSE_WAIT_SECONDS = 10;
    /** Default bound on candidates run (or extra generation requests made) at once per agent. */
    public static final int DEFAULT_CANDIDATE_PARALLELISM = 4;

    private final AgentConfig config;
    private final QuestionRun questions;
    private final List<CaseSink> caseSinks;
    private final Executor asyncExecutor;
    private final AgentMetrics metrics;
    private final Builder settings;
    private final List<dev.sqlagent.cases.CaseDelivery> deliveries;
    private final QuestionBudget budget;
    private final java.util.function.Consumer<HandOff> onHandOff;
    /** Executors the agent created and stops on close: the askAsync executor, the candidate pool. */
    private final List<java.util.concurrent.ExecutorService> owned = new ArrayList<>();
    private final dev.sqlagent.internal.LibraryThreads.Lease threads;
    /** The questions under way, each with the scope that stops it. */
    private final java.util.Set<RunScope> running = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private SqlAgent(Builder b, AgentConfig config, java.util.concurrent.ExecutorService candidatePool) {
        this.metrics = new AgentMetrics(config.fixCache());
        this.threads = dev.sqlagent.internal.LibraryThreads.lease();
        if (candidatePool != null) {
            owned.add(candidatePool);
        }
        this.config = config;
        this.questions = new QuestionRun(config);
        List<CaseSink> sinks = new ArrayList<>(b.caseSinks);
        if (b.caseLibrary != null && !sinks.contains(b.caseLibrary)) {
            sinks.add(b.caseLibrary);
        }
        // every sink but the in-memory ones gets the case through its own delivery worker, never on the
        // asking thread; in-memory sinks (the case library, InMemoryCaseSink) cannot stall and learn at once
        List<CaseSink> delivered = new ArrayList<>();
        List<dev.sqlagent.cases.CaseDelivery> deliveries = new ArrayList<>();
        for (int i = 0; i < sinks.size(); i++) {
            CaseSink sink = sinks.get(i);
            if (sink instanceof dev.sqlagent.cases.InMemoryCaseSink || sink instanceof CaseLibrary) {
                delivered.add(sink);
                continue;
            }
            dev.sqlagent.cases.CaseDelivery.Builder db = dev.sqlagent.cases.CaseDelivery.builder(sink)
                    .queue(b.caseQueueCapacity, b.caseOverflow)
                    .retryBudget(b.sinkRetries ? b.caseMaxAttempts : 1, b.caseMaxRetryTime)
                    .backoff(b.caseBackoff, b.caseMaxBackoff).onFailure(metrics::recordSinkFailure)
                    .name(sink.getClass().getSimpleName() + "#" + i);
            if (b.caseJournalDir != null) {
                db.journal(b.caseJournalDir.resolve("cases-" + i + ".jsonl"));
                if (b.caseDurability != null) {
                    db.durability(b.caseDurability, b.caseGroupCommit);
                }
            }
            dev.sqlagent.cases.CaseDelivery d = db.build();
            deliveries.add(d);
            delivered.add(d);
        }
        sinks = delivered;
        this.deliveries = List.copyOf(deliveries);
        this.caseSinks = List.copyOf(sinks);
        if (b.asyncExecutor != null) {
            this.asyncExecutor = b.asyncExecutor;
        } else {
            java.util.concurrent.ExecutorService own = dev.sqlagent.internal.AskExecutor.create();
            owned.add(own);
            this.asyncExecutor = own;
        }
        this.budget = b.budget;
        this.onHandOff = b.onHandOff;
        this.settings = b.copy();
    }

    /**
     * Returns a new builder.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns a builder holding this agent's settings, to build a variant.
     *
     * @return a builder holding this agent's settings, to build a variant
     */
    public Builder toBuilder() {
        return settings.copy();
    }

    /**
     * Answers a question. A bad question, a failing model, database, listener or case sink never throws:
     * each ends in a result ({@link AgentResult.Failed} with its {@link FailureKind}).
     *
     * @param question the question in natural language
     * @return the result with its trace, never null
     * @throws NullPointerException if the question is null
     * @throws IllegalStateException if the agent is closed ({@link #close()}); a question under way when
     *     it closes is not refused but cancelled, and ends {@link FailureKind#CANCELLED}
     */
    public AgentResult ask(String question) {
        Objects.requireNonNull(question, "question");
        return run(Question.of(question), null);
    }

    /**
     * Answers a question with labels (kept in its case, used by retrieval) and perhaps a policy for this
     * request only.
     *
     * @param question the question
     * @return the result with its trace, never null
     * @throws NullPointerException if the question is null
     * @throws IllegalStateException if the agent is closed ({@link #close()})
     * @throws IllegalArgumentException if the request's budget sets a scan or memory cap this agent cannot
     *     enforce ({@link QuestionBudget#withMaxScanBytes}, {@link QuestionBudget#withMaxMemoryBytes})
     */
    public AgentResult ask(Question question) {
        Objects.requireNonNull(question, "question");
        return run(question, null);
    }

    /**
     * Runs SQL written by the caller (an outside agent such as an MCP client, a person) through the same
     * governed path as the SQL the model writes: the guard checks it against the agent's policy and rewrites
     * it (row cap, row filters), the engine's planner confirms what it reads (when the engine check is on),
     * and it runs read-only, time-boxed and row-capped. No model is called, and the SQL is never corrected or
     * regenerated: a policy violation ends {@link AgentResult.Rejected} with the violations, anything else
     * that keeps it from running (unparseable SQL, a table the database lacks, a database error)
     * {@link AgentResult.Failed}. Like a question it is traced, counted in {@link #metrics()}, logged, handed
     * to the case sinks (never as a verified answer, so it never becomes a few-shot example) and to the
     * {@link Builder#onHandOff hand-off hook}.
     *
     * @param sql the SQL, one statement
     * @return the result with its trace, never null
     * @throws NullPointerException if the SQL is null
     * @throws IllegalStateException if the agent is closed
     */
    public AgentResult query(String sql) {
        Objects.requireNonNull(sql, "sql");
        return query(Question.of(sql));
    }

    /**
     * Runs SQL written by the caller as {@link #query(String)} does, with the request's labels (kept in its
     * case), policy (replacing the agent's, for example one client's tables and row filters) and budget
     * (its deadline bounds the run).
     *
     * @param request the request; its {@link Question#text() text} is the SQL
     * @return the result with its trace, never null
     * @throws NullPointerException if the request is null
     * @throws IllegalStateException if the agent is closed
     * @throws IllegalArgumentException if the request's budget sets a scan or memory cap this agent cannot
     *     enforce ({@link QuestionBudget#withMaxScanBytes}, {@link QuestionBudget#withMaxMemoryBytes})
     */
    public AgentResult query(Question request) {
        Objects.requireNonNull(request, "request");
        return run(request, null, new RunScope(), true);
    }

    AgentResult run(Question question, dev.sqlagent.internal.ConversationContext conversation) {
        return run(question, conversation, new RunScope(), false);
    }

    private AgentResult run(Question question, dev.sqlagent.internal.ConversationContext conversation,
            RunScope scope, boolean callerSql) {
        if (closed) {
            throw new IllegalStateException("the agent is closed; build a new one to ask more questions");
        }
        QuestionBudget effective = effectiveBudget(question);
        running.add(scope);
        try {
            if (closed) {
                scope.stop(RunScope.Stop.CANCELLED); // closed between the check and the registration
            }
            String id = dev.sqlagent.internal.QuestionIds.next();
            AgentResult result = questions.answer(question.text().strip(), id, conversation,
                    question.policy().orElse(null), question.table(), question.category(), effective, scope, callerSql);
            metrics.record(result);
            metrics.recordWork(scope);
            deliver(result, question, !callerSql && (!config.verifiers().isEmpty() || config.judgeEnabled()));
            handOff(result);
            return result;
        } finally {
            running.remove(scope);
            synchronized (running) {
                running.notifyAll();
            }
        }
    }

    /**
     * The request's budget over the agent's, refused when it sets a statement cap this agent cannot enforce
     * (the agent's own budget was checked at build).
     */
    private QuestionBudget effectiveBudget(Question question) {
        QuestionBudget effective = question.budget().map(budget::overriddenBy).orElse(budget);
        if (question.budget().isPresent() && question.budget().get().capsStatements()) {
            String unenforced = dev.sqlagent.internal.BuildChecks.unenforcedCaps(effective, config.dialect(),
                    config.executor() instanceof JdbcSqlExecutor);
            if (unenforced != null) {
                throw new IllegalArgumentException(unenforced + " (the request's budget)");
            }
        }
        return effective;
    }

    private void handOff(AgentResult result) {
        if (onHandOff == null || result.handOff().isEmpty()) {
            return;
        }
        try {
            onHandOff.accept(result.handOff().get());
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            LOG.warn("the hand-off hook failed for question {}; the question's result stands: {}",
                    result.trace().questionId(), e.toString());
            LOG.debug("the hook's fault", e);
        }
    }

    /**
     * Starts a conversation: follow-up questions ("and last year?") are rewritten into self-contained ones
     * from the earlier turns, and the schema selection is reused while it fits. Its questions are this
     * agent's: once the agent is closed, they are refused like {@link #ask}'s.
     *
     * @return a new conversation keeping the last {@value Conversation#DEFAULT_HISTORY} turns
     */
    public Conversation conversation() {
        return new Conversation(this, Conversation.DEFAULT_HISTORY);
    }

    /**
     * Answers a question on the agent's executor: by default one the agent owns and sizes for blocking work
     * (a virtual thread per question on JDK 21 and later, else a pool of daemon threads), or the host's
     * ({@link Builder#asyncExecutor}).
     *
     * <p>Cancelling the returned future (with {@code cancel}) stops the question: a model call under way is
     * interrupted, a statement under way is cancelled in the database, and the question ends
     * {@link FailureKind#CANCELLED} (counted in the metrics and kept as a case; the future itself is
     * cancelled). Cancel the future returned here: cancelling a future derived from it with
     * {@code thenApply} and the like does not reach the question.
     *
     * @param question the question
     * @return a future of the result; it completes exceptionally only as {@link #ask} would throw
     * @throws NullPointerException if the question is null
     * @throws IllegalStateException if the agent is closed
     */
    public CompletableFuture<AgentResult> askAsync(String question) {
        Objects.requireNonNull(question, "question");
        return askAsync(Question.of(question));
    }

    /**
     * Answers a question with labels, a policy or a budget of its own on the agent's executor; see
     * {@link #askAsync(String)} for cancellation.
     *
     * @param question the question
     * @return a future of the result
     * @throws NullPointerException if the question is null
     * @throws IllegalStateException if the agent is closed
     * @throws IllegalArgumentException if the request's budget sets a scan or memory cap this agent cannot
     *     enforce ({@link QuestionBudget#withMaxScanBytes}, {@link QuestionBudget#withMaxMemoryBytes})
     */
    public CompletableFuture<AgentResult> askAsync(Question question) {
        Objects.requireNonNull(question, "question");
        return async(question, false);
    }

    /**
     * Runs SQL written by the caller as {@link #query(Question)} does, on the agent's executor. Cancelling the
     * returned future cancels the statement under way in the database, as for {@link #askAsync(String)}: the
     * run ends {@link FailureKind#CANCELLED}.
     *
     * @param request the request; its {@link Question#text() text} is the SQL
     * @return a future of the result
     * @throws NullPointerException if the request is null
     * @throws IllegalStateException if the agent is closed
     * @throws IllegalArgumentException if the request's budget sets a scan or memory cap this agent cannot
     *     enforce ({@link QuestionBudget#withMaxScanBytes}, {@link QuestionBudget#withMaxMemoryBytes})
     */
    public CompletableFuture<AgentResult> queryAsync(Question request) {
        Objects.requireNonNull(request, "request");
        return async(request, true);
    }

    private CompletableFuture<AgentResult> async(Question question, boolean callerSql) {
        if (closed) {
            throw new IllegalStateException("the agent is closed; build a new one to ask more questions");
        }
        effectiveBudget(question); // a cap the agent cannot enforce is refused here, not in the future
        RunScope scope = new RunScope();
        CompletableFuture<AgentResult> future = new CompletableFuture<>() {
            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                scope.stop(RunScope.Stop.CANCELLED);
                return super.cancel(mayInterruptIfRunning);
            }
        };
        try {
            asyncExecutor.execute(() -> {
                if (future.isDone()) {
                    return; // cancelled before it started: nothing was done, nothing to record
                }
                try {
                    future.complete(run(question, null, scope, callerSql));
                } catch (Throwable e) {
                    future.completeExceptionally(e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            throw new IllegalStateException("the async executor refused the question" + (closed
                    ? ": the agent is closed" : ": " + e.getMessage()), e);
        }
        return future;
    }

    /**
     * Returns the live measures of this agent.
     *
     * @return the live measures of this agent
     */
    public AgentMetrics metrics() {
        return metrics;
    }

    /**
     * The delivery of cases to each configured sink that is not in memory, in the order the sinks were
     * given: queue, retries, journal and their counts.
     *
     * @return the deliveries
     */
    public List<dev.sqlagent.cases.CaseDelivery> caseDeliveries() {
        return deliveries;
    }

    /**
     * Waits until every case of the questions answered so far was delivered, journalled or refused.
     *
     * @param timeout the longest wait
     * @return whether everything was handed on within the timeout
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitCases(java.time.Duration timeout) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        for (dev.sqlagent.cases.CaseDelivery d : deliveries) {
            if (!d.awaitIdle(java.time.Duration.ofNanos(Math.max(0, until - System.nanoTime())))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Closes the agent: new questions are refused ({@link #ask}, {@link #askAsync} and a
     * {@link Conversation}'s {@code ask} throw {@link IllegalStateException}); questions under way are
     * cancelled (they end {@link FailureKind#CANCELLED}) and waited for up to {@value #CLOSE_WAIT_SECONDS}
     * seconds; then every thread the agent started is stopped: its {@code askAsync} executor (unless the host
     * gave one), its candidate pool, its case deliveries (each hands its queue to its journal, or to its
     * sink), and, when no other agent uses them, the library's shared guard and query watchdogs. The
     * model clients, data source, executor and sinks the host passed in are the host's: they are not
     * closed. Closing twice is harmless.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        for (RunScope s : running) {
            s.stop(RunScope.Stop.CANCELLED);
        }
        long until = System.nanoTime() + java.time.Duration.ofSeconds(CLOSE_WAIT_SECONDS).toNanos();
        synchronized (running) {
            while (!running.isEmpty() && until - System.nanoTime() > 0) {
                try {
                    running.wait(Math.max(1, (until - System.nanoTime()) / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        if (!running.isEmpty()) {
            LOG.warn("closing with {} question(s) still under way after {} s; their threads are stopped",
                    running.size(), CLOSE_WAIT_SECONDS);
        }
        for (java.util.concurrent.ExecutorService e : owned) {
            e.shutdownNow();
        }
        for (dev.sqlagent.cases.CaseDelivery d : deliveries) {
            d.close();
        }
        java.time.Duration rest = java.time.Duration.ofNanos(Math.max(0, until - System.nanoTime()))
                .plusSeconds(2);
        dev.sqlagent.internal.LibraryThreads.awaitAll(owned, rest);
        threads.release(rest);
    }

    /**
     * Returns whether {@link #close()} was called.
     *
     * @return whether {@link #close()} was called
     */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Returns the guard policy.
     *
     * @return the guard policy
     */
    public GuardPolicy policy() {
        return config.policy();
    }

    /**
     * Returns the dialect.
     *
     * @return the dialect
     */
    public Dialect dialect() {
        return config.dialect();
    }

    /**
     * The schema a model is shown under a policy, as {@link #ask(Question)} shows it for a request with that
     * policy: of the tables the agent reads (those its own policy allows, or the host's
     * {@link Builder#schema schema}), the ones the policy allows, without the columns it denies, with the
     * host's descriptions and the relations between what is left. The catalog is read from the database on
     * first use and kept.
     *
     * @param policy the policy, such as {@link #policy()} or a client's
     * @return the visible catalog
     * @throws NullPointerException if the policy is null
     * @throws java.sql.SQLException if the catalog cannot be read
     */
    public SchemaCatalog schema(GuardPolicy policy) throws java.sql.SQLException {
        Objects.requireNonNull(policy, "policy");
        return config.schema().get().visibleUnder(policy);
    }

    /**
     * Least-privilege check: what the database login can read beyond the policy (tables outside it, denied
     * columns) and whether it can write at all, from the engine's catalog. Where the report lists anything,
     * the guard is the only line of defence for it.
     *
     * @return the report
     * @throws IllegalStateException if the agent was built with a custom executor (no database to ask) or
     *     its dialect has no audit
     * @throws java.sql.SQLException if the catalog cannot be read
     */
    public dev.sqlagent.guard.engine.PrivilegeReport audit() throws java.sql.SQLException {
        return audit(config.policy());
    }

    /**
     * Least-privilege check against another policy, such as one a request or an MCP client is given: what the
     * agent's database login can read beyond that policy, and whether it can write at all.
     *
     * @param policy the policy to hold the login to
     * @return the report
     * @throws NullPointerException if the policy is null
     * @throws IllegalStateException if the agent was built with a custom executor (no database to ask) or
     *     its dialect has no audit
     * @throws java.sql.SQLException if the catalog cannot be read
     */
    public dev.sqlagent.guard.engine.PrivilegeReport audit(GuardPolicy policy) throws java.sql.SQLException {
        Objects.requireNonNull(policy, "policy");
        if (settings.dataSource == null) {
            throw new IllegalStateException("audit() needs the agent built with dataSource(...); a custom executor "
                    + "gives no database to ask");
        }
        try {
            dev.sqlagent.guard.engine.PrivilegeReport r = dev.sqlagent.guard.engine.PrivilegeAudit.audit(
                    settings.dataSource, config.dialect(), policy);
            if (settings.planningDataSource == null) {
                return r;
            }
            List<String> notes = new java.util.ArrayList<>(r.notes());
            notes.add("the engine check plans with a second login (planningDataSource), not audited here: it may read "
                    + "what this one may not, and only ever runs EXPLAIN, after this login has prepared the statement");
            return new dev.sqlagent.guard.engine.PrivilegeReport(r.dialect(), r.login(), r.writes(), r.forbiddenTables(),
                    r.deniedColumns(), List.copyOf(notes));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * Returns the engine check the run asks before executing, or null when off.
     *
     * @return the engine check the run asks before executing, or null when off
     */
    dev.sqlagent.guard.engine.EngineCheck engineCheck() {
        return config.engineCheck();
    }

    /** The functions, operators, macros and types the database defines itself, read with its schema. */
    static dev.sqlagent.guard.DatabaseObjects databaseObjects(DataSource ds, Dialect d) throws java.sql.SQLException {
        try (java.sql.Connection c = ds.getConnection()) {
            return dev.sqlagent.guard.DatabaseObjects.read(c, d);
        }
    }

    private void deliver(AgentResult result, Question question, boolean checked) {
        if (caseSinks.isEmpty()) {
            return;
        }
        CaseRecord record = CaseBuilder.from(result, question.table(), question.category(), checked,
                config.clock().instant());
        for (CaseSink sink : caseSinks) {
            try {
                sink.accept(record);
            } catch (Exception | LinkageError e) {
                metrics.recordSinkFailure();
                LOG.warn("case sink {} failed for question {}; the question's result stands",
                        sink.getClass().getName(), record.id(), e);
            }
        }
    }

    /**
     * Builds a {@link SqlAgent}. Setters check their arguments; {@link #build()} checks that a model,
     * a database and a policy were given.
     */
    public static final class Builder {
        private final Map<AgentRole, LlmClient> models = new EnumMap<>(AgentRole.class);
        private DataSource dataSource;
        private SqlExecutor executor;
        private Dialect dialect;
        private GuardPolicy policy;
        private SchemaCatalog schema;
        private final List<CaseSink> caseSinks = new ArrayList<>();
        private final List<StageListener> listeners = new ArrayList<>();
        private final List<ResultVerifier> verifiers = new ArrayList<>();
        private Executor asyncExecutor;
        private QuestionBudget budget = QuestionBudget.unlimited();
        private java.util.function.Consumer<HandOff> onHandOff;
        private Clock clock = Clock.systemUTC();
        private boolean correctionEnabled = true;
        private boolean correctAnomalies = true;
        private int maxQuestionLength = DEFAULT_MAX_QUESTION_LENGTH;
        private double temperature = DEFAULT_TEMPERATURE;
        private SqlGuard guard = SqlGuard.create();
        private java.time.Duration queryTimeout = JdbcSqlExecutor.DEFAULT_QUERY_TIMEOUT;
        private int candidates = DEFAULT_CANDIDATES;
        private boolean judge;
        private PromptTemplates prompts = PromptTemplates.defaults();
        private final Map<AgentRole, Double> temperatures = new EnumMap<>(AgentRole.class);
        private StageMode selectorMode = StageMode.AUTO;
        private StageMode decomposerMode = StageMode.AUTO;
        private TokenBudgets budgets = TokenBudgets.DEFAULTS;
        private final List<MetricTool> metricTools = new ArrayList<>();
        private boolean fixCache = true;
        private dev.sqlagent.cases.FixStore fixStore;
        private CaseLibrary caseLibrary;
        private Executor candidateExecutor;
        private boolean sinkRetries = true;
        private int caseQueueCapacity = dev.sqlagent.cases.CaseDelivery.DEFAULT_CAPACITY;
        private dev.sqlagent.cases.CaseDelivery.Overflow caseOverflow = dev.sqlagent.cases.CaseDelivery.Overflow.JOURNAL;
        private int caseMaxAttempts = dev.sqlagent.cases.CaseDelivery.DEFAULT_MAX_ATTEMPTS;
        private java.time.Duration caseMaxRetryTime = dev.sqlagent.cases.CaseDelivery.DEFAULT_MAX_RETRY_TIME;
        private java.time.Duration caseBackoff = dev.sqlagent.cases.CaseDelivery.DEFAULT_BACKOFF;
        private java.time.Duration caseMaxBackoff = dev.sqlagent.cases.CaseDelivery.DEFAULT_MAX_BACKOFF;
        private java.nio.file.Path caseJournalDir;
        private dev.sqlagent.cases.CaseDelivery.Durability caseDurability;
        private java.time.Duration caseGroupCommit = java.time.Duration.ZERO;
        private dev.sqlagent.schema.SchemaEnrichment enrichment;
        private int candidateParallelism = DEFAULT_CANDIDATE_PARALLELISM;
        private boolean dropViolatingCandidates;
        private boolean engineCheck = true;
        private DataSource planningDataSource;

        private Builder() {
        }

        Builder copy() {
            Builder b = new Builder();
            b.models.putAll(models);
            b.dataSource = dataSource;
            b.executor = executor;
            b.dialect = dialect;
            b.policy = policy;
            b.schema = schema;
            b.caseSinks.addAll(caseSinks);
            b.listeners.addAll(listeners);
            b.verifiers.addAll(verifiers);
            b.asyncExecutor = asyncExecutor;
            b.budget = budget;
            b.onHandOff = onHandOff;
            b.clock = clock;
            b.correctionEnabled = correctionEnabled;
            b.correctAnomalies = correctAnomalies;
            b.maxQuestionLength = maxQuestionLength;
            b.temperature = temperature;
            b.guard = guard;
            b.queryTimeout = queryTimeout;
            b.candidates = candidates;
            b.judge = judge;
            b.prompts = prompts;
            b.temperatures.putAll(temperatures);
            b.selectorMode = selectorMode;
            b.decomposerMode = decomposerMode;
            b.budgets = budgets;
            b.metricTools.addAll(metricTools);
            b.fixCache = fixCache;
            b.fixStore = fixStore;
            b.caseLibrary = caseLibrary;
            b.candidateExecutor = candidateExecutor;
            b.sinkRetries = sinkRetries;
            b.caseQueueCapacity = caseQueueCapacity;
            b.caseOverflow = caseOverflow;
            b.caseMaxAttempts = caseMaxAttempts;
            b.caseMaxRetryTime = caseMaxRetryTime;
            b.caseBackoff = caseBackoff;
            b.caseMaxBackoff = caseMaxBackoff;
            b.caseJournalDir = caseJournalDir;
            b.caseDurability = caseDurability;
            b.caseGroupCommit = caseGroupCommit;
            b.enrichment = enrichment;
            b.candidateParallelism = candidateParallelism;
            b.dropViolatingCandidates = dropViolatingCandidates;
            b.engineCheck = engineCheck;
            b.planningDataSource = planningDataSource;
            return b;
        }

        /**
         * Sets the model for every role without its own.
         *
         * @param client the model for every role without its own
         * @return this builder
         */
        public Builder llm(LlmClient client) {
            models.put(AgentRole.REFINER, Objects.requireNonNull(client, "llm"));
            return this;
        }

        /**
         * Sets the model of one role (selector, decomposer, judge, rewriter, router); a role without its own
         * model uses the refiner's.
         *
         * @param role a role
         * @param client the model for that role
         * @return this
         */
        public Builder llm(AgentRole role, LlmClient client) {
            models.put(Objects.requireNonNull(role, "role"), Objects.requireNonNull(client, "llm"));
            return this;
        }

        /**
         * The database: a {@link JdbcSqlExecutor} runs queries on it, its dialect is detected when the
         * agent is built (unless {@link #dialect} is given; {@link #build()} then needs a connection) and
         * its schema read (restricted to the policy) on the first question.
         *
         * @param dataSource the database
         * @return this
         */
        public Builder dataSource(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
            return this;
        }

        /**
         * A custom executor instead of a {@link DataSource}; then {@link #dialect} and {@link #schema}
         * are required.
         *
         * @param executor runs accepted SQL
         * @return this
         */
        public Builder executor(SqlExecutor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * Sets the dialect, instead of detecting it.
         *
         * @param dialect the dialect, instead of detecting it
         * @return this builder
         */
        public Builder dialect(Dialect dialect) {
            this.dialect = Objects.requireNonNull(dialect, "dialect");
            return this;
        }

        /**
         * Sets what model-written SQL may do.
         *
         * @param policy what model-written SQL may do
         * @return this builder
         */
        public Builder policy(GuardPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Sets the schema the model sees, instead of reading it from the database.
         *
         * @param schema the schema the model sees, instead of reading it from the database
         * @return this builder
         */
        public Builder schema(SchemaCatalog schema) {
            this.schema = Objects.requireNonNull(schema, "schema");
            return this;
        }

        /**
         * Sets whether a failed case delivery is retried (default true).
         *
         * @param enabled whether a failed case delivery is retried within the retry budget (default true,
         *     see {@link #caseRetryBudget}); off, a case whose first delivery fails goes to the journal
         * @return this
         */
        public Builder caseSinkRetries(boolean enabled) {
            this.sinkRetries = enabled;
            return this;
        }

        /**
         * How many cases may wait in memory per sink for the delivery worker, and what happens to a case
         * that finds the queue full (default {@value dev.sqlagent.cases.CaseDelivery#DEFAULT_CAPACITY},
         * {@link dev.sqlagent.cases.CaseDelivery.Overflow#JOURNAL}: appended to the journal, never a wait).
         *
         * @param capacity at least 1
         * @param overflow the policy for a full queue
         * @return this
         * @throws IllegalArgumentException if the capacity is below 1
         */
        public Builder caseQueue(int capacity, dev.sqlagent.cases.CaseDelivery.Overflow overflow) {
            if (capacity < 1) {
                throw new IllegalArgumentException("capacity must be > 0 but was " + capacity);
            }
            this.caseQueueCapacity = capacity;
            this.caseOverflow = Objects.requireNonNull(overflow, "overflow");
            return this;
        }

        /**
         * The retry budget of one case before it goes to the journal (default 5 attempts, 10 s).
         *
         * @param maxAttempts deliveries tried per case in all, at least 1
         * @param maxTime the longest time spent on one case, not negative
         * @return this
         * @throws IllegalArgumentException if out of range
         */
        public Builder caseRetryBudget(int maxAttempts, java.time.Duration maxTime) {
            Objects.requireNonNull(maxTime, "maxTime");
            if (maxAttempts < 1 || maxTime.isNegative()) {
                throw new IllegalArgumentException("caseRetryBudget needs maxAttempts > 0 and maxTime >= 0 but was "
                        + maxAttempts + ", " + maxTime);
            }
            this.caseMaxAttempts = maxAttempts;
            this.caseMaxRetryTime = maxTime;
            return this;
        }

        /**
         * Sets the wait before the first retry of a case (default 100 ms).
         *
         * @param initial the wait before the first retry of a case (default 100 ms)
         * @param max the longest wait, and how often a sink that is down is probed (default 1 s)
         * @return this
         * @throws IllegalArgumentException if not positive or max below initial
         */
        public Builder caseRetryBackoff(java.time.Duration initial, java.time.Duration max) {
            Objects.requireNonNull(initial, "initial");
            Objects.requireNonNull(max, "max");
            if (initial.isZero() || initial.isNegative() || max.compareTo(initial) < 0) {
                throw new IllegalArgumentException("caseRetryBackoff must be > 0 and max >= initial but was " + initial
                        + ", " + max);
            }
            this.caseBackoff = initial;
            this.caseMaxBackoff = max;
            return this;
        }

        /**
         * The folder of the case journals: {@code cases-<i>.jsonl} for the i-th sink (counting from 0 in the
         * order given, the case library last). Every case is written there before {@code ask} returns
         * ({@link #caseDurability}); cases a sink could not take wait there and are replayed into it when it
         * is back, and when an agent with the same folder and sinks is built (after a restart or a crash).
         * Without it a temporary folder is made at the first spill, named in the log, and not replayed by a
         * later run; a crash then loses the cases still queued in memory.
         *
         * @param directory the folder, created when needed
         * @return this
         */
        public Builder caseJournal(java.nio.file.Path directory) {
            this.caseJournalDir = Objects.requireNonNull(directory, "caseJournal");
            return this;
        }

        /**
         * When a case reaches the journal of {@link #caseJournal}, and how long a journal write waits for
         * more cases to join it. By default {@link dev.sqlagent.cases.CaseDelivery.Durability#WRITE_AHEAD}
         * and no wait: every case is written to the journal before {@code ask} returns, so that a crash of
         * the host ({@code kill -9} included) loses no case of a question that returned; see
         * {@link dev.sqlagent.cases.CaseDelivery.Builder#durability} and {@code docs/deployment.md} for the
         * cost of each level.
         *
         * @param durability when a case reaches the journal
         * @param groupCommit how long a write waits for more cases, zero or more, under a second
         * @return this
         * @throws IllegalArgumentException if the wait is negative or a second or longer
         */
        public Builder caseDurability(dev.sqlagent.cases.CaseDelivery.Durability durability,
                java.time.Duration groupCommit) {
            Objects.requireNonNull(durability, "caseDurability");
            Objects.requireNonNull(groupCommit, "groupCommit");
            if (groupCommit.isNegative() || groupCommit.compareTo(java.time.Duration.ofSeconds(1)) >= 0) {
                throw new IllegalArgumentException("groupCommit must be >= 0 and < 1s but was " + groupCommit);
            }
            this.caseDurability = durability;
            this.caseGroupCommit = groupCommit;
            return this;
        }

        /**
         * What the host knows of its schema: descriptions, coded values, synonyms, sample values. Applied
         * to the catalog read from the database (or given with {@link #schema}).
         *
         * @param enrichment the enrichment
         * @return this
         */
        public Builder schemaEnrichment(dev.sqlagent.schema.SchemaEnrichment enrichment) {
            this.enrichment = Objects.requireNonNull(enrichment, "schemaEnrichment");
            return this;
        }

        /**
         * Adds a case sink, which receives every finished question as a case; call it once per sink.
         *
         * @param sink receives every finished question; may be called several times
         * @return this builder
         */
        public Builder caseSink(CaseSink sink) {
            caseSinks.add(Objects.requireNonNull(sink, "caseSink"));
            return this;
        }

        /**
         * Adds a listener, which hears every stage transition.
         *
         * @param listener hears every stage transition
         * @return this builder
         */
        public Builder listener(StageListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Adds a deterministic result check for the VERIFY stage.
         *
         * @param verifier a deterministic result check for the VERIFY stage
         * @return this builder
         */
        public Builder verifier(ResultVerifier verifier) {
            verifiers.add(Objects.requireNonNull(verifier, "verifier"));
            return this;
        }

        /**
         * Adds several verifiers in order, such as {@code Verifiers.standard()}.
         *
         * @param more the verifiers, none null
         * @return this
         * @throws NullPointerException if the collection or one of its verifiers is null
         */
        public Builder verifiers(java.util.Collection<? extends ResultVerifier> more) {
            Objects.requireNonNull(more, "verifiers");
            for (ResultVerifier v : more) {
                verifier(v);
            }
            return this;
        }

        /**
         * Sets the executor that runs {@link SqlAgent#askAsync}. By default the agent creates its own, sized for
         * blocking work (a virtual thread per question on JDK 21 and later, else a pool of daemon platform
         * threads) and stops it on {@link SqlAgent#close()}. A host executor is used as given and never shut
         * down by the agent; it must start tasks that block on the model and the database without starving
         * (a work-stealing pool with a core per thread is a poor choice).
         *
         * @param executor the host's executor
         * @return this
         * @throws NullPointerException if the executor is null
         */
        public Builder asyncExecutor(Executor executor) {
            this.asyncExecutor = Objects.requireNonNull(executor, "asyncExecutor");
            return this;
        }

        /**
         * Sets what every question may spend: model calls, tokens and time, and what each of its statements may
         * take from the database (scanned bytes, memory: only where the engine enforces them, else
         * {@link #build()} fails, see {@link QuestionBudget}). A request's own budget
         * ({@link Question#withBudget}) replaces the limits it sets. Default: {@link QuestionBudget#unlimited()}.
         *
         * @param budget the limits
         * @return this
         * @throws NullPointerException if the budget is null
         */
        public Builder budget(QuestionBudget budget) {
            this.budget = Objects.requireNonNull(budget, "budget");
            return this;
        }

        /**
         * Sets a hook that receives the {@link HandOff} of every question that is rejected or fails, after its
         * result is made and its case handed to the sinks, on the asking thread: for example to open a ticket
         * for a person. A hook that throws is logged at WARN and ignored; it should not block for long (hand
         * slow work to the host's own executor).
         *
         * @param hook the hook
         * @return this
         * @throws NullPointerException if the hook is null
         */
        public Builder onHandOff(java.util.function.Consumer<HandOff> hook) {
            this.onHandOff = Objects.requireNonNull(hook, "onHandOff");
            return this;
        }

        /**
         * Sets the clock that stamps the trace.
         *
         * @param clock stamps the trace
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Sets whether the single correction may happen (default true).
         *
         * @param enabled whether the single correction may happen (default true)
         * @return this builder
         */
        public Builder correction(boolean enabled) {
            this.correctionEnabled = enabled;
            return this;
        }

        /**
         * Sets whether verifier findings may use the correction (default true).
         *
         * @param enabled whether verifier findings may use the correction (default true)
         * @return this builder
         */
        public Builder correctAnomalies(boolean enabled) {
            this.correctAnomalies = enabled;
            return this;
        }

        /**
         * Sets the longest question accepted, at least 1.
         *
         * @param max the longest question accepted, at least 1
         * @return this builder
         */
        public Builder maxQuestionLength(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxQuestionLength must be > 0 but was " + max);
            }
            this.maxQuestionLength = max;
            return this;
        }

        /**
         * Sets the refiner's temperature, 0 to 2.
         *
         * @param temperature the refiner's temperature, 0 to 2
         * @return this builder
         */
        public Builder temperature(double temperature) {
            if (!(temperature >= 0 && temperature <= 2)) {
                throw new IllegalArgumentException("temperature must be in [0, 2] but was " + temperature);
            }
            this.temperature = temperature;
            return this;
        }

        /**
         * How many candidate SQLs the refiner writes per question (one request with {@code n}; more
         * requests if the client returns fewer). Each is cleaned and guarded on its own; the result
         * most candidates agree on wins. 3 is a good choice with a sampling temperature above 0.
         *
         * @param n 1 to {@value SqlAgent#MAX_CANDIDATES}
         * @return this
         */
        public Builder candidates(int n) {
            if (n < 1 || n > MAX_CANDIDATES) {
                throw new IllegalArgumentException("candidates must be in [1, " + MAX_CANDIDATES + "] but was " + n);
            }
            this.candidates = n;
            return this;
        }

        /**
         * What a policy violation by one of several candidates does. By default ({@code false}) it is a
         * validation failure of the question: the question ends REJECTED, every violating candidate in
         * {@link AgentResult.Rejected#candidates()}, with no further model call. With {@code true} the
         * violating candidates are dropped and the others answer, but then the question is never corrected,
         * the violation is counted whatever the question's ending ({@link AgentMetrics#droppedViolations()})
         * and flagged on an answer ({@link AgentResult.Answered#droppedCandidates()}). Names of tables the
         * database does not have are not violations either way: they are corrected as a missing table.
         *
         * @param drop whether to drop violating candidates instead of rejecting the question
         * @return this
         */
        public Builder dropViolatingCandidates(boolean drop) {
            this.dropViolatingCandidates = drop;
            return this;
        }

        /**
         * Whether a judge model reviews each chosen result (one more model call per question) and breaks
         * ties between equally large groups of candidates. A verdict "incorrect" uses the single
         * correction with the judge's advice. The judge is the {@link AgentRole#JUDGE} model if one was
         * given, else the refiner's. Off by default.
         *
         * @param enabled whether to judge
         * @return this
         */
        public Builder judge(boolean enabled) {
            this.judge = enabled;
            return this;
        }

        /**
         * Sets the sampling temperature of one role.
         *
         * @param role a role
         * @param temperature its sampling temperature, 0 to 2 (default: the refiner's, 0)
         * @return this
         */
        public Builder temperature(AgentRole role, double temperature) {
            Objects.requireNonNull(role, "role");
            if (!(temperature >= 0 && temperature <= 2)) {
                throw new IllegalArgumentException("temperature must be in [0, 2] but was " + temperature);
            }
            temperatures.put(role, temperature);
            return this;
        }

        /**
         * Sets when the Selector prunes the schema (default {@link StageMode#AUTO}).
         *
         * @param mode when the Selector prunes the schema (default {@link StageMode#AUTO}: when the schema
         *     exceeds the refiner's token budget)
         * @return this
         */
        public Builder selector(StageMode mode) {
            this.selectorMode = Objects.requireNonNull(mode, "selector");
            return this;
        }

        /**
         * Sets when the Decomposer plans (default {@link StageMode#AUTO}: for complex questions).
         *
         * @param mode when the Decomposer plans (default {@link StageMode#AUTO}: for complex questions)
         * @return this
         */
        public Builder decomposer(StageMode mode) {
            this.decomposerMode = Objects.requireNonNull(mode, "decomposer");
            return this;
        }

        /**
         * Sets the prompt token budgets per stage; for what a question may spend, see {@link #budget}.
         *
         * @param budgets token budgets per stage (default {@link TokenBudgets#DEFAULTS})
         * @return this builder
         */
        public Builder tokenBudgets(TokenBudgets budgets) {
            this.budgets = Objects.requireNonNull(budgets, "tokenBudgets");
            return this;
        }

        /**
         * Registers a vetted metric template, tried before text-to-SQL (see {@link MetricTool}).
         *
         * @param tool the metric
         * @return this
         * @throws IllegalArgumentException if a metric of that name is already registered
         */
        public Builder metricTool(MetricTool tool) {
            Objects.requireNonNull(tool, "metricTool");
            for (MetricTool t : metricTools) {
                if (t.name().equalsIgnoreCase(tool.name())) {
                    throw new IllegalArgumentException("metric '" + tool.name() + "' is already registered");
                }
            }
            metricTools.add(tool);
            return this;
        }

        /**
         * Sets whether verified fixes are reused without asking the model again (default true).
         *
         * @param enabled whether verified fixes are reused without asking the model again (default true):
         *     a correction whose failed SQL, error category and message match one already fixed takes that
         *     fix, which still passes the guard and runs
         * @return this
         */
        public Builder fixCache(boolean enabled) {
            this.fixCache = enabled;
            return this;
        }

        /**
         * Where verified fixes are kept (default: in memory, {@value dev.sqlagent.cases.FixStore#DEFAULT_SIZE}
         * fixes, 24 hours after their last use). A {@link dev.sqlagent.cases.JdbcFixStore} on a database that
         * several instances reach lets a fix learnt by one serve them all; every fix it returns is checked by
         * this agent's guard before it runs, and a failing store is "no fix", never a failed question.
         * {@link #fixCache(boolean) fixCache(false)} turns the reuse off whatever the store.
         *
         * @param store the store
         * @return this
         */
        public Builder fixStore(dev.sqlagent.cases.FixStore store) {
            this.fixStore = Objects.requireNonNull(store, "fixStore");
            return this;
        }

        /**
         * Learns from every case and retrieves from them: verified answers become few-shot examples for
         * similar questions, corrections become repairs shown in similar corrections. The library is also
         * added as a case sink.
         *
         * @param library the case library
         * @return this
         */
        public Builder caseLibrary(CaseLibrary library) {
            this.caseLibrary = Objects.requireNonNull(library, "caseLibrary");
            return this;
        }

        /**
         * Where candidates run at once, and how many at most. By default the agent keeps its own pool of
         * {@value SqlAgent#DEFAULT_CANDIDATE_PARALLELISM} daemon threads (created on first use, idle ones
         * retired); give an executor to control threads yourself, or parallelism 1 to run candidates one
         * after another on the asking thread.
         *
         * @param executor the executor, or null for the agent's own pool
         * @param parallelism how many at once, 1 to 64
         * @return this
         */
        public Builder candidateExecution(Executor executor, int parallelism) {
            if (parallelism < 1 || parallelism > 64) {
                throw new IllegalArgumentException("parallelism must be in [1, 64] but was " + parallelism);
            }
            this.candidateExecutor = executor;
            this.candidateParallelism = parallelism;
            return this;
        }

        /**
         * Sets the prompt templates, to override the shipped ones.
         *
         * @param prompts the prompt templates, to override the shipped ones
         * @return this builder
         */
        public Builder prompts(PromptTemplates prompts) {
            this.prompts = Objects.requireNonNull(prompts, "prompts");
            return this;
        }

        /**
         * Sets the time one statement may run, when the agent is built from a {@link DataSource}: the
         * statement is cancelled in the database past it and the question ends {@code FAILED}
         * ({@link dev.sqlagent.execution.ErrorCategory#TIMEOUT}, never corrected). It also bounds the engine
         * check's {@code EXPLAIN}. Default {@link JdbcSqlExecutor#DEFAULT_QUERY_TIMEOUT} (30 s); at least
         * one second (JDBC counts whole seconds). A custom {@link #executor} bounds its own statements: with
         * one, setting this is an error at {@link #build()}. The question's own deadline
         * ({@link QuestionBudget#withDeadline}) still applies on top.
         *
         * @param timeout the longest a statement may run, at least one second
         * @return this builder
         * @throws NullPointerException if the timeout is null
         * @throws IllegalArgumentException if the timeout is under one second
         */
        public Builder queryTimeout(java.time.Duration timeout) {
            Objects.requireNonNull(timeout, "queryTimeout");
            if (timeout.compareTo(java.time.Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("queryTimeout must be >= 1s but was " + timeout);
            }
            this.queryTimeout = timeout;
            return this;
        }

        private SchemaCatalog enriched(SchemaCatalog catalog) {
            return enrichment == null ? catalog : catalog.enrich(enrichment);
        }

        /**
         * Whether the database's own planner confirms, before each accepted statement runs, that it reads
         * only what the policy allows ({@link dev.sqlagent.guard.engine.EngineCheck}); a disagreement is a
         * security event and ends the question REJECTED. On by default where the engine allows it (a
         * {@link #dataSource} on SQLite, PostgreSQL, MariaDB, MySQL or H2); a custom executor has none.
         *
         * @param enabled whether to ask the engine
         * @return this
         */
        public Builder engineCheck(boolean enabled) {
            this.engineCheck = enabled;
            return this;
        }

        /**
         * MariaDB and MySQL: a second login of the same database with which the {@link #engineCheck engine
         * check} plans statements, for a {@link #dataSource} login granted only the policy's columns. Their
         * optimizer trace, which the check reads, is shown only to a login with table-level {@code SELECT} on
         * every table of the statement; without it the check refuses every statement on a table with
         * column grants. The planning login only ever runs {@code EXPLAIN}, and only after the run login has
         * prepared the statement under its own privileges
         * ({@link dev.sqlagent.guard.engine.EngineCheck#plannedBy}); the grants are in {@code docs/security.md}.
         * Not set by default (the run login plans); {@link #build()} fails on any other dialect.
         *
         * @param planningDataSource the planning login's connections: same server, same database
         * @return this
         */
        public Builder planningDataSource(DataSource planningDataSource) {
            this.planningDataSource = Objects.requireNonNull(planningDataSource, "planningDataSource");
            return this;
        }

        /**
         * Builds the agent; the builder may be used again. With a {@link #dataSource} and no
         * {@link #dialect}, one connection is opened to read the database's product name. The schema
         * catalog is read here too, to resolve the policy's names (closed world: every allowed table, denied
         * column, row filter and metric tool's table must name something the database has); when it cannot
         * be read, that is logged once and the names are resolved on the first question instead, which
         * fails while one does not resolve.
         *
         * @return the agent, to be closed ({@link SqlAgent#close()}) when no longer needed
         * @throws IllegalStateException naming what is missing or inconsistent: no model ({@link #llm}), no
         *     policy ({@link #policy}), neither or both of {@link #dataSource} and {@link #executor}; with a
         *     custom executor, no {@link #dialect} or {@link #schema}, or a {@link #queryTimeout} it would
         *     ignore; a {@link #budget} scan or memory cap the engine (or a custom executor) cannot enforce; a data
         *     source that cannot be reached to detect its dialect (the cause is the
         *     {@link java.sql.SQLException}; pass {@link #dialect} to build without a connection); a schema
         *     with no table the policy allows; a {@link #metricTool} the guard refuses under the policy
         * @throws dev.sqlagent.guard.PolicyResolutionException (an {@link IllegalStateException}) when a name of
         *     the policy (allowed table, denied column, row filter's table or column, metric tool's table)
         *     resolves to nothing the database has, each named with the nearest real names
         */
        public SqlAgent build() {
            if (!models.containsKey(AgentRole.REFINER)) {
                throw new IllegalStateException("a model is required: call llm(client)");
            }
            if (policy == null) {
                throw new IllegalStateException(
                        "a guard policy is required: call policy(GuardPolicy.allowingTables(...))");
            }
            GuardPolicy agentPolicy = policy; // the host's, or resolved against the session's names below
            if (dataSource == null && executor == null) {
                throw new IllegalStateException("a database is required: call dataSource(ds) or executor(executor)");
            }
            if (dataSource != null && executor != null) {
                throw new IllegalStateException("give either dataSource(ds) or executor(executor), not both");
            }
            SqlExecutor exec = executor;
            Dialect d = dialect;
            SchemaSource source;
            if (dataSource != null) {
                JdbcSqlExecutor.Builder jb = JdbcSqlExecutor.builder(dataSource).queryTimeout(queryTimeout)
                        .maxRows(policy.maxRows()).clock(clock);
                if (d != null) {
                    jb.dialect(d);
                }
                if (d == null) {
                    try (java.sql.Connection c = dataSource.getConnection()) {
                        d = Dialect.fromProductName(c.getMetaData().getDatabaseProductName());
                    } catch (java.sql.SQLException e) {
                        throw new IllegalStateException("cannot reach the database to detect its dialect ("
                                + e.getMessage() + "); pass dialect(...) to build the agent without a connection", e);
                    }
                    jb.dialect(d);
                }
                JdbcSqlExecutor jdbc = jb.build();
                exec = jdbc;
                // schema reads have no statement to time out: every read of theirs is bounded like an execution's
                // a planning login (MariaDB, MySQL) reads the catalog: a login with column grants does not see the
                // columns it may not read, nor the indexes and foreign keys over them, which the policy's closed
                // world, the index-order defence and the join hints need; what the model is shown is still only
                // what the policy allows
                DataSource ds = dev.sqlagent.internal.NetworkTimeouts.bounded(
                        planningDataSource != null ? planningDataSource : dataSource, jdbc.networkTimeout().toMillis());
                if (dev.sqlagent.engine.Engines.of(d).database().bindsNamesBySession()) {
                    // one table, several names on the session (Trino's catalog.schema.table): every name gets the
                    // entry's rules, resolved once against the login's own session
                    try (java.sql.Connection c = ds.getConnection()) {
                        agentPolicy = dev.sqlagent.engine.Engines.of(d).database().sessionNames(c, agentPolicy);
                    } catch (java.sql.SQLException ex) {
                        throw new IllegalStateException("cannot read the session's catalog and schema to resolve the"
                                + " policy's table names (" + ex.getMessage() + ")", ex);
                    }
                }
                GuardPolicy p = agentPolicy;
                dev.sqlagent.schema.SchemaEnrichment e = enrichment;
                SchemaCatalog given = schema == null ? null : enriched(schema);
                // a host's own schema is told the database's other tables, so that a forbidden table is a
                // violation and never "corrected" as a name the model invented
                Dialect dd = d;
                source = given != null ? SchemaSource.lazy(() -> given.withDatabaseTables(
                        SchemaCatalog.databaseTableNames(ds)).withDatabaseObjects(databaseObjects(ds, dd)))
                        : SchemaSource.lazy(() -> {
                    SchemaCatalog read = SchemaCatalog.introspect(ds, p);
                    return (e == null ? read : read.enrich(e)).withDatabaseObjects(databaseObjects(ds, dd));
                });
            } else {
                if (d == null) {
                    throw new IllegalStateException("with a custom executor a dialect is required: call dialect(...)");
                }
                if (schema == null) {
                    throw new IllegalStateException("with a custom executor a schema is required: call schema(...)");
                }
                source = SchemaSource.fixed(enriched(schema));
            }
            dev.sqlagent.internal.BuildChecks.Settings settings = new dev.sqlagent.internal.BuildChecks.Settings(agentPolicy,
                    guard, d, schema, metricTools, executor != null, queryTimeout, models, judge, selectorMode,
                    decomposerMode);
            dev.sqlagent.internal.BuildChecks.check(settings);
            String unenforced = dev.sqlagent.internal.BuildChecks.unenforcedCaps(budget, d, exec instanceof JdbcSqlExecutor);
            if (unenforced != null) {
                throw new IllegalStateException(unenforced + " (budget vs " + (executor != null ? "executor" : "dataSource")
                        + ")");
            }
            try {
                // closed world for the policy too: a misspelt denial must not leave the real column open
                // (with a planning login, the catalog is that login's view: see the schema source above)
                dev.sqlagent.internal.BuildChecks.checkResolves(source.get(), settings);
            } catch (java.sql.SQLException e) {
                dev.sqlagent.internal.BuildChecks.unresolvedAtBuild(e.getMessage());
            }
            // the agent's own candidate pool, stopped by close(); a host's executor is only bounded
            java.util.concurrent.ExecutorService candidatePool = candidateParallelism > 1 && candidateExecutor == null
                    ? Bounded.ownPool(candidateParallelism) : null;
            Executor parallel = candidatePool != null || candidateParallelism == 1 ? candidatePool
                    : Bounded.executor(candidateExecutor, candidateParallelism);
            AgentConfig config = new AgentConfig(models, exec, d, agentPolicy, guard, SqlCleaner.create(), source,
                    verifiers, listeners, clock, correctionEnabled, correctAnomalies, maxQuestionLength, temperature,
                    candidates, judge, prompts, temperatures, selectorMode, decomposerMode, budgets, metricTools,
                    Caffeine.newBuilder().maximumSize(10_000).expireAfterAccess(java.time.Duration.ofMinutes(30))
                            .<String, Map<String, java.util.Set<String>>>build(),
                    fixCache ? FixCache.over(fixStore) : null, caseLibrary,
                    parallel,
                    dropViolatingCandidates,
                    newEngineCheck(d));
            return new SqlAgent(this, config, candidatePool);
        }

        private dev.sqlagent.guard.engine.EngineCheck newEngineCheck(Dialect d) {
            if (planningDataSource != null
                    && (d == null || !dev.sqlagent.engine.Engines.of(d).database().plansWithSecondLogin())) {
                throw new IllegalArgumentException("planningDataSource is for MariaDB and MySQL, not " + d);
            }
            if (!engineCheck || dataSource == null || !dev.sqlagent.guard.engine.EngineCheck.supports(d)) {
                return null;
            }
            dev.sqlagent.guard.engine.EngineCheck check = dev.sqlagent.guard.engine.EngineCheck.create(dataSource, d,
                    queryTimeout.compareTo(java.time.Duration.ofSeconds(1)) < 0
                            ? java.time.Duration.ofSeconds(1) : queryTimeout);
            return planningDataSource == null ? check : check.plannedBy(planningDataSource);
        }
    }
}
