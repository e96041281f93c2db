package dev.sqlagent;

import java.util.Locale;

/**
 * The roles that call a model. Each may have its own {@link dev.sqlagent.llm.LlmClient} (a cheap one
 * for selection, a strong one for generation); the role's {@link #id()} is the
 * {@link dev.sqlagent.llm.LlmRequest#role()} of its requests, so a {@code dev.sqlagent.testkit.ScriptedLlm}
 * can answer each role from its own queue.
 */
public enum AgentRole implements dev.sqlagent.llm.ModelRole {
    /** Writes the SQL and repairs it in the single correction. */
    REFINER,
    /** Prunes a large schema to what the question needs. */
    SELECTOR,
    /** Splits a complex question into steps. */
    DECOMPOSER,
    /** Judges whether a result answers the question. */
    JUDGE,
    /** Rewrites a follow-up into a self-contained question. */
    REWRITER,
    /** Picks the vetted metric template that answers a question, if one does. */
    ROUTER;

    /** {@return the role's id in model requests, e.g. {@code "refiner"}} */
    @Override
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
