package dev.sqlagent.springai;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingOptions;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

/**
 * The Spring AI {@link EmbeddingModel} that a Spring AI vector store holding sqlagent's vectors is built
 * with. Spring AI's stores take texts and embed them themselves; sqlagent's store SPI hands over vectors
 * already made. {@link SpringAiVectorStore} therefore writes each vector as the document's text
 * ({@value #PREFIX} and the floats in Base64), and this model reads it back, so the store indexes
 * exactly that vector.
 *
 * <p>A text that is not an encoded vector goes to the delegate model, when there is one: a host can build
 * one store with {@code VectorCodec.over(itsEmbeddingModel)} and keep its own documents in it next to
 * sqlagent's cases. Without a delegate such a text is an {@link IllegalArgumentException}. Thread-safe
 * when the delegate is.
 */
public final class VectorCodec implements EmbeddingModel {

    /** What starts the text of a document that holds an encoded vector. */
    public static final String PREFIX = "sqlagent-vector:";

    private final int dimension;
    private final EmbeddingModel delegate;

    private VectorCodec(int dimension, EmbeddingModel delegate) {
        this.dimension = dimension;
        this.delegate = delegate;
    }

    /**
     * A codec that reads only encoded vectors.
     *
     * @param dimension the dimension of every vector, at least 1
     * @return the codec
     * @throws IllegalArgumentException if the dimension is below 1
     */
    public static VectorCodec of(int dimension) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1 but was " + dimension);
        }
        return new VectorCodec(dimension, null);
    }

    /**
     * A codec that reads encoded vectors and passes every other text to a model.
     *
     * @param delegate embeds the texts that are not encoded vectors; its dimension is the codec's
     * @return the codec
     * @throws NullPointerException if the delegate is null
     */
    public static VectorCodec over(EmbeddingModel delegate) {
        return new VectorCodec(0, Objects.requireNonNull(delegate, "delegate"));
    }

    /**
     * Writes a vector as a document text.
     *
     * @param vector the vector
     * @return {@value #PREFIX} and the vector's floats (big-endian IEEE 754) in Base64
     */
    public static String encode(float[] vector) {
        ByteBuffer buffer = ByteBuffer.allocate(vector.length * Float.BYTES);
        for (float f : vector) {
            buffer.putFloat(f);
        }
        return PREFIX + Base64.getEncoder().encodeToString(buffer.array());
    }

    /**
     * Reads a vector written by {@link #encode(float[])}.
     *
     * @param text a document text
     * @return the vector, or null when the text is not an encoded vector
     */
    public static float[] decode(String text) {
        if (text == null || !text.startsWith(PREFIX)) {
            return null;
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(text.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (bytes.length == 0 || bytes.length % Float.BYTES != 0) {
            return null;
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        float[] v = new float[bytes.length / Float.BYTES];
        for (int i = 0; i < v.length; i++) {
            v[i] = buffer.getFloat();
        }
        return v;
    }

    /**
     * Embeds the request's texts: encoded vectors are decoded, the others go to the delegate.
     *
     * @param request the texts
     * @return one embedding per text, in order
     * @throws IllegalArgumentException if a text is not an encoded vector and there is no delegate
     */
    @Override
    public EmbeddingResponse call(EmbeddingRequest request) {
        List<String> texts = request.getInstructions();
        List<float[]> vectors = new ArrayList<>(texts.size());
        List<String> others = new ArrayList<>();
        for (String t : texts) {
            float[] v = decode(t);
            vectors.add(v);
            if (v == null) {
                others.add(t);
            }
        }
        if (!others.isEmpty()) {
            if (delegate == null) {
                throw new IllegalArgumentException("VectorCodec reads only texts written by VectorCodec.encode (\""
                        + PREFIX + "…\"); build it with VectorCodec.over(model) to embed other texts");
            }
            EmbeddingOptions options = request.getOptions();
            List<Embedding> embedded = delegate.call(new EmbeddingRequest(others, options)).getResults();
            int next = 0;
            for (int i = 0; i < vectors.size(); i++) {
                if (vectors.get(i) == null) {
                    vectors.set(i, embedded.get(next++).getOutput());
                }
            }
        }
        List<Embedding> out = new ArrayList<>(vectors.size());
        for (int i = 0; i < vectors.size(); i++) {
            out.add(new Embedding(vectors.get(i), i));
        }
        return new EmbeddingResponse(out);
    }

    /**
     * Embeds a document's text (not its metadata).
     *
     * @param document the document
     * @return the decoded vector, or the delegate's embedding of another text
     * @throws IllegalArgumentException if the text is not an encoded vector and there is no delegate
     */
    @Override
    public float[] embed(Document document) {
        float[] v = decode(document.getText());
        if (v != null) {
            return v;
        }
        if (delegate == null) {
            throw new IllegalArgumentException("VectorCodec reads only texts written by VectorCodec.encode; document "
                    + document.getId() + " holds another text");
        }
        return delegate.embed(document);
    }

    /**
     * Returns the dimension given, or the delegate's.
     *
     * @return the dimension of the vectors
     */
    @Override
    public int dimensions() {
        return delegate == null ? dimension : delegate.dimensions();
    }

    @Override
    public String toString() {
        return "VectorCodec{" + (delegate == null ? dimension + " dimensions" : "over " + delegate) + '}';
    }
}
