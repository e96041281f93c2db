package dev.sqlagent.bench.vector;

import java.util.Random;
import java.util.SplittableRandom;

/**
 * Synthetic unit vectors for the vector benchmarks: uniformly random directions (the harsh case for an
 * approximate index: in 384 dimensions every point is nearly equally far from every other) or
 * clustered points of low intrinsic dimension (closer to sentence embeddings, which group by topic and
 * vary along a few dozen directions).
 */
public final class VectorData {

    private VectorData() {
    }

    /** The two kinds of data. */
    public enum Kind {
        /** Gaussian vectors, normalised: uniform on the sphere. */
        RANDOM,
        /**
         * 1,000 cluster centres in a 32-dimensional latent space; a point is a centre plus Gaussian
         * spread (half the centres' scale), mapped to 384 dimensions by a fixed random matrix, plus
         * isotropic noise of a tenth of its norm, normalised.
         */
        CLUSTERED
    }

    /**
     * Makes {@code n} unit vectors.
     *
     * @param kind random or clustered
     * @param n how many
     * @param dim the dimension
     * @param seed the random seed; the same seed gives the same vectors
     * @return n vectors of length dim
     */
    public static float[][] vectors(Kind kind, int n, int dim, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        float[][] out = new float[n][];
        if (kind == Kind.RANDOM) {
            for (int i = 0; i < n; i++) {
                float[] v = new float[dim];
                for (int d = 0; d < dim; d++) {
                    v[d] = (float) gaussian(rnd);
                }
                out[i] = normalise(v);
            }
            return out;
        }
        // The structure (centres, projection) depends on the dimension only, so that data and queries
        // made with different seeds share it.
        Random structure = new Random(dim * 31L + 7);
        int latent = 32;
        double[][] centres = new double[1000][latent];
        for (double[] c : centres) {
            for (int j = 0; j < latent; j++) {
                c[j] = structure.nextGaussian();
            }
        }
        double[][] projection = new double[dim][latent];
        for (double[] row : projection) {
            for (int j = 0; j < latent; j++) {
                row[j] = structure.nextGaussian() / Math.sqrt(latent);
            }
        }
        double[] z = new double[latent];
        for (int i = 0; i < n; i++) {
            double[] c = centres[rnd.nextInt(centres.length)];
            for (int j = 0; j < latent; j++) {
                z[j] = c[j] + 0.5 * gaussian(rnd);
            }
            float[] v = new float[dim];
            double norm = 0;
            for (int d = 0; d < dim; d++) {
                double x = 0;
                for (int j = 0; j < latent; j++) {
                    x += projection[d][j] * z[j];
                }
                v[d] = (float) x;
                norm += x * x;
            }
            double noise = 0.1 * Math.sqrt(norm / dim);
            for (int d = 0; d < dim; d++) {
                v[d] += (float) (noise * gaussian(rnd));
            }
            out[i] = normalise(v);
        }
        return out;
    }

    private static double gaussian(SplittableRandom rnd) {
        // Box-Muller; SplittableRandom has no nextGaussian on Java 17.
        double u = rnd.nextDouble();
        double w = rnd.nextDouble();
        return Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * w);
    }

    static float[] normalise(float[] v) {
        return normalise(v, v);
    }

    private static float[] normalise(float[] v, float[] out) {
        double norm = 0;
        for (float x : v) {
            norm += (double) x * x;
        }
        double inv = 1 / Math.sqrt(norm);
        for (int d = 0; d < v.length; d++) {
            out[d] = (float) (v[d] * inv);
        }
        return out;
    }

    /**
     * The exact top-k by brute force, for recall.
     *
     * @param data the stored unit vectors
     * @param query a unit query
     * @param k how many
     * @return indexes into data, best first
     */
    public static int[] exactTopK(float[][] data, float[] query, int k) {
        int[] best = new int[k];
        float[] scores = new float[k];
        java.util.Arrays.fill(scores, Float.NEGATIVE_INFINITY);
        for (int i = 0; i < data.length; i++) {
            float[] v = data[i];
            float s = 0;
            for (int d = 0; d < v.length; d++) {
                s += query[d] * v[d];
            }
            if (s > scores[k - 1]) {
                int j = k - 1;
                while (j > 0 && scores[j - 1] < s) {
                    scores[j] = scores[j - 1];
                    best[j] = best[j - 1];
                    j--;
                }
                scores[j] = s;
                best[j] = i;
            }
        }
        return best;
    }
}
