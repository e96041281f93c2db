package dev.sqlagent.vector;

/**
 * Arithmetic on float vectors shared by the embedder and the stores (the in-memory one here, the
 * approximate and database ones in integrations): normalising and a fast dot product. Stateless.
 */
public final class VectorMath {

    private VectorMath() {
    }

    /**
     * Returns a unit-length copy of a vector; the zero vector stays zero.
     *
     * @param v a vector
     * @return its unit-length copy
     * @throws IllegalArgumentException if a component is NaN or infinite
     */
    public static float[] normalise(float[] v) {
        double norm = 0;
        for (int i = 0; i < v.length; i++) {
            float x = v[i];
            if (!Float.isFinite(x)) {
                throw new IllegalArgumentException("vector component " + i + " must be finite but was " + x);
            }
            norm += (double) x * x;
        }
        float[] out = v.clone();
        if (norm > 0) {
            double inv = 1.0 / Math.sqrt(norm);
            for (int i = 0; i < out.length; i++) {
                out[i] = (float) (out[i] * inv);
            }
        }
        return out;
    }

    /**
     * The dot product of {@code q} and {@code data[offset .. offset + q.length)}, with eight
     * independent accumulators so that the additions do not wait on each other (the JIT does not
     * reorder float additions by itself).
     *
     * @param q a vector
     * @param data contiguous vectors
     * @param offset where the other vector starts in {@code data}
     * @return the dot product
     */
    public static float dot(float[] q, float[] data, int offset) {
        int n = q.length;
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        float s4 = 0;
        float s5 = 0;
        float s6 = 0;
        float s7 = 0;
        int d = 0;
        for (int upper = n - 7; d < upper; d += 8) {
            int o = offset + d;
            s0 += q[d] * data[o];
            s1 += q[d + 1] * data[o + 1];
            s2 += q[d + 2] * data[o + 2];
            s3 += q[d + 3] * data[o + 3];
            s4 += q[d + 4] * data[o + 4];
            s5 += q[d + 5] * data[o + 5];
            s6 += q[d + 6] * data[o + 6];
            s7 += q[d + 7] * data[o + 7];
        }
        for (; d < n; d++) {
            s0 += q[d] * data[offset + d];
        }
        return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    }
}
