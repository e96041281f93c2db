package dev.sqlagent.ann;

import dev.sqlagent.vector.VectorFilter;
import dev.sqlagent.vector.VectorMatch;
import dev.sqlagent.vector.VectorMath;
import dev.sqlagent.vector.VectorSlots;
import dev.sqlagent.vector.VectorStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopKnnCollector;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.hnsw.HnswGraph;
import org.apache.lucene.util.hnsw.HnswGraphBuilder;
import org.apache.lucene.util.hnsw.HnswGraphSearcher;
import org.apache.lucene.util.hnsw.NeighborArray;
import org.apache.lucene.util.hnsw.OnHeapHnswGraph;
import org.apache.lucene.util.hnsw.RandomVectorScorer;
import org.apache.lucene.util.hnsw.RandomVectorScorerSupplier;

/**
 * An approximate vector store for large case libraries: an HNSW graph (Lucene's, from
 * {@code lucene-core} 9.12, which runs on Java 17) over unit vectors kept in one contiguous float
 * array. Scores are cosine similarities, computed exactly for the hits returned; only which entries
 * are found is approximate (recall@10 of 0.95 or more with the defaults, see docs/vector-search.md).
 *
 * <p>Filters are tested lazily on the entries the graph search visits. When a filter lets so few
 * entries through that the graph search would cost as much as a scan (it reaches its visit limit) or
 * finds fewer than {@code k} hits, the store falls back to an exact scan of the entries that pass, so a
 * selective filter still gets every hit it should. Stores smaller than
 * {@link Builder#exactScanBelow(int)} entries are always scanned exactly.
 *
 * <p>Replacing or removing an entry leaves a tombstone in the graph; when tombstones outnumber live
 * entries the graph is rebuilt. Adding costs a graph insertion (about a millisecond at 100k entries of
 * 384 dimensions on one core); searches run concurrently under a read lock, additions and removals take
 * a write lock.
 */
public final class HnswVectorStore implements VectorStore {

    /** Default number of neighbours per node (HNSW's M). */
    public static final int DEFAULT_MAX_CONNECTIONS = 16;
    /** Default candidate list size while building (efConstruction). */
    public static final int DEFAULT_BEAM_WIDTH = 100;
    /** Default candidate list size while searching (efSearch). */
    public static final int DEFAULT_SEARCH_BEAM_WIDTH = 64;
    /** Default number of entries under which a search is an exact scan. */
    public static final int DEFAULT_EXACT_SCAN_BELOW = 2_000;

    private static final long GRAPH_SEED = 42;

    private final int dimension;
    private final int maxConnections;
    private final int beamWidth;
    private final int searchBeamWidth;
    private final int exactScanBelow;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();

    /** The entries by graph ordinal; a replaced or removed entry's slot is retired, not reused. */
    private VectorSlots entries;
    private int liveCount;
    private HnswGraphBuilder graphBuilder;

    private HnswVectorStore(Builder b) {
        this.dimension = b.dimension;
        this.maxConnections = b.maxConnections;
        this.beamWidth = b.beamWidth;
        this.searchBeamWidth = b.searchBeamWidth;
        this.exactScanBelow = b.exactScanBelow;
        this.entries = new VectorSlots(dimension, 64);
        this.graphBuilder = newGraphBuilder();
    }

    /**
     * Creates a store with the default graph parameters.
     *
     * @param dimension the dimension of every vector, at least 1
     * @return the store
     * @throws IllegalArgumentException if the dimension is below 1
     */
    public static HnswVectorStore create(int dimension) {
        return builder(dimension).build();
    }

    /**
     * Starts a builder.
     *
     * @param dimension the dimension of every vector, at least 1
     * @return the builder
     * @throws IllegalArgumentException if the dimension is below 1
     */
    public static Builder builder(int dimension) {
        return new Builder(dimension);
    }

    /**
     * Returns the dimension of the stored vectors.
     *
     * @return the dimension
     */
    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public int size() {
        lock.readLock().lock();
        try {
            return liveCount;
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Adds an entry or replaces the one with the same id, and inserts it into the graph.
     *
     * @throws IllegalArgumentException if the id is blank, the dimension differs, a component is not
     *     finite or the vector is zero (a zero vector has no direction to search by)
     * @throws NullPointerException if an argument, a metadata key or a metadata value is null
     */
    @Override
    public void add(String id, float[] vector, Map<String, String> meta) {
        float[] unit = nonZero(entries.checkEntry(id, vector));
        Map<String, String> metaCopy = Map.copyOf(Objects.requireNonNull(meta, "metadata"));
        lock.writeLock().lock();
        try {
            int old = entries.slotOf(id);
            if (old >= 0) {
                kill(old);
            }
            append(id, unit, metaCopy);
            maybeCompact();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Appends an entry and inserts it into the graph; the caller holds the write lock. */
    private void append(String id, float[] unit, Map<String, String> meta) {
        int ord = entries.append(id, unit, meta);
        liveCount++;
        try {
            graphBuilder.addGraphNode(ord);
        } catch (IOException e) {
            throw new UncheckedIOException("HNSW insertion failed (cannot happen on heap)", e);
        }
    }

    @Override
    public boolean remove(String id) {
        Objects.requireNonNull(id, "id");
        lock.writeLock().lock();
        try {
            int ord = entries.slotOf(id);
            if (ord < 0) {
                return false;
            }
            kill(ord);
            maybeCompact();
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void kill(int ord) {
        entries.retire(ord);
        liveCount--;
    }

    /** Rebuilds the graph from the live entries when tombstones outnumber them. */
    private void maybeCompact() {
        int dead = entries.size() - liveCount;
        if (dead <= liveCount || dead < 64) {
            return;
        }
        VectorSlots old = entries;
        entries = new VectorSlots(dimension, 64);
        liveCount = 0;
        graphBuilder = newGraphBuilder();
        float[] v = new float[dimension];
        for (int o = 0; o < old.size(); o++) {
            if (old.live(o)) {
                System.arraycopy(old.data(), o * dimension, v, 0, dimension);
                append(old.id(o), v, old.metadata(o));
            }
        }
    }

    /**
     * Finds entries near the query: an HNSW search, or an exact scan when the store is small or the
     * filter lets few entries through.
     *
     * @throws IllegalArgumentException if the dimension differs, {@code k < 1} or a component is not
     *     finite
     * @throws NullPointerException if the query or the filter is null
     */
    @Override
    public List<VectorMatch> search(float[] query, int k, Predicate<Map<String, String>> filter) {
        return search(query, k, filter, searchBeamWidth);
    }

    /**
     * Like {@link #search(float[], int, Predicate)} with another candidate list size for this query
     * only: larger finds more of the true nearest entries and takes longer.
     *
     * @param query the query vector
     * @param k how many hits at most, at least 1
     * @param filter a test on an entry's metadata
     * @param searchBeamWidth the candidate list size (efSearch), at least 1; at least k is used
     * @return hits, best first
     * @throws IllegalArgumentException if the dimension differs, {@code k < 1}, the beam width is below
     *     1 or a component is not finite
     */
    public List<VectorMatch> search(float[] query, int k, Predicate<Map<String, String>> filter, int searchBeamWidth) {
        if (searchBeamWidth < 1) {
            throw new IllegalArgumentException("searchBeamWidth must be >= 1 but was " + searchBeamWidth);
        }
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1 but was " + k);
        }
        Objects.requireNonNull(filter, "filter");
        float[] q = entries.unit(query);
        lock.readLock().lock();
        try {
            if (liveCount == 0) {
                return List.of();
            }
            boolean everything = filter == VectorFilter.everything();
            if (liveCount <= exactScanBelow || k >= liveCount) {
                return exact(q, k, filter, everything);
            }
            int want = Math.min(k, liveCount);
            int beam = Math.max(want, searchBeamWidth);
            // Beyond this many visited nodes a graph search costs about what an exact scan does.
            int visitLimit = Math.max(beam * 50, entries.size() / 4);
            TopKnnCollector collector = new TopKnnCollector(beam, visitLimit);
            Bits accept = new Bits() {
                @Override
                public boolean get(int ord) {
                    return entries.live(ord) && (everything || filter.test(entries.metadata(ord)));
                }

                @Override
                public int length() {
                    return entries.size();
                }
            };
            try {
                HnswGraphSearcher.search(new QueryScorer(q), collector, new GraphView(graphBuilder.getGraph()), accept);
            } catch (IOException e) {
                throw new UncheckedIOException("HNSW search failed (cannot happen on heap)", e);
            }
            TopDocs top = collector.topDocs();
            if (collector.earlyTerminated() || top.scoreDocs.length < want) {
                // The filter lets few entries through (or tombstones cut the graph): be exact.
                return exact(q, k, filter, everything);
            }
            // The collector's order is by the same dot product, so its first hits are the best.
            List<VectorMatch> out = new ArrayList<>(want);
            for (int i = 0; i < want; i++) {
                out.add(match(q, top.scoreDocs[i].doc));
            }
            return best(out, want);
        } finally {
            lock.readLock().unlock();
        }
    }

    private List<VectorMatch> exact(float[] q, int k, Predicate<Map<String, String>> filter, boolean everything) {
        int want = Math.min(k, liveCount);
        float[] scores = new float[want];
        int[] best = new int[want];
        int count = 0;
        float[] data = entries.data();
        for (int o = 0, n = entries.size(); o < n; o++) {
            if (!entries.live(o) || !(everything || filter.test(entries.metadata(o)))) {
                continue;
            }
            float s = dot(q, data, o * dimension);
            if (count < want) {
                int i = count++;
                while (i > 0 && scores[i - 1] < s) {
                    scores[i] = scores[i - 1];
                    best[i] = best[i - 1];
                    i--;
                }
                scores[i] = s;
                best[i] = o;
            } else if (s > scores[want - 1]) {
                int i = want - 1;
                while (i > 0 && scores[i - 1] < s) {
                    scores[i] = scores[i - 1];
                    best[i] = best[i - 1];
                    i--;
                }
                scores[i] = s;
                best[i] = o;
            }
        }
        List<VectorMatch> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(match(q, best[i]));
        }
        return best(out, want);
    }

    private VectorMatch match(float[] q, int ord) {
        return new VectorMatch(entries.id(ord), dot(q, entries.data(), ord * dimension), entries.metadata(ord));
    }

    private static List<VectorMatch> best(List<VectorMatch> matches, int k) {
        matches.sort((a, b) -> {
            int c = Double.compare(b.score(), a.score());
            return c != 0 ? c : a.id().compareTo(b.id());
        });
        return matches.size() > k ? new ArrayList<>(matches.subList(0, k)) : matches;
    }

    private HnswGraphBuilder newGraphBuilder() {
        try {
            return HnswGraphBuilder.create(new StoredScorerSupplier(), maxConnections, beamWidth, GRAPH_SEED);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static float[] nonZero(float[] unit) {
        for (float x : unit) {
            if (x != 0f) {
                return unit;
            }
        }
        throw new IllegalArgumentException("vector must not be zero: it has no direction to search by");
    }

    /** Dot product of {@code q} with {@code data[offset ..]}; see {@link VectorMath#dot}. */
    static float dot(float[] q, float[] data, int offset) {
        return VectorMath.dot(q, data, offset);
    }

    /** Lucene's graph wants non-negative similarities: (1 + cosine) / 2. */
    private static float graphScore(float cosine) {
        return Math.max(0f, (1f + cosine) * 0.5f);
    }

    /**
     * A read-only view of the graph with a cursor of its own. {@link OnHeapHnswGraph} keeps its
     * neighbour cursor ({@code seek}/{@code nextNeighbor}) in the graph object, so concurrent searches
     * on it would move each other's cursor; each search gets its own view instead. Safe while no
     * writer changes the graph, which the read lock ensures.
     */
    private static final class GraphView extends HnswGraph {
        private final OnHeapHnswGraph graph;
        private NeighborArray current;
        private int upto;

        GraphView(OnHeapHnswGraph graph) {
            this.graph = graph;
        }

        @Override
        public void seek(int level, int target) {
            current = graph.getNeighbors(level, target);
            upto = -1;
        }

        @Override
        public int nextNeighbor() {
            return ++upto < current.size() ? current.nodes()[upto] : DocIdSetIterator.NO_MORE_DOCS;
        }

        @Override
        public int size() {
            return graph.size();
        }

        @Override
        public int maxNodeId() {
            return graph.maxNodeId();
        }

        @Override
        public int numLevels() {
            return graph.numLevels();
        }

        @Override
        public int entryNode() {
            return graph.entryNode();
        }

        @Override
        public NodesIterator getNodesOnLevel(int level) {
            return graph.getNodesOnLevel(level);
        }
    }

    /** Scores stored entries against a query vector. */
    private final class QueryScorer implements RandomVectorScorer {
        private final float[] q;

        QueryScorer(float[] q) {
            this.q = q;
        }

        @Override
        public float score(int node) {
            return graphScore(dot(q, entries.data(), node * dimension));
        }

        @Override
        public int maxOrd() {
            return entries.size();
        }
    }

    /** Scores stored entries against a stored entry, for building the graph. */
    private final class StoredScorerSupplier implements RandomVectorScorerSupplier {
        @Override
        public RandomVectorScorer scorer(int ord) {
            float[] q = Arrays.copyOfRange(entries.data(), ord * dimension, (ord + 1) * dimension);
            return new QueryScorer(q);
        }

        @Override
        public RandomVectorScorerSupplier copy() {
            return this;
        }
    }

    /** Graph parameters; every setter checks its value. */
    public static final class Builder {
        private final int dimension;
        private int maxConnections = DEFAULT_MAX_CONNECTIONS;
        private int beamWidth = DEFAULT_BEAM_WIDTH;
        private int searchBeamWidth = DEFAULT_SEARCH_BEAM_WIDTH;
        private int exactScanBelow = DEFAULT_EXACT_SCAN_BELOW;

        private Builder(int dimension) {
            if (dimension < 1) {
                throw new IllegalArgumentException("dimension must be >= 1 but was " + dimension);
            }
            this.dimension = dimension;
        }

        /**
         * Sets the number of neighbours per node (HNSW's M); more raises recall, memory and build time.
         *
         * @param maxConnections between 2 and 512
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder maxConnections(int maxConnections) {
            if (maxConnections < 2 || maxConnections > 512) {
                throw new IllegalArgumentException("maxConnections must be between 2 and 512 but was " + maxConnections);
            }
            this.maxConnections = maxConnections;
            return this;
        }

        /**
         * Sets the candidate list size while building (efConstruction).
         *
         * @param beamWidth between 1 and 3200
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder beamWidth(int beamWidth) {
            if (beamWidth < 1 || beamWidth > 3200) {
                throw new IllegalArgumentException("beamWidth must be between 1 and 3200 but was " + beamWidth);
            }
            this.beamWidth = beamWidth;
            return this;
        }

        /**
         * Sets the candidate list size while searching (efSearch, at least k is used); more raises
         * recall and latency.
         *
         * @param searchBeamWidth at least 1
         * @return this builder
         * @throws IllegalArgumentException if below 1
         */
        public Builder searchBeamWidth(int searchBeamWidth) {
            if (searchBeamWidth < 1) {
                throw new IllegalArgumentException("searchBeamWidth must be >= 1 but was " + searchBeamWidth);
            }
            this.searchBeamWidth = searchBeamWidth;
            return this;
        }

        /**
         * Sets the size under which searches scan every entry exactly (a graph does not pay below a
         * few thousand entries).
         *
         * @param exactScanBelow at least 0
         * @return this builder
         * @throws IllegalArgumentException if negative
         */
        public Builder exactScanBelow(int exactScanBelow) {
            if (exactScanBelow < 0) {
                throw new IllegalArgumentException("exactScanBelow must be >= 0 but was " + exactScanBelow);
            }
            this.exactScanBelow = exactScanBelow;
            return this;
        }

        /**
         * Builds an empty store.
         *
         * @return the store
         */
        public HnswVectorStore build() {
            return new HnswVectorStore(this);
        }
    }
}
