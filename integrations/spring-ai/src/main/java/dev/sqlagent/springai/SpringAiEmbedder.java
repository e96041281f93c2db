package dev.sqlagent.springai;

import dev.sqlagent.vector.Embedder;
import dev.sqlagent.vector.ModelEmbedder;
import java.util.Objects;
import org.springframework.ai.embedding.EmbeddingModel;

/**
 * A Spring AI {@link EmbeddingModel} as sqlagent's {@link Embedder}: any embedding model Spring AI
 * supports (hosted, Ollama, in-process ONNX transformers) can embed the case library's questions.
 *
 * <p>The SPI wants a fixed dimension: the first vector fixes it (or the model's
 * {@link EmbeddingModel#dimensions()} when asked for with {@link #dimension()}), and a later vector of
 * another length is an error naming the model. A blank text is embedded as the zero vector without
 * calling the model (many providers refuse blank input), which is similar to nothing. Thread-safe when
 * the model is.
 */
public final class SpringAiEmbedder implements Embedder {

    private final EmbeddingModel model;
    private final ModelEmbedder checked;

    private SpringAiEmbedder(EmbeddingModel model) {
        this.model = Objects.requireNonNull(model, "model");
        this.checked = ModelEmbedder.of(model.getClass().getName(), model::dimensions, model::embed);
    }

    /**
     * Wraps an embedding model.
     *
     * @param model the Spring AI embedding model
     * @return the embedder
     * @throws NullPointerException if the model is null
     */
    public static SpringAiEmbedder of(EmbeddingModel model) {
        return new SpringAiEmbedder(model);
    }

    /**
     * Returns the vector dimension, asking the model the first time (Spring AI knows the dimensions of
     * common hosted models; for others it embeds a probe text).
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
        return "SpringAiEmbedder{" + model.getClass().getSimpleName() + '}';
    }
}
