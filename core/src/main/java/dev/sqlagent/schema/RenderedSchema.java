package dev.sqlagent.schema;

import java.util.List;
import java.util.Objects;

/**
 * A schema rendered for a prompt.
 *
 * @param text the text to put in the prompt (may be empty when nothing fits)
 * @param estimatedTokens the estimate of {@code text}'s tokens, never above the budget it was rendered for
 * @param omitted what was cut to fit the budget, in the order it was cut, e.g.
 *     {@code "sample values of orders"}, {@code "column orders.customer"}, {@code "table audit_log"};
 *     empty when nothing was cut
 */
public record RenderedSchema(String text, int estimatedTokens, List<String> omitted) {
    /**
     * Checks and copies the parts.
     *
     * @param text the text to put in the prompt (may be empty when nothing fits)
     * @param estimatedTokens the estimate of {@code text}'s tokens, never above the budget it was rendered for
     * @param omitted what was cut to fit the budget, in the order it was cut, e.g.
     *     {@code "sample values of orders"}, {@code "column orders.customer"}, {@code "table audit_log"};
     *     empty when nothing was cut
     */
    public RenderedSchema {
        Objects.requireNonNull(text, "text");
        if (estimatedTokens < 0) {
            throw new IllegalArgumentException("estimatedTokens must be >= 0 but was " + estimatedTokens);
        }
        omitted = List.copyOf(omitted);
    }

    /** {@return whether anything was cut} */
    public boolean truncated() {
        return !omitted.isEmpty();
    }
}
