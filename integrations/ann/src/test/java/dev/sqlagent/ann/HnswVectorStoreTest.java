package dev.sqlagent.ann;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.vector.InMemoryVectorStore;
import dev.sqlagent.vector.VectorMatch;
import dev.sqlagent.vector.VectorStore;
import dev.sqlagent.vector.VectorStoreContract;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The contract with every search going through the graph, plus what is particular to HNSW. */
class HnswVectorStoreTest extends VectorStoreContract {

    @Override
    protected VectorStore newStore(int dimension) {
        return HnswVectorStore.builder(dimension).exactScanBelow(0).build();
    }

    /** The contract again with the default settings, where small stores are scanned exactly. */
    @Nested
    class WithDefaults extends VectorStoreContract {
        @Override
        protected VectorStore newStore(int dimension) {
            return HnswVectorStore.create(dimension);
        }
    }

    private static float[] gaussian(Random rnd, int dim) {
        float[] v = new float[dim];
        for (int d = 0; d < dim; d++) {
            v[d] = (float) rnd.nextGaussian();
        }
        return v;
    }

    @Test
    void graphSearchFindsMostOfTheTrueNearestNeighbours() {
        int dim = 64;
        HnswVectorStore ann = HnswVectorStore.builder(dim).exactScanBelow(0).build();
        InMemoryVectorStore exact = new InMemoryVectorStore(dim);
        Random rnd = new Random(11);
        for (int i = 0; i < 5000; i++) {
            float[] v = gaussian(rnd, dim);
            ann.add("e" + i, v, Map.of());
            exact.add("e" + i, v, Map.of());
        }
        int found = 0;
        int queries = 50;
        for (int qi = 0; qi < queries; qi++) {
            float[] q = gaussian(rnd, dim);
            Set<String> truth = new HashSet<>();
            exact.search(q, 10, m -> true).forEach(m -> truth.add(m.id()));
            for (VectorMatch m : ann.search(q, 10, m -> true)) {
                if (truth.contains(m.id())) {
                    found++;
                }
            }
        }
        assertThat(found / (double) (queries * 10)).isGreaterThan(0.9);
    }

    @Test
    void scoresAreExactCosinesEvenThoughTheSearchIsApproximate() {
        int dim = 32;
        HnswVectorStore ann = HnswVectorStore.builder(dim).exactScanBelow(0).build();
        InMemoryVectorStore exact = new InMemoryVectorStore(dim);
        Random rnd = new Random(12);
        for (int i = 0; i < 500; i++) {
            float[] v = gaussian(rnd, dim);
            ann.add("e" + i, v, Map.of());
            exact.add("e" + i, v, Map.of());
        }
        float[] q = gaussian(rnd, dim);
        List<VectorMatch> hits = ann.search(q, 5, m -> true);
        Map<String, Double> truth = new java.util.HashMap<>();
        exact.search(q, 500, m -> true).forEach(m -> truth.put(m.id(), m.score()));
        for (VectorMatch m : hits) {
            assertThat(m.score()).isCloseTo(truth.get(m.id()), org.assertj.core.api.Assertions.within(1e-5));
        }
    }

    @Test
    void graphIsRebuiltWhenMostEntriesAreReplacedOrRemoved() {
        int dim = 16;
        HnswVectorStore ann = HnswVectorStore.builder(dim).exactScanBelow(0).build();
        Random rnd = new Random(13);
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 300; i++) {
                ann.add("e" + i, gaussian(rnd, dim), Map.of("round", Integer.toString(round)));
            }
        }
        for (int i = 0; i < 200; i++) {
            ann.remove("e" + i);
        }
        assertThat(ann.size()).isEqualTo(100);
        float[] v = gaussian(rnd, dim);
        ann.add("fresh", v, Map.of());
        assertThat(ann.search(v, 1, m -> true).get(0).id()).isEqualTo("fresh");
        assertThat(ann.search(v, 500, m -> true)).hasSize(101)
                .allSatisfy(m -> assertThat(m.metadata().get("round")).isIn(null, "4"));
    }

    @Test
    void concurrentGraphSearchesGiveTheSameHitsAsOneAtATime() throws Exception {
        int dim = 16;
        HnswVectorStore ann = HnswVectorStore.builder(dim).exactScanBelow(0).build();
        Random rnd = new Random(14);
        for (int i = 0; i < 3000; i++) {
            ann.add("e" + i, gaussian(rnd, dim), Map.of());
        }
        float[][] queries = new float[100][];
        List<List<VectorMatch>> expected = new java.util.ArrayList<>();
        for (int q = 0; q < queries.length; q++) {
            queries[q] = gaussian(rnd, dim);
            expected.add(ann.search(queries[q], 10, m -> true));
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<?>> futures = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                futures.add(pool.submit(() -> {
                    for (int round = 0; round < 5; round++) {
                        for (int q = 0; q < queries.length; q++) {
                            assertThat(ann.search(queries[q], 10, m -> true)).isEqualTo(expected.get(q));
                        }
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> f : futures) {
                f.get(2, java.util.concurrent.TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void zeroVectorCannotBeAddedButCanBeAskedFor() {
        HnswVectorStore ann = HnswVectorStore.create(8);
        assertThatThrownBy(() -> ann.add("zero", new float[8], Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("zero");
        ann.add("one", new float[] {1, 0, 0, 0, 0, 0, 0, 0}, Map.of());
        assertThat(ann.search(new float[8], 1, m -> true).get(0).score()).isZero();
    }

    @Test
    void builderRejectsBadSettingsNamingThem() {
        assertThatThrownBy(() -> HnswVectorStore.builder(0)).hasMessageContaining("dimension");
        assertThatThrownBy(() -> HnswVectorStore.builder(8).maxConnections(1)).hasMessageContaining("maxConnections");
        assertThatThrownBy(() -> HnswVectorStore.builder(8).beamWidth(0)).hasMessageContaining("beamWidth");
        assertThatThrownBy(() -> HnswVectorStore.builder(8).searchBeamWidth(0)).hasMessageContaining("searchBeamWidth");
        assertThatThrownBy(() -> HnswVectorStore.builder(8).exactScanBelow(-1)).hasMessageContaining("exactScanBelow");
    }
}
