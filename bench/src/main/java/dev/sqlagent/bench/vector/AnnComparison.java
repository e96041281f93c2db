package dev.sqlagent.bench.vector;

import dev.sqlagent.ann.HnswVectorStore;
import dev.sqlagent.vector.InMemoryVectorStore;
import dev.sqlagent.vector.VectorMatch;
import io.github.jbellis.jvector.graph.GraphIndexBuilder;
import io.github.jbellis.jvector.graph.GraphSearcher;
import io.github.jbellis.jvector.graph.ImmutableGraphIndex;
import io.github.jbellis.jvector.graph.ListRandomAccessVectorValues;
import io.github.jbellis.jvector.graph.SearchResult;
import io.github.jbellis.jvector.graph.similarity.BuildScoreProvider;
import io.github.jbellis.jvector.graph.similarity.DefaultSearchScoreProvider;
import io.github.jbellis.jvector.util.Bits;
import io.github.jbellis.jvector.vector.VectorSimilarityFunction;
import io.github.jbellis.jvector.vector.VectorizationProvider;
import io.github.jbellis.jvector.vector.types.VectorFloat;
import io.github.jbellis.jvector.vector.types.VectorTypeSupport;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * Recall@10 and single-thread latency of the exact store, our Lucene-HNSW store and jvector on the
 * same data, over a sweep of search beam widths. Not a JMH benchmark (recall is not a time): it builds
 * each index once, warms up, then times every query both by the wall clock and by the thread's CPU
 * time (which, on a machine shared with other work, leaves out the time the thread waited for a core)
 * and reports the median and the 90th percentile of each.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar dev.sqlagent.bench.vector.AnnComparison
 * random|clustered n [queries] [engines=exact,loop,lucene,jvector]}
 */
public final class AnnComparison {

    private static final int DIM = 384;
    private static final int K = 10;
    private static final int M = 16;
    private static final int BUILD_BEAM = 100;
    private static final int[] SEARCH_BEAMS = {10, 20, 40, 64, 100, 160, 250, 400};

    private AnnComparison() {
    }

    /**
     * Runs the comparison and prints one line per engine and beam width.
     *
     * @param args kind, n, optional query count, optional comma-separated engines
     * @throws Exception if an engine fails
     */
    public static void main(String[] args) throws Exception {
        VectorData.Kind kind = VectorData.Kind.valueOf(args[0].toUpperCase(java.util.Locale.ROOT));
        int n = Integer.parseInt(args[1]);
        int queryCount = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        Set<String> engines = new HashSet<>(Arrays.asList(
                (args.length > 3 ? args[3] : "exact,lucene,jvector").split(",")));
        System.out.printf("java %s, %d cores, kind=%s n=%d dim=%d queries=%d%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), kind, n, DIM, queryCount);
        float[][] data = VectorData.vectors(kind, n, DIM, 1);
        float[][] queries = VectorData.vectors(kind, queryCount, DIM, 2);
        int[][] truth = new int[queryCount][];
        long t0 = System.nanoTime();
        for (int q = 0; q < queryCount; q++) {
            truth[q] = VectorData.exactTopK(data, queries[q], K);
        }
        System.out.printf("ground truth: %.1f s%n", (System.nanoTime() - t0) / 1e9);

        if (engines.contains("exact")) {
            InMemoryVectorStore exact = new InMemoryVectorStore(DIM);
            for (int i = 0; i < n; i++) {
                exact.add(Integer.toString(i), data[i], Map.of());
            }
            report("exact-store", "-", 0, queries, truth, q -> ids(exact.search(queries[q], K, m -> true)));
        }
        if (engines.contains("loop")) {
            float[] flat = new float[n * DIM];
            for (int i = 0; i < n; i++) {
                System.arraycopy(data[i], 0, flat, i * DIM, DIM);
            }
            report("plain-loop", "-", 0, queries, truth, q -> plainLoop(flat, n, queries[q]));
        }
        if (engines.contains("lucene")) {
            long b0 = System.nanoTime();
            HnswVectorStore hnsw = HnswVectorStore.builder(DIM).maxConnections(M).beamWidth(BUILD_BEAM).build();
            for (int i = 0; i < n; i++) {
                hnsw.add(Integer.toString(i), data[i], Map.of());
            }
            double build = (System.nanoTime() - b0) / 1e9;
            for (int beam : SEARCH_BEAMS) {
                report("lucene-hnsw", "ef=" + beam, build, queries, truth,
                        q -> ids(hnsw.search(queries[q], K, m -> true, beam)));
            }
        }
        if (engines.contains("jvector")) {
            jvector(data, queries, truth);
        }
    }

    private static void jvector(float[][] data, float[][] queries, int[][] truth) throws Exception {
        VectorTypeSupport vts = VectorizationProvider.getInstance().getVectorTypeSupport();
        List<VectorFloat<?>> vectors = new ArrayList<>(data.length);
        for (float[] v : data) {
            vectors.add(vts.createFloatVector(v));
        }
        ListRandomAccessVectorValues ravv = new ListRandomAccessVectorValues(vectors, DIM);
        long b0 = System.nanoTime();
        BuildScoreProvider bsp = BuildScoreProvider.randomAccessScoreProvider(ravv, VectorSimilarityFunction.COSINE);
        ImmutableGraphIndex index;
        // Lucene's M=16 gives up to 2*M = 32 neighbours on the base layer; jvector's degree is that one.
        try (GraphIndexBuilder builder = GraphIndexBuilder.builder(bsp, DIM, 2 * M)
                .withBeamWidth(BUILD_BEAM).withNeighborOverflow(1.2f).withAlpha(1.2f).build()) {
            index = builder.build(ravv);
        }
        double build = (System.nanoTime() - b0) / 1e9;
        VectorFloat<?>[] qv = new VectorFloat<?>[queries.length];
        for (int q = 0; q < queries.length; q++) {
            qv[q] = vts.createFloatVector(queries[q]);
        }
        try (GraphSearcher searcher = new GraphSearcher(index)) {
            for (int beam : SEARCH_BEAMS) {
                int rerank = Math.max(K, beam);
                report("jvector", "ef=" + beam, build, queries, truth, q -> {
                    SearchResult r = searcher.search(
                            DefaultSearchScoreProvider.exact(qv[q], VectorSimilarityFunction.COSINE, ravv),
                            K, rerank, 0f, 0f, Bits.ALL);
                    int[] out = new int[r.getNodes().length];
                    for (int i = 0; i < out.length; i++) {
                        out[i] = r.getNodes()[i].node;
                    }
                    return out;
                });
            }
        }
    }

    /** The baseline the exact store must not be slower than: naive dot product, insertion top-k. */
    static int[] plainLoop(float[] flat, int n, float[] q) {
        int[] best = new int[K];
        float[] scores = new float[K];
        Arrays.fill(scores, Float.NEGATIVE_INFINITY);
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

    private static int[] ids(List<VectorMatch> matches) {
        return matches.stream().mapToInt(m -> Integer.parseInt(m.id())).toArray();
    }

    private static void report(String engine, String setting, double buildSeconds, float[][] queries,
            int[][] truth, IntFunction<int[]> search) {
        for (int round = 0; round < 3; round++) {
            for (int q = 0; q < queries.length; q++) {
                search.apply(q);
            }
        }
        long[] nanos = new long[queries.length];
        long[] cpuNanos = new long[queries.length];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int found = 0;
        for (int q = 0; q < queries.length; q++) {
            long c = threads.getCurrentThreadCpuTime();
            long t = System.nanoTime();
            int[] got = search.apply(q);
            nanos[q] = System.nanoTime() - t;
            cpuNanos[q] = threads.getCurrentThreadCpuTime() - c;
            Set<Integer> want = new HashSet<>();
            for (int i : truth[q]) {
                want.add(i);
            }
            for (int i : got) {
                if (want.contains(i)) {
                    found++;
                }
            }
        }
        Arrays.sort(nanos);
        Arrays.sort(cpuNanos);
        System.out.printf("%-12s %-7s build %6.1f s  recall@10 %.3f  wall median %7.3f ms p90 %7.3f ms"
                + "  cpu median %7.3f ms p90 %7.3f ms%n", engine, setting, buildSeconds,
                found / (double) (queries.length * K), nanos[nanos.length / 2] / 1e6,
                nanos[nanos.length * 9 / 10] / 1e6, cpuNanos[cpuNanos.length / 2] / 1e6,
                cpuNanos[cpuNanos.length * 9 / 10] / 1e6);
    }
}
