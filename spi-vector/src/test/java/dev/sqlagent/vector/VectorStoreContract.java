package dev.sqlagent.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link VectorStore} must show. A store's test extends this class and says how
 * to make an empty store; stores that hold resources close them in {@link #closeStore}.
 *
 * <p>Published in spi-vector's test jar for the integration modules.
 */
public abstract class VectorStoreContract {

    /** The dimension the suite works in. */
    protected static final int DIM = 16;

    private final List<VectorStore> made = new ArrayList<>();

    /**
     * Makes a new, empty store.
     *
     * @param dimension the vector dimension
     * @return the store
     * @throws Exception if it cannot be made
     */
    protected abstract VectorStore newStore(int dimension) throws Exception;

    /**
     * Releases a store made by {@link #newStore}; does nothing unless overridden.
     *
     * @param store the store
     * @throws Exception if it cannot be released
     */
    protected void closeStore(VectorStore store) throws Exception {
    }

    /** Makes a store of {@link #DIM} dimensions and remembers it for closing. */
    protected final VectorStore store() throws Exception {
        VectorStore s = newStore(DIM);
        made.add(s);
        return s;
    }

    @AfterEach
    final void closeStores() throws Exception {
        for (VectorStore s : made) {
            closeStore(s);
        }
        made.clear();
    }

    /** A unit vector along one axis. */
    protected static float[] axis(int i) {
        float[] v = new float[DIM];
        v[i] = 1f;
        return v;
    }

    /** A random vector with components in [-1, 1). */
    protected static float[] random(Random rnd) {
        float[] v = new float[DIM];
        for (int d = 0; d < DIM; d++) {
            v[d] = rnd.nextFloat() * 2 - 1;
        }
        return v;
    }

    private static float[] scaled(float[] v, float factor) {
        float[] out = v.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] *= factor;
        }
        return out;
    }

    private static List<String> ids(List<VectorMatch> matches) {
        return matches.stream().map(VectorMatch::id).toList();
    }

    @Test
    void emptyStoreFindsNothing() throws Exception {
        VectorStore s = store();
        assertThat(s.search(axis(0), 5, m -> true)).isEmpty();
        assertThat(s.size()).isZero();
    }

    @Test
    void identicalVectorComesFirstWithScoreOne() throws Exception {
        VectorStore s = store();
        Random rnd = new Random(1);
        float[] target = random(rnd);
        for (int i = 0; i < 50; i++) {
            s.add("other-" + i, random(rnd), Map.of());
        }
        s.add("target", target, Map.of());
        List<VectorMatch> hits = s.search(target, 3, m -> true);
        assertThat(hits.get(0).id()).isEqualTo("target");
        assertThat(hits.get(0).score()).isCloseTo(1.0, within(1e-4));
    }

    @Test
    void scoreIsCosineSimilarityWhateverTheLength() throws Exception {
        VectorStore s = store();
        float[] diagonal = axis(0);
        diagonal[1] = 1f;
        s.add("same-direction", scaled(axis(0), 7f), Map.of());
        s.add("diagonal", diagonal, Map.of());
        s.add("orthogonal", axis(2), Map.of());
        s.add("opposite", scaled(axis(0), -0.5f), Map.of());
        List<VectorMatch> hits = s.search(scaled(axis(0), 3f), 4, m -> true);
        assertThat(ids(hits)).containsExactly("same-direction", "diagonal", "orthogonal", "opposite");
        assertThat(hits.get(0).score()).isCloseTo(1.0, within(1e-4));
        assertThat(hits.get(1).score()).isCloseTo(Math.sqrt(0.5), within(1e-4));
        assertThat(hits.get(2).score()).isCloseTo(0.0, within(1e-4));
        assertThat(hits.get(3).score()).isCloseTo(-1.0, within(1e-4));
    }

    @Test
    void hitsAreBestFirstAndAtMostK() throws Exception {
        VectorStore s = store();
        Random rnd = new Random(2);
        for (int i = 0; i < 100; i++) {
            s.add("e" + i, random(rnd), Map.of());
        }
        List<VectorMatch> hits = s.search(random(rnd), 10, m -> true);
        assertThat(hits).hasSize(10);
        for (int i = 1; i < hits.size(); i++) {
            assertThat(hits.get(i).score()).isLessThanOrEqualTo(hits.get(i - 1).score());
        }
        assertThat(ids(hits)).doesNotHaveDuplicates();
    }

    @Test
    void kLargerThanTheStoreReturnsEveryEntry() throws Exception {
        VectorStore s = store();
        for (int i = 0; i < 5; i++) {
            s.add("e" + i, axis(i), Map.of());
        }
        assertThat(ids(s.search(axis(0), 1000, m -> true)))
                .containsExactlyInAnyOrder("e0", "e1", "e2", "e3", "e4");
    }

    @Test
    void addingAnExistingIdReplacesItsVectorAndMetadata() throws Exception {
        VectorStore s = store();
        s.add("case-1", axis(0), Map.of("status", "bad"));
        s.add("case-2", axis(1), Map.of());
        s.add("case-1", axis(3), Map.of("status", "good"));
        assertThat(s.size()).isEqualTo(2);
        List<VectorMatch> hits = s.search(axis(3), 1, m -> true);
        assertThat(hits).singleElement().satisfies(hit -> {
            assertThat(hit.id()).isEqualTo("case-1");
            assertThat(hit.score()).isCloseTo(1.0, within(1e-4));
            assertThat(hit.metadata()).isEqualTo(Map.of("status", "good"));
        });
        assertThat(ids(s.search(axis(0), 10, m -> true))).containsExactlyInAnyOrder("case-1", "case-2");
    }

    @Test
    void metadataComesBackWithTheHit() throws Exception {
        VectorStore s = store();
        Map<String, String> meta = Map.of("table", "orders", "sql", "SELECT count(*) FROM orders", "问题", "订单数量");
        s.add("case-1", axis(0), meta);
        assertThat(s.search(axis(0), 1, m -> true).get(0).metadata()).isEqualTo(meta);
    }

    @Test
    void predicateFilterExcludesEntries() throws Exception {
        VectorStore s = store();
        s.add("good", axis(1), Map.of("status", "good"));
        s.add("bad", axis(0), Map.of("status", "bad"));
        s.add("none", axis(0), Map.of());
        List<VectorMatch> hits = s.search(axis(0), 5, m -> "good".equals(m.get("status")));
        assertThat(ids(hits)).containsExactly("good");
    }

    @Test
    void vectorFiltersSelectByEqualityMembershipAndConjunction() throws Exception {
        VectorStore s = store();
        s.add("a", axis(0), Map.of("status", "good", "table", "orders"));
        s.add("b", axis(1), Map.of("status", "good", "table", "customers"));
        s.add("c", axis(2), Map.of("status", "bad", "table", "orders"));
        s.add("d", axis(3), Map.of("table", "orders"));
        float[] q = axis(0);
        assertThat(ids(s.search(q, 10, VectorFilter.eq("status", "good")))).containsExactlyInAnyOrder("a", "b");
        assertThat(ids(s.search(q, 10, VectorFilter.in("status", "good", "bad"))))
                .containsExactlyInAnyOrder("a", "b", "c");
        assertThat(ids(s.search(q, 10, VectorFilter.allOf(
                VectorFilter.eq("table", "orders"), VectorFilter.in("status", "bad")))))
                .containsExactly("c");
        assertThat(ids(s.search(q, 10, VectorFilter.everything()))).hasSize(4);
        assertThat(s.search(q, 10, VectorFilter.in("status"))).isEmpty();
        assertThat(s.search(q, 10, VectorFilter.eq("missing", "x"))).isEmpty();
    }

    @Test
    void selectiveFilterStillFindsEntriesFarFromTheQuery() throws Exception {
        VectorStore s = store();
        Random rnd = new Random(3);
        float[] q = random(rnd);
        for (int i = 0; i < 300; i++) {
            float[] near = q.clone();
            near[i % DIM] += 0.05f;
            s.add("near-" + i, near, Map.of("status", "bad"));
        }
        for (int i = 0; i < 3; i++) {
            s.add("far-" + i, scaled(q, -1f - i), Map.of("status", "good"));
        }
        assertThat(ids(s.search(q, 5, VectorFilter.eq("status", "good"))))
                .containsExactlyInAnyOrder("far-0", "far-1", "far-2");
        assertThat(ids(s.search(q, 5, m -> "good".equals(m.get("status")))))
                .containsExactlyInAnyOrder("far-0", "far-1", "far-2");
    }

    @Test
    void removedEntryIsNoLongerFound() throws Exception {
        VectorStore s = store();
        for (int i = 0; i < 5; i++) {
            s.add("e" + i, axis(i), Map.of("n", Integer.toString(i)));
        }
        assertThat(s.remove("e0")).isTrue();
        assertThat(s.remove("e0")).isFalse();
        assertThat(s.remove("never-added")).isFalse();
        assertThat(s.size()).isEqualTo(4);
        assertThat(ids(s.search(axis(0), 10, m -> true))).containsExactlyInAnyOrder("e1", "e2", "e3", "e4");
        VectorMatch moved = s.search(axis(4), 1, m -> true).get(0);
        assertThat(moved.id()).isEqualTo("e4");
        assertThat(moved.metadata()).isEqualTo(Map.of("n", "4"));
        s.add("e0", axis(0), Map.of());
        assertThat(s.search(axis(0), 1, m -> true).get(0).id()).isEqualTo("e0");
    }

    @Test
    void everyEntryIsFoundByItsOwnVector() throws Exception {
        VectorStore s = store();
        Random rnd = new Random(4);
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            float[] v = random(rnd);
            vectors.add(v);
            s.add("e" + i, v, Map.of());
        }
        for (int i = 0; i < vectors.size(); i++) {
            assertThat(s.search(vectors.get(i), 1, m -> true).get(0).id()).isEqualTo("e" + i);
        }
    }

    @Test
    void dimensionIsTheOneTheStoreWasMadeWith() throws Exception {
        assertThat(store().dimension()).isEqualTo(DIM);
        VectorStore wider = newStore(DIM * 3);
        made.add(wider);
        assertThat(wider.dimension()).isEqualTo(DIM * 3);
        float[] v = new float[DIM * 3];
        v[DIM * 2] = 1f;
        wider.add("a", v, Map.of());
        assertThat(wider.search(v, 1, m -> true)).extracting(VectorMatch::id).containsExactly("a");
        assertThatThrownBy(() -> wider.add("b", new float[DIM], Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension");
    }

    @Test
    void badArgumentsAreRejected() throws Exception {
        VectorStore s = store();
        s.add("e", axis(0), Map.of());
        assertThatThrownBy(() -> s.add("x", new float[DIM + 1], Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension");
        assertThatThrownBy(() -> s.add(" ", axis(0), Map.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.search(new float[DIM - 1], 1, m -> true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension");
        assertThatThrownBy(() -> s.search(axis(0), 0, m -> true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k");
        assertThat(s.size()).isEqualTo(1);
    }

    @Test
    void concurrentAddsAndSearchesLoseNothing() throws Exception {
        VectorStore s = store();
        int writers = 4;
        int perWriter = 150;
        ExecutorService pool = Executors.newFixedThreadPool(writers + 2);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                futures.add(pool.submit(() -> {
                    start.await();
                    Random rnd = new Random(100 + writer);
                    for (int i = 0; i < perWriter; i++) {
                        s.add("w" + writer + "-" + i, random(rnd), Map.of("writer", Integer.toString(writer)));
                    }
                    return null;
                }));
            }
            for (int r = 0; r < 2; r++) {
                int reader = r;
                futures.add(pool.submit(() -> {
                    start.await();
                    Random rnd = new Random(200 + reader);
                    for (int i = 0; i < 200; i++) {
                        List<VectorMatch> hits = s.search(random(rnd), 5, m -> true);
                        assertThat(hits.size()).isLessThanOrEqualTo(5);
                        for (int h = 1; h < hits.size(); h++) {
                            assertThat(hits.get(h).score()).isLessThanOrEqualTo(hits.get(h - 1).score());
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(s.size()).isEqualTo(writers * perWriter);
        // every entry is there under its own vector: among the nearest 20 of a search with that vector (an
        // approximate store's top-1 could miss it, depending on the order the threads inserted in; asking
        // for every entry made pgvector's HNSW tests take minutes and is no exact scan there either)
        int k = Math.min(20, s.size());
        for (int w = 0; w < writers; w++) {
            Random rnd = new Random(100 + w);
            for (int i = 0; i < perWriter; i++) {
                float[] v = random(rnd);
                assertThat(s.search(v, k, m -> true)).extracting(VectorMatch::id).contains("w" + w + "-" + i);
            }
        }
    }
}
