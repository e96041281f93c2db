package dev.sqlagent.vector;

/**
 * The embedding SPI: a text to a vector of fixed dimension.
 *
 * <p>Implementations are thread-safe and deterministic for a given text (a case library embedded
 * yesterday must still match today). {@link HashingEmbedder} needs no model.
 */
@FunctionalInterface
public interface Embedder {

    /**
     * Embeds a text.
     *
     * @param text the text, never null
     * @return a vector, never null; its length is the same for every text
     */
    float[] embed(String text);
}
