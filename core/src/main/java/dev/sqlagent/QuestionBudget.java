package dev.sqlagent;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What one question may spend: model calls, tokens and time. A question that would go over a limit ends
 * {@link AgentResult.Failed} with its own {@link FailureKind} ({@link FailureKind#MODEL_CALLS_EXCEEDED},
 * {@link FailureKind#TOKENS_EXCEEDED}, {@link FailureKind#DEADLINE_EXCEEDED}) and the trace so far.
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
 *     .withDeadline(Duration.ofSeconds(30));
 * }</pre>
 */
public final class QuestionBudget {

    private static final QuestionBudget UNLIMITED = new QuestionBudget(0, 0, null);

    private final int maxModelCalls;
    private final long maxTokens;
    private final Duration deadline;

    private QuestionBudget(int maxModelCalls, long maxTokens, Duration deadline) {
        this.maxModelCalls = maxModelCalls;
        this.maxTokens = maxTokens;
        this.deadline = deadline;
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
        return new QuestionBudget(max, maxTokens, deadline);
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
        return new QuestionBudget(maxModelCalls, max, deadline);
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
        return new QuestionBudget(maxModelCalls, maxTokens, deadline);
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
                override.deadline != null ? override.deadline : deadline);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QuestionBudget b && b.maxModelCalls == maxModelCalls && b.maxTokens == maxTokens
                && Objects.equals(b.deadline, deadline);
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxModelCalls, maxTokens, deadline);
    }

    @Override
    public String toString() {
        return "QuestionBudget[maxModelCalls=" + (maxModelCalls == 0 ? "none" : maxModelCalls) + ", maxTokens="
                + (maxTokens == 0 ? "none" : maxTokens) + ", deadline=" + (deadline == null ? "none" : deadline) + "]";
    }
}
