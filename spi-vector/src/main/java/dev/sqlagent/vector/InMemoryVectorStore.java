package dev.sqlagent.vector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.function.Predicate;

/**
 * An exact vector store in memory: vectors kept L2-normalised in one contiguous float array, searched
 * by a full scan (cosine = dot product of unit vectors). Thread-safe through a read-write discipline on
 * this object's monitor; searches copy nothing.
 */
public final class InMemoryVectorStore implements VectorStore {

    private final int dimension;
    private float[] data = new float[0];
    private final List<String> ids = new ArrayList<>();
    private final List<Map<String, String>> metadata = new ArrayList<>();
    private final Map<String, Integer> index = new HashMap<>();

    /**
     * @param dimension the dimension of every vector, at least 1
     */
    public InMemoryVectorStore(int dimension) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1 but was " + dimension);
        }
        this.dimension = dimension;
    }

    /** @return the dimension of the stored vectors */
    public int dimension() {
        return dimension;
    }

    /** @return how many entries are stored */
    public synchronized int size() {
        return ids.size();
    }

    @Override
    public synchronized void add(String id, float[] vector, Map<String, String> meta) {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("id must not be blank");
        }
        checkDimension(vector);
        float[] unit = normalise(vector);
        Integer slot = index.get(id);
        if (slot == null) {
            slot = ids.size();
            if ((slot + 1) * dimension > data.length) {
                data = Arrays.copyOf(data, Math.max(dimension * 16, data.length * 2));
            }
            ids.add(id);
            metadata.add(Map.copyOf(meta));
            index.put(id, slot);
        } else {
            metadata.set(slot, Map.copyOf(meta));
        }
        System.arraycopy(unit, 0, data, slot * dimension, dimension);
    }

    @Override
    public synchronized List<VectorMatch> search(float[] query, int k, Predicate<Map<String, String>> filter) {
        checkDimension(query);
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1 but was " + k);
        }
        Objects.requireNonNull(filter, "filter");
        float[] q = normalise(query);
        PriorityQueue<double[]> best = new PriorityQueue<>(k + 1, (a, b) -> Double.compare(a[0], b[0]));
        for (int i = 0; i < ids.size(); i++) {
            if (!filter.test(metadata.get(i))) {
                continue;
            }
            int off = i * dimension;
            double dot = 0;
            for (int d = 0; d < dimension; d++) {
                dot += q[d] * data[off + d];
            }
            if (best.size() < k) {
                best.add(new double[] {dot, i});
            } else if (dot > best.peek()[0]) {
                best.poll();
                best.add(new double[] {dot, i});
            }
        }
        List<VectorMatch> out = new ArrayList<>(best.size());
        while (!best.isEmpty()) {
            double[] e = best.poll();
            int i = (int) e[1];
            out.add(new VectorMatch(ids.get(i), e[0], metadata.get(i)));
        }
        java.util.Collections.reverse(out);
        return out;
    }

    private void checkDimension(float[] vector) {
        Objects.requireNonNull(vector, "vector");
        if (vector.length != dimension) {
            throw new IllegalArgumentException(
                    "vector dimension must be " + dimension + " but was " + vector.length);
        }
    }

    static float[] normalise(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += (double) x * x;
        }
        float[] out = v.clone();
        if (norm > 0) {
            float inv = (float) (1.0 / Math.sqrt(norm));
            for (int i = 0; i < out.length; i++) {
                out[i] *= inv;
            }
        }
        return out;
    }
}
