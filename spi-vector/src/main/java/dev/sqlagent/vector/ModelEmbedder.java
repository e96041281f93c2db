package dev.sqlagent.vector;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.IntSupplier;

/**
 * An {@link Embedder} over an embedding model of some framework, given as two functions: what the model says
 * its dimension is, and one text's vector. It gives the SPI what it wants of every embedder: a fixed
 * dimension (the model's report, asked once, or the first vector's length, whichever comes first; a later
 * vector of another length is an error naming the model), the zero vector for a blank text without calling
 * the model (many providers refuse blank input, and a blank text is similar to nothing), and a copy of each
 * vector. Thread-safe when the functions are.
 *
 * <pre>{@code
 * Embedder e = ModelEmbedder.of(model.getClass().getName(), model::dimensions, model::embed);
 * }</pre>
 */
public final class ModelEmbedder implements Embedder {

    private final String name;
    private final IntSupplier reported;
    private final Function<String, float[]> embed;
    private final AtomicInteger dimension = new AtomicInteger();

    private ModelEmbedder(String name, IntSupplier reported, Function<String, float[]> embed) {
        this.name = Objects.requireNonNull(name, "name");
        this.reported = Objects.requireNonNull(reported, "reported");
        this.embed = Objects.requireNonNull(embed, "embed");
    }

    /**
     * @param name the model's name, for errors
     * @param reported the dimension the model reports (it may embed a probe text to know)
     * @param embed one text's vector, null or empty when the model gave none
     * @return the embedder
     * @throws NullPointerException if an argument is null
     */
    public static ModelEmbedder of(String name, IntSupplier reported, Function<String, float[]> embed) {
        return new ModelEmbedder(name, reported, embed);
    }

    /**
     * Returns the vector dimension, asking the model the first time unless a vector has already fixed it.
     *
     * @return the dimension of every vector
     * @throws IllegalStateException if the model reports no positive dimension
     */
    @Override
    public int dimension() {
        int d = dimension.get();
        if (d == 0) {
            int r = reported.getAsInt();
            if (r < 1) {
                throw new IllegalStateException("embedding model " + name + " reports dimension " + r);
            }
            dimension.compareAndSet(0, r);
            d = dimension.get();
        }
        return d;
    }

    /**
     * Embeds a text.
     *
     * @param text the text, never null
     * @return the model's vector (a copy), or the zero vector for a blank text
     * @throws NullPointerException if the text is null
     * @throws IllegalStateException if the model returns no vector, or one of another dimension than before
     */
    @Override
    public float[] embed(String text) {
        Objects.requireNonNull(text, "text");
        if (text.isBlank()) {
            return new float[dimension()];
        }
        float[] v = embed.apply(text);
        if (v == null || v.length == 0) {
            throw new IllegalStateException("embedding model " + name + " returned no vector");
        }
        dimension.compareAndSet(0, v.length);
        int d = dimension.get();
        if (v.length != d) {
            throw new IllegalStateException("embedding model " + name + " returned a vector of " + v.length
                    + " dimensions after vectors of " + d);
        }
        return v.clone();
    }

    @Override
    public String toString() {
        return "ModelEmbedder{" + name + '}';
    }
}
