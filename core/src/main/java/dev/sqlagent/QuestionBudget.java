package dev.sqlagent;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What one question may spend: model calls, tokens and time, and what each of its statements may take from
 * the database (bytes scanned, memory). A question that would go over a limit of its own ends
 * {@link AgentResult.Failed} with its own {@link FailureKind} ({@link FailureKind#MODEL_CALLS_EXCEEDED},
 * {@link FailureKind#TOKENS_EXCEEDED}, {@link FailureKind#DEADLINE_EXCEEDED}) and the trace so far; a statement
 * over a database cap is stopped by the database and ends the question {@link FailureKind#ENVIRONMENT}
 * ({@link dev.sqlagent.execution.ErrorCategory#RESOURCE_LIMIT}, never corrected).
 *
 * <ul>
 *   <li><b>Model calls</b> are counted before each call: a call that would be one too many is not made.
 *       Extra candidate requests (for a model that ignores {@code n}) are cut to what is left, so the
 *       question goes on with fewer candidates rather than failing.</li>
 *   <li><b>Tokens</b> (input plus output, as the model reports them) are counted after each call: the
 *       question ends as soon as the total passes the limit.</li>
 *   <li>SQL written by the call that spent the budget is still guarded (no model call is needed): a
 *       policy violation ends the question {@link AgentResult.Rejected}, as it would within the budget;
 *       other SQL is never run.</li>
 *   <li>The <b>deadline</b> runs from the moment the agent starts the question. It is checked between
 *       stages, and when it passes it interrupts a model call under way (the client must answer an
 *       interrupt, as the bundled ones do) and cancels a statement under way (with the agent's own JDBC
 *       executor; a custom {@link dev.sqlagent.execution.SqlExecutor} is only stopped between stages).</li>
 *   <li>The <b>scan cap</b> and the <b>memory cap</b> ({@link #withMaxScanBytes}, {@link #withMaxMemoryBytes})
 *       bound each statement the question runs, not their sum: the database itself counts and kills a
 *       statement that goes over (Trino: {@code query_max_scan_physical_bytes}, {@code query_max_memory} and
 *       {@code query_max_total_memory} in the session, {@code EXCEEDED_SCAN_LIMIT},
 *       {@code EXCEEDED_GLOBAL_MEMORY_LIMIT}), and the question ends {@link FailureKind#ENVIRONMENT}. They are
 *       part of the budget, like the deadline, because they are what the caller lets one question cost, and a
 *       request may carry its own (one client's questions may use more memory than another's). They are
 *       honoured only where the engine has such a setting and statements run on a
 *       {@link dev.sqlagent.execution.JdbcSqlExecutor} (the one the agent builds from a data source, or one the
 *       host gives); elsewhere a cap set on the builder fails {@link SqlAgent.Builder#build()} with an
 *       {@link IllegalStateException}, and one set on a request fails {@code ask} with an
 *       {@link IllegalArgumentException}, naming the engine. A cap the agent could not enforce would be a
 *       promise it breaks silently, so it is refused rather than ignored; no cap is the default, so no
 *       existing configuration meets this error.</li>
 * </ul>
 *
 * <p>Set on the builder ({@link SqlAgent.Builder#budget}) for every question, and per request
 * ({@link Question#withBudget}): a limit set on the request replaces the agent's limit of the same kind;
 * the others still apply. Immutable.
 *
 * <pre>{@code
 * QuestionBudget budget = QuestionBudget.unlimited()
 *     .withMaxModelCalls(4)
 *     .withMaxTokens(20_000)
 *     .withDeadline(Duration.ofSeconds(30))
 *     .withMaxMemoryBytes(2L << 30); // each statement: at most 2 GiB across the cluster (Trino)
 * }</pre>
 */
public final class QuestionBudget {

    private static final QuestionBudget UNLIMITED = new QuestionBudget(0, 0, null, 0, 0);

    private final int maxModelCalls;
    private final long maxTokens;
    private final Duration deadline;
    private final long maxScanBytes;
    private final long maxMemoryBytes;

    private QuestionBudget(int maxModelCalls, long maxTokens, Duration deadline, long maxScanBytes,
            long maxMemoryBytes) {
        this.maxModelCalls = maxModelCalls;
        this.maxTokens = maxTokens;
        this.deadline = deadline;
        this.maxScanBytes = maxScanBytes;
        this.maxMemoryBytes = maxMemoryBytes;
    }

    /**
     * Returns the budget with no limit, the agent's default.
     *
     * @return a budget with no limit
     */
    public static QuestionBudget unlimited() {
        return UNLIMITED;
    }

    /**
     * Returns a copy limiting model calls.
     *
     * @param max the most model calls per question, at least 1
     * @return a copy with the limit
     * @throws IllegalArgumentException if {@code max} is below 1
     */
    public QuestionBudget withMaxModelCalls(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("maxModelCalls must be >= 1 but was " + max);
        }
        return new QuestionBudget(max, maxTokens, deadline, maxScanBytes, maxMemoryBytes);
    }

    /**
     * Returns a copy limiting tokens.
     *
     * @param max the most tokens (input plus output, all calls) per question, at least 1
     * @return a copy with the limit
     * @throws IllegalArgumentException if {@code max} is below 1
     */
    public QuestionBudget withMaxTokens(long max) {
        if (max < 1) {
            throw new IllegalArgumentException("maxTokens must be >= 1 but was " + max);
        }
        return new QuestionBudget(maxModelCalls, max, deadline, maxScanBytes, maxMemoryBytes);
    }

    /**
     * Returns a copy with a deadline.
     *
     * @param deadline the longest a question may take, from its start; positive
     * @return a copy with the deadline
     * @throws IllegalArgumentException if the deadline is zero or negative
     * @throws NullPointerException if the deadline is null
     */
    public QuestionBudget withDeadline(Duration deadline) {
        Objects.requireNonNull(deadline, "deadline");
        if (deadline.isZero() || deadline.isNegative()) {
            throw new IllegalArgumentException("deadline must be positive but was " + deadline);
        }
        return new QuestionBudget(maxModelCalls, maxTokens, deadline, maxScanBytes, maxMemoryBytes);
    }

    /**
     * Returns a copy capping the bytes each statement of the question may read from storage, as the engine
     * counts them (Trino: the physical input bytes its connectors report, {@code query_max_scan_physical_bytes};
     * a connector that reports none, such as {@code tpch}, is never stopped by it, and the coordinator compares
     * a running query with the cap about once a second, so a statement quicker than that may read past it). A
     * statement over the cap is killed by the engine and the question ends {@link FailureKind#ENVIRONMENT}
     * ({@link dev.sqlagent.execution.ErrorCategory#RESOURCE_LIMIT}), never corrected. Honoured only on an engine
     * that has the setting (Trino); see the class comment for the others.
     *
     * @param max the most bytes one statement may scan, at least 1
     * @return a copy with the cap
     * @throws IllegalArgumentException if {@code max} is below 1
     */
    public QuestionBudget withMaxScanBytes(long max) {
        if (max < 1) {
            throw new IllegalArgumentException("maxScanBytes must be >= 1 but was " + max);
        }
        return new QuestionBudget(maxModelCalls, maxTokens, deadline, max, maxMemoryBytes);
    }

    /**
     * Returns a copy capping the memory each statement of the question may hold across the engine (Trino:
     * {@code query_max_memory} and {@code query_max_total_memory}; the cluster's own, lower cap still wins, and a
     * node's share of it, {@code query.max-memory-per-node}, is the cluster's alone). A
     * statement over the cap is killed by the engine and the question ends {@link FailureKind#ENVIRONMENT}
     * ({@link dev.sqlagent.execution.ErrorCategory#RESOURCE_LIMIT}), never corrected. Honoured only on an engine
     * that has the setting (Trino); see the class comment for the others.
     *
     * @param max the most bytes of memory one statement may use, at least 1
     * @return a copy with the cap
     * @throws IllegalArgumentException if {@code max} is below 1
     */
    public QuestionBudget withMaxMemoryBytes(long max) {
        if (max < 1) {
            throw new IllegalArgumentException("maxMemoryBytes must be >= 1 but was " + max);
        }
        return new QuestionBudget(maxModelCalls, maxTokens, deadline, maxScanBytes, max);
    }

    /**
     * Returns the limit on model calls.
     *
     * @return the most model calls per question, or empty for no limit
     */
    public OptionalInt maxModelCalls() {
        return maxModelCalls == 0 ? OptionalInt.empty() : OptionalInt.of(maxModelCalls);
    }

    /**
     * Returns the limit on tokens.
     *
     * @return the most tokens per question, or empty for no limit
     */
    public OptionalLong maxTokens() {
        return maxTokens == 0 ? OptionalLong.empty() : OptionalLong.of(maxTokens);
    }

    /**
     * Returns the deadline.
     *
     * @return the longest a question may take, or empty for no limit
     */
    public Optional<Duration> deadline() {
        return Optional.ofNullable(deadline);
    }

    /**
     * Returns the scan cap.
     *
     * @return the most bytes one statement may scan, or empty for no cap
     */
    public OptionalLong maxScanBytes() {
        return maxScanBytes == 0 ? OptionalLong.empty() : OptionalLong.of(maxScanBytes);
    }

    /**
     * Returns the memory cap.
     *
     * @return the most bytes of memory one statement may use, or empty for no cap (the engine's own)
     */
    public OptionalLong maxMemoryBytes() {
        return maxMemoryBytes == 0 ? OptionalLong.empty() : OptionalLong.of(maxMemoryBytes);
    }

    /**
     * Whether this budget caps what a statement may take from the database ({@link #maxScanBytes()},
     * {@link #maxMemoryBytes()}), which only some engines can enforce.
     *
     * @return whether a scan or memory cap is set
     */
    boolean capsStatements() {
        return maxScanBytes != 0 || maxMemoryBytes != 0;
    }

    /**
     * Returns this budget with the limits another one sets in place of this one's.
     *
     * @param override a request's budget
     * @return the budget in effect: each limit from {@code override} where it sets one, else from this
     * @throws NullPointerException if {@code override} is null
     */
    public QuestionBudget overriddenBy(QuestionBudget override) {
        Objects.requireNonNull(override, "override");
        return new QuestionBudget(override.maxModelCalls != 0 ? override.maxModelCalls : maxModelCalls,
                override.maxTokens != 0 ? override.maxTokens : maxTokens,
                override.deadline != null ? override.deadline : deadline,
                override.maxScanBytes != 0 ? override.maxScanBytes : maxScanBytes,
                override.maxMemoryBytes != 0 ? override.maxMemoryBytes : maxMemoryBytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QuestionBudget b && b.maxModelCalls == maxModelCalls && b.maxTokens == maxTokens
                && Objects.equals(b.deadline, deadline) && b.maxScanBytes == maxScanBytes
                && b.maxMemoryBytes == maxMemoryBytes;
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxModelCalls, maxTokens, deadline, maxScanBytes, maxMemoryBytes);
    }

    @Override
    public String toString() {
        return "QuestionBudget[maxModelCalls=" + (maxModelCalls == 0 ? "none" : maxModelCalls) + ", maxTokens="
                + (maxTokens == 0 ? "none" : maxTokens) + ", deadline=" + (deadline == null ? "none" : deadline)
                + ", maxScanBytes=" + (maxScanBytes == 0 ? "none" : maxScanBytes) + ", maxMemoryBytes="
                + (maxMemoryBytes == 0 ? "none" : maxMemoryBytes) + "]";
    }
}
