package dev.sqlagent.internal.run;

import dev.sqlagent.FailureKind;
import dev.sqlagent.QuestionBudget;
import dev.sqlagent.internal.RunScope;
import dev.sqlagent.llm.TokenUsage;

/**
 * What one question has spent against its {@link QuestionBudget}, and whether something from outside (its
 * cancellation, its deadline) stopped it. The steps only spend; the driver asks {@link #stop()} after every
 * step and hands the failure to the state machine, so that a budget ends the question in one place.
 * Counting is thread-safe (extra candidate calls run in parallel).
 */
final class Spending {

    private final QuestionBudget budget;
    private final RunScope scope;
    private int calls;
    private long tokens;
    private Outcome.Failed over;

    Spending(QuestionBudget budget, RunScope scope) {
        this.budget = budget;
        this.scope = scope;
    }

    /** @return the question's scope: its cancellation and deadline */
    RunScope scope() {
        return scope;
    }

    /**
     * Takes up to {@code wanted} model calls from the budget.
     *
     * @param wanted calls the step would make
     * @return the calls it may make; 0 when the budget is spent, which ends the question after the step
     */
    synchronized int takeCalls(int wanted) {
        int max = budget.maxModelCalls().orElse(Integer.MAX_VALUE);
        int granted = (int) Math.max(0, Math.min((long) wanted, (long) max - calls));
        calls += granted;
        if (granted == 0 && wanted > 0 && over == null) {
            over = Outcome.Failed.of(FailureKind.MODEL_CALLS_EXCEEDED, "the question's budget of " + max
                    + " model calls is spent; another call was needed");
        }
        return granted;
    }

    /**
     * Takes up to {@code wanted} extra candidate calls from the budget. Unlike {@link #takeCalls}, a budget
     * that cannot grant them all does not end the question: the extra requests are cut to what is left and
     * the question goes on with the candidates it has.
     *
     * @param wanted extra calls the step would make
     * @return the calls it may make, possibly 0
     */
    synchronized int takeExtraCalls(int wanted) {
        int max = budget.maxModelCalls().orElse(Integer.MAX_VALUE);
        int granted = (int) Math.max(0, Math.min((long) wanted, (long) max - calls));
        calls += granted;
        return granted;
    }

    /** @param usage what a call used; past the token limit the question ends after the step */
    synchronized void spent(TokenUsage usage) {
        tokens += usage.totalTokens();
        long max = budget.maxTokens().orElse(Long.MAX_VALUE);
        if (tokens > max && over == null) {
            over = Outcome.Failed.of(FailureKind.TOKENS_EXCEEDED, "the question's model calls used " + tokens
                    + " tokens, over its budget of " + max);
        }
    }

    /** @return the failure that ends the question now, or null to go on */
    synchronized Outcome.Failed stop() {
        java.util.Optional<RunScope.Stop> outside = scope.stopped();
        if (outside.isPresent()) {
            // cancellation and the deadline win over a budget: they are why the last step failed
            return outside.get() == RunScope.Stop.CANCELLED
                    ? Outcome.Failed.of(FailureKind.CANCELLED, "the question was cancelled")
                    : Outcome.Failed.of(FailureKind.DEADLINE_EXCEEDED, "the question ran past its deadline of "
                            + budget.deadline().map(d -> d.toMillis() + " ms").orElse("?"));
        }
        return over;
    }
}
