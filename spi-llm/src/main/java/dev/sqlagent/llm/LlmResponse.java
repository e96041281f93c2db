package dev.sqlagent.llm;

import java.util.List;
import java.util.Objects;

/**
 * A model's answer: one text per choice, the tokens it cost, the model that answered.
 *
 * @param texts one text per choice, in order; unmodifiable
 * @param usage tokens used, {@link TokenUsage#NONE} when unknown
 * @param model the model name the provider reported, or empty when unknown
 */
public record LlmResponse(List<String> texts, TokenUsage usage, String model) {

    /**
     * Copies and checks the parts.
     *
     * @param texts one text per choice, in order; copied
     * @param usage tokens used, {@link TokenUsage#NONE} when unknown
     * @param model the model name the provider reported, or empty when unknown
     * @throws NullPointerException if a part or a text is null
     */
    public LlmResponse {
        texts = List.copyOf(Objects.requireNonNull(texts, "texts"));
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(model, "model");
    }

    /**
     * Creates a response with a single choice, unknown usage and no model name; handy for fakes.
     *
     * @param text the single choice, not null
     * @return a response with one choice and unknown usage
     * @throws NullPointerException if {@code text} is null
     */
    public static LlmResponse of(String text) {
        return new LlmResponse(List.of(text), TokenUsage.NONE, "");
    }

    /** {@return the first choice's text, or empty if there are no choices} */
    public String text() {
        return texts.isEmpty() ? "" : texts.get(0);
    }
}
