package dev.sqlagent.minilm;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.sqlagent.vector.Embedder;
import dev.sqlagent.vector.VectorMath;
import java.util.Objects;

/**
 * An {@link Embedder} backed by all-MiniLM-L6-v2 (quantised to 8 bits), run in-process with ONNX
 * Runtime from the model file that ships inside LangChain4j's jar: no network, no download. It finds
 * paraphrases, which the hashing embedder cannot; it is trained on English and does poorly on Chinese.
 *
 * <p>Vectors have {@value #DIMENSION} dimensions and unit length. Loading the model takes about a second
 * and some 100 MB of memory, so make one instance and share it: it is thread-safe. Texts longer than
 * the model's 512 tokens are split and the parts' vectors averaged (by LangChain4j).
 */
public final class MiniLmEmbedder implements Embedder {

    /** The dimension of every vector. */
    public static final int DIMENSION = 384;

    private final EmbeddingModel model;

    /** @param model the model to ask (tests give a fake one) */
    MiniLmEmbedder(EmbeddingModel model) {
        this.model = model;
    }

    /**
     * Loads the model from the classpath.
     *
     * @return the embedder
     * @throws RuntimeException if ONNX Runtime or the model cannot be loaded on this platform
     */
    public static MiniLmEmbedder create() {
        return new MiniLmEmbedder(new AllMiniLmL6V2QuantizedEmbeddingModel());
    }

    /**
     * Returns the vector dimension.
     *
     * @return {@value #DIMENSION}
     */
    @Override
    public int dimension() {
        return DIMENSION;
    }

    /**
     * Embeds a text.
     *
     * @param text the text, never null
     * @return a unit vector of {@value #DIMENSION} dimensions; for a blank text the zero vector, which
     *     is similar to nothing (as with the hashing embedder)
     * @throws NullPointerException if the text is null
     * @throws IllegalStateException if the model returns no vector, one of another dimension or one with a
     *     component that is not finite
     */
    @Override
    public float[] embed(String text) {
        Objects.requireNonNull(text, "text");
        if (text.isBlank()) {
            return new float[DIMENSION];
        }
        Response<Embedding> response = model.embed(text);
        float[] v = response == null || response.content() == null ? null : response.content().vector();
        if (v == null || v.length != DIMENSION) {
            throw new IllegalStateException("all-MiniLM-L6-v2 returned "
                    + (v == null ? "no vector" : "a vector of " + v.length + " dimensions, not " + DIMENSION));
        }
        try {
            return VectorMath.normalise(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("all-MiniLM-L6-v2 returned an unusable vector: " + e.getMessage(), e);
        }
    }
}
