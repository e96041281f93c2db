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

    /**
     * Returns the length of every vector this embedder makes, so that a store of another dimension is
     * refused when the two are paired rather than on the first vector. By default it embeds a probe
     * text once per call and measures the vector, which costs a model call for a hosted model;
     * embedders that know their dimension override it.
     *
     * @return the dimension, at least 1
     * @throws RuntimeException whatever {@link #embed} throws for the probe
     */
    default int dimension() {
        return embed("dimension probe").length;
    }
}
