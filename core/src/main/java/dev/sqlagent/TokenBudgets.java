package dev.sqlagent;

/**
 * Token budgets of the prompt parts each role reads, in estimated tokens. The defaults follow the
 * MAC-SQL write-up for an 8k window (selector input 3k, decomposer 1k, refiner 2k); scale them to the
 * model's window with {@link #scaledTo(int)}. A rendered schema never exceeds its stage's budget; what
 * had to be cut is noted in the trace.
 *
 * @param selectorInput the whole schema shown to the selector
 * @param decomposerInput the selected schema shown to the decomposer
 * @param refinerInput the schema shown to the refiner; a schema over it is pruned by the selector
 */
public record TokenBudgets(int selectorInput, int decomposerInput, int refinerInput) {

    /** The defaults, for an 8k-token window. */
    public static final TokenBudgets DEFAULTS = new TokenBudgets(3000, 1000, 2000);
    private static final int DEFAULT_WINDOW = 8000;

    /**
     * Checks that every budget is at least 100 tokens.
     *
     * @param selectorInput the whole schema shown to the selector, at least 100
     * @param decomposerInput the selected schema shown to the decomposer, at least 100
     * @param refinerInput the schema shown to the refiner, at least 100
     * @throws IllegalArgumentException if a budget is below 100
     */
    public TokenBudgets {
        if (selectorInput < 100 || decomposerInput < 100 || refinerInput < 100) {
            throw new IllegalArgumentException("token budgets must be >= 100 but were selector=" + selectorInput
                    + ", decomposer=" + decomposerInput + ", refiner=" + refinerInput);
        }
    }

    /**
     * Scales the {@link #DEFAULTS} to a model's context window.
     *
     * @param windowTokens the model's context window in tokens, at least 2000
     * @return the defaults scaled by {@code windowTokens / 8000}
     * @throws IllegalArgumentException if {@code windowTokens} is below 2000
     */
    public static TokenBudgets scaledTo(int windowTokens) {
        if (windowTokens < 2000) {
            throw new IllegalArgumentException("windowTokens must be >= 2000 but was " + windowTokens);
        }
        double f = (double) windowTokens / DEFAULT_WINDOW;
        return new TokenBudgets((int) (DEFAULTS.selectorInput * f), (int) (DEFAULTS.decomposerInput * f),
                (int) (DEFAULTS.refinerInput * f));
    }
}
