package dev.sqlagent.langchain4j;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.sqlagent.vector.Embedder;
import dev.sqlagent.vector.ModelEmbedder;
import java.util.Objects;

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
    private final ModelEmbedder checked;

    private LangChain4jEmbedder(EmbeddingModel model) {
        this.model = Objects.requireNonNull(model, "model");
        this.checked = ModelEmbedder.of(model.getClass().getName(), model::dimension, text -> {
            Response<Embedding> response = model.embed(text);
            return response == null || response.content() == null ? null : response.content().vector();
        });
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
        return checked.dimension();
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
        return checked.embed(text);
    }

    @Override
    public String toString() {
        return "LangChain4jEmbedder{" + model.getClass().getSimpleName() + '}';
    }
}
