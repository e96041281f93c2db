package dev.sqlagent.trace;

/**
 * Hears every stage transition of every question, synchronously on the asking thread. A listener that
 * throws is logged and ignored; it never changes the question's outcome. Keep it fast.
 */
@FunctionalInterface
public interface StageListener {

    /** @param transition the move just made */
    void onTransition(StageTransition transition);
}
