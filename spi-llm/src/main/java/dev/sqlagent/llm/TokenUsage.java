package dev.sqlagent.llm;

/**
 * Tokens a model call consumed, as the provider reported them (zero when it reported nothing).
 *
 * @param inputTokens tokens of the prompt
 * @param outputTokens tokens of all the returned choices
 */
public record TokenUsage(long inputTokens, long outputTokens) {

    /** No tokens: the usage of a call whose provider reported none. */
    public static final TokenUsage NONE = new TokenUsage(0, 0);

    /**
     * Checks the counts.
     *
     * @param inputTokens tokens of the prompt, at least 0
     * @param outputTokens tokens of all the returned choices, at least 0
     * @throws IllegalArgumentException if a count is negative
     */
    public TokenUsage {
        if (inputTokens < 0 || outputTokens < 0) {
            throw new IllegalArgumentException(
                    "token counts must be >= 0 but were input=" + inputTokens + ", output=" + outputTokens);
        }
    }

    /** {@return input plus output tokens} */
    public long totalTokens() {
        return inputTokens + outputTokens;
    }

    /**
     * Adds two usages, as when one question makes several model calls.
     *
     * @param other another usage, not null
     * @return the sum of both
     */
    public TokenUsage plus(TokenUsage other) {
        return new TokenUsage(inputTokens + other.inputTokens, outputTokens + other.outputTokens);
    }
}
