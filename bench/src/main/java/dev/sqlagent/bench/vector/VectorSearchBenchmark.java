package dev.sqlagent.bench.vector;

import dev.sqlagent.ann.HnswVectorStore;
import dev.sqlagent.vector.InMemoryVectorStore;
import dev.sqlagent.vector.VectorMatch;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Top-10 search latency over n unit vectors of 384 dimensions: a plain loop over a float array (the
 * baseline), the exact {@link InMemoryVectorStore} and the approximate {@link HnswVectorStore}. Sample
 * time mode, so JMH reports the median (p0.50) as well as the mean. Each state prints the recall@10 it
 * measured on its queries during setup.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar VectorSearchBenchmark -p n=10000,100000}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class VectorSearchBenchmark {

    static final int DIM = 384;
    static final int K = 10;
    static final int QUERIES = 200;

    /** What every state shares: the data, the queries and the true top-10 of each. */
    @State(Scope.Benchmark)
    public abstract static class Data {
        /** Number of stored vectors. */
        @Param({"10000", "100000", "1000000"})
        public int n;

        /** Random or clustered vectors. */
        @Param({"CLUSTERED"})
        public VectorData.Kind kind;

        float[][] vectors;
        float[][] queries;
        int[][] truth;
        int next;

        void makeData() {
            vectors = VectorData.vectors(kind, n, DIM, 1);
            queries = VectorData.vectors(kind, QUERIES, DIM, 2);
            truth = new int[QUERIES][];
            for (int q = 0; q < QUERIES; q++) {
                truth[q] = VectorData.exactTopK(vectors, queries[q], K);
            }
        }

        float[] nextQuery() {
            float[] q = queries[next];
            next = next + 1 == QUERIES ? 0 : next + 1;
            return q;
        }

        void printRecall(String engine, java.util.function.IntFunction<int[]> search) {
            int found = 0;
            for (int q = 0; q < QUERIES; q++) {
                Set<Integer> want = new HashSet<>();
                for (int i : truth[q]) {
                    want.add(i);
                }
                for (int i : search.apply(q)) {
                    if (want.contains(i)) {
                        found++;
                    }
                }
            }
            System.out.printf("%n[recall] %s kind=%s n=%d recall@10=%.3f%n", engine, kind, n,
                    found / (double) (QUERIES * K));
        }
    }

    /** The baseline: one contiguous float array, a naive dot product, an insertion-sorted top-k. */
    @State(Scope.Benchmark)
    public static class PlainLoop extends Data {
        float[] flat;

        /** Copies the vectors into one array. */
        @Setup(Level.Trial)
        public void setUp() {
            makeData();
            flat = new float[n * DIM];
            for (int i = 0; i < n; i++) {
                System.arraycopy(vectors[i], 0, flat, i * DIM, DIM);
            }
            printRecall("plain-loop", q -> search(queries[q]));
        }

        int[] search(float[] q) {
            int[] best = new int[K];
            float[] scores = new float[K];
            java.util.Arrays.fill(scores, Float.NEGATIVE_INFINITY);
            for (int i = 0; i < n; i++) {
                int off = i * DIM;
                float s = 0;
                for (int d = 0; d < DIM; d++) {
                    s += q[d] * flat[off + d];
                }
                if (s > scores[K - 1]) {
                    int j = K - 1;
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

    /** The exact in-memory store. */
    @State(Scope.Benchmark)
    public static class Exact extends Data {
        InMemoryVectorStore store;

        /** Fills the store. */
        @Setup(Level.Trial)
        public void setUp() {
            makeData();
            store = new InMemoryVectorStore(DIM);
            for (int i = 0; i < n; i++) {
                store.add(Integer.toString(i), vectors[i], Map.of());
            }
            printRecall("exact-store", q -> ids(store.search(queries[q], K, m -> true)));
        }
    }

    /** The HNSW store with its default search beam width. */
    @State(Scope.Benchmark)
    public static class Hnsw extends Data {
        HnswVectorStore store;

        /** Builds the graph (minutes at 100k on a shared 2-core machine). */
        @Setup(Level.Trial)
        public void setUp() {
            makeData();
            long t = System.nanoTime();
            store = HnswVectorStore.create(DIM);
            for (int i = 0; i < n; i++) {
                store.add(Integer.toString(i), vectors[i], Map.of());
            }
            System.out.printf("%n[build] hnsw kind=%s n=%d %.1f s%n", kind, n, (System.nanoTime() - t) / 1e9);
            printRecall("hnsw-default", q -> ids(store.search(queries[q], K, m -> true)));
        }
    }

    static int[] ids(List<VectorMatch> matches) {
        int[] out = new int[matches.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = Integer.parseInt(matches.get(i).id());
        }
        return out;
    }

    /**
     * The baseline loop.
     *
     * @param s the state
     * @return the top ids, so that the work is not eliminated
     */
    @Benchmark
    public int[] plainLoop(PlainLoop s) {
        return s.search(s.nextQuery());
    }

    /**
     * The exact store.
     *
     * @param s the state
     * @return the hits
     */
    @Benchmark
    public List<VectorMatch> exactStore(Exact s) {
        return s.store.search(s.nextQuery(), K, m -> true);
    }

    /**
     * The HNSW store.
     *
     * @param s the state
     * @return the hits
     */
    @Benchmark
    public List<VectorMatch> hnswStore(Hnsw s) {
        return s.store.search(s.nextQuery(), K, m -> true);
    }
}
