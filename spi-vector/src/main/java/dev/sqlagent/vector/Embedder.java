package dev.sqlagent.vector;

/**
 * The embedding SPI: a text to a vector of fixed dimension.
 *
 * <p>Implementations are thread-safe (the agent embeds questions from many threads at once) and
 * deterministic for a given text (a case library embedded yesterday must still match today). Every
 * vector has the same dimension, which must match the {@link VectorStore} it is stored in. An exception
 * propagates to the caller: the agent's case library does not catch it. {@link HashingEmbedder} needs no
 * model.
 */
@FunctionalInterface
public interface Embedder {

    /**
     * Embeds a text.
     *
     * @param text the text, never null (may be empty)
     * @return a vector, never null, with finite components; its length is the same for every text
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
