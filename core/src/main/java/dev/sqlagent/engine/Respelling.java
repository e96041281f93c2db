package dev.sqlagent.engine;

import dev.sqlagent.guard.Violation;

/** What one spelling for the parser gives: the SQL it respelled, whether it did, or why it refuses it. */
public interface Respelling {

    /** @return the SQL for the parser (the input when nothing was respelled) */
    String sql();

    /** @return why the statement is refused, or null */
    Violation violation();

    /** @return whether the SQL for the parser differs from the input */
    boolean respelled();

    /**
     * The guard's lexing after a spelling: the spelling's refusal, its respelled SQL lexed again (which may
     * itself be refused), or the same lexing when nothing was respelled.
     */
    @FunctionalInterface
    interface Relexer {
        /**
         * @param spelling what a spelling gave
         * @param lexed the lexing it was given
         * @return the lexing the parse goes on with
         */
        SqlLexer.Result after(Respelling spelling, SqlLexer.Result lexed);
    }
}
