package dev.sqlagent.langchain4j;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.sqlagent.vector.Embedder;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A LangChain4j {@link EmbeddingModel} as sqlagent's {@link Embedder}: any embedding model LangChain4j
 * supports (hosted or in-process ONNX) can embed the case library's questions.
 *
 * <p>The SPI wants a fixed dimension: the first vector fixes it (or the model's
 * {@link EmbeddingModel#dimension()} when asked for with {@link #dimension()}), and a later vector of
 * another length is an error naming the model. A blank text is embedded as the zero vector without
 * calling the model (many providers refuse blank input), which is similar to nothing. Thread-safe when
 * the model is.
 */
public final class LangChain4jEmbedder implements Embedder {

    private final EmbeddingModel model;
    private final AtomicInteger dimension = new AtomicInteger();

    private LangChain4jEmbedder(EmbeddingModel model) {
        this.model = Objects.requireNonNull(model, "model");
    }

    /**
     * Wraps an embedding model.
     *
     * @param model the LangChain4j embedding model
     * @return the embedder
     * @throws NullPointerException if the model is null
     */
    public static LangChain4jEmbedder of(EmbeddingModel model) {
        return new LangChain4jEmbedder(model);
    }

    /**
     * Returns the vector dimension, asking the model (which may embed a probe text) the first time.
     *
     * @return the dimension of every vector
     * @throws IllegalStateException if the model reports no positive dimension
     */
    @Override
    public int dimension() {
        int d = dimension.get();
        if (d == 0) {
            int reported = model.dimension();
            if (reported < 1) {
                throw new IllegalStateException("embedding model " + name() + " reports dimension " + reported);
            }
            dimension.compareAndSet(0, reported);
            d = dimension.get();
        }
        return d;
    }

    /**
     * Embeds a text.
     *
     * @param text the text, never null
     * @return the model's vector, or the zero vector for a blank text
     * @throws NullPointerException if the text is null
     * @throws IllegalStateException if the model returns no vector, or one of another dimension than before
     */
    @Override
    public float[] embed(String text) {
        Objects.requireNonNull(text, "text");
        if (text.isBlank()) {
            return new float[dimension()];
        }
        Response<Embedding> response = model.embed(text);
        float[] v = response == null || response.content() == null ? null : response.content().vector();
        if (v == null || v.length == 0) {
            throw new IllegalStateException("embedding model " + name() + " returned no vector");
        }
        dimension.compareAndSet(0, v.length);
        int d = dimension.get();
        if (v.length != d) {
            throw new IllegalStateException("embedding model " + name() + " returned a vector of " + v.length
                    + " dimensions after vectors of " + d);
        }
        return v.clone();
    }

    private String name() {
        return model.getClass().getName();
    }

    @Override
    public String toString() {
        return "LangChain4jEmbedder{" + model.getClass().getSimpleName() + '}';
    }
}
