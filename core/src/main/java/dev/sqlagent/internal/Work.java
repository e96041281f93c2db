package dev.sqlagent.internal;

/**
 * Units of work the library does for a question, counted exactly (not timed) so that a change that adds
 * work per question shows in a deterministic test ({@code GovernanceCostTest}) rather than in a noisy
 * benchmark. Counted on the question's {@link RunScope}, whichever of its threads does the work.
 */
public enum Work {
    /** A run of JSqlParser over a statement (the simple grammar and the complex one count one each). */
    PARSE,
    /** A pass of the library's own lexer over a statement's text. */
    LEXER_PASS,
    /** Work handed to another thread (a candidate run in parallel, a helper thread of the executor). */
    HAND_OFF;

    /** Counts one unit of this work on the question bound to the current thread, if any. */
    public void count() {
        RunScope scope = RunScope.current();
        if (scope != null) {
            scope.count(this);
        }
    }
}
