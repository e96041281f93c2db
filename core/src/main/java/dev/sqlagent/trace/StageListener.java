package dev.sqlagent.trace;

/**
 * Hears every stage transition of every question, synchronously on the thread that runs the question
 * (the caller's for {@code ask}, the agent's executor's for {@code askAsync}), before the question goes
 * on. The transitions of one question arrive in order; those of different questions arrive concurrently,
 * so implementations must be thread-safe. A listener that throws is logged and ignored: it never changes
 * the question's outcome, and the other listeners still hear the transition. Keep it fast, since the
 * question waits for it; hand slow work to another thread.
 */
@FunctionalInterface
public interface StageListener {

    /**
     * Called after each stage transition of a question.
     *
     * @param transition the move just made, never null
     */
    void onTransition(StageTransition transition);
}
