package dev.sqlagent.langchain4j;

import static dev.langchain4j.store.embedding.filter.MetadataFilterBuilder.metadataKey;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.langchain4j.store.embedding.filter.Filter;
import dev.sqlagent.vector.VectorFilter;
import dev.sqlagent.vector.VectorMatch;
import dev.sqlagent.vector.VectorStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * A LangChain4j {@link EmbeddingStore} as sqlagent's {@link VectorStore}, so that the case library can
 * live in any store LangChain4j supports (Chroma, Qdrant, Milvus, Elasticsearch, Redis, …).
 *
 * <pre>{@code
 * VectorStore store = LangChain4jVectorStore.of(new InMemoryEmbeddingStore<>(), 384);
 * }</pre>
 *
 * <p>How the SPI's promises are kept on top of LangChain4j's API:
 * <ul>
 *   <li>Each entry is stored as an embedding with a {@link TextSegment} whose text is the entry's id and
 *       whose metadata is the entry's metadata.</li>
 *   <li>LangChain4j has no "replace" and no "count": the adapter keeps the ids it added, removes an id
 *       before adding it again, and answers {@link #size()} from them. It therefore expects to own the
 *       store (or the part of it that it sees): entries written by others are found by searches but not
 *       counted.</li>
 *   <li>Scores: LangChain4j stores report a relevance score {@code (cosine + 1) / 2}; it is turned back
 *       into the cosine similarity the SPI promises. For a store that reports cosine similarity itself,
 *       build with {@link Builder#cosineScores(boolean) cosineScores(true)}.</li>
 *   <li>A {@link VectorFilter} is translated into LangChain4j's metadata {@link Filter}, which the
 *       store runs itself. Any other {@link Predicate} is run here, over as many hits as the store
 *       holds: fine for a case library, slow for millions of entries.</li>
 * </ul>
 *
 * <p>Thread-safe when the wrapped store is; an id is replaced or removed atomically with respect to
 * other writers of the same id through this adapter.
 */
public final class LangChain4jVectorStore implements VectorStore {

    private final EmbeddingStore<TextSegment> store;
    private final int dimension;
    private final boolean cosineScores;
    private final Map<String, Boolean> ids = new ConcurrentHashMap<>();

    private LangChain4jVectorStore(Builder b) {
        this.store = b.store;
        this.dimension = b.dimension;
        this.cosineScores = b.cosineScores;
    }

    /**
     * Wraps a store with the default settings.
     *
     * @param store the LangChain4j store
     * @param dimension the dimension of every vector
     * @return the vector store
     * @throws NullPointerException if the store is null
     * @throws IllegalArgumentException if the dimension is below 1
     */
    public static LangChain4jVectorStore of(EmbeddingStore<TextSegment> store, int dimension) {
        return builder(store, dimension).build();
    }

    /**
     * Starts a builder.
     *
     * @param store the LangChain4j store
     * @param dimension the dimension of every vector
     * @return a builder
     * @throws NullPointerException if the store is null
     * @throws IllegalArgumentException if the dimension is below 1
     */
    public static Builder builder(EmbeddingStore<TextSegment> store, int dimension) {
        return new Builder(store, dimension);
    }

    /** {@return the dimension of every vector} */
    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public void add(String id, float[] vector, Map<String, String> metadata) {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("id must not be blank");
        }
        checkDimension(vector);
        Objects.requireNonNull(metadata, "metadata");
        Embedding embedding = Embedding.from(vector.clone());
        TextSegment segment = TextSegment.from(id, Metadata.from(new HashMap<>(metadata)));
        ids.compute(id, (key, present) -> {
            if (present != null) {
                store.remove(key);
            }
            store.addAll(List.of(key), List.of(embedding), List.of(segment));
            return Boolean.TRUE;
        });
    }

    @Override
    public List<VectorMatch> search(float[] query, int k, Predicate<Map<String, String>> filter) {
        checkDimension(query);
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1 but was " + k);
        }
        Objects.requireNonNull(filter, "filter");
        boolean pushedDown = filter instanceof VectorFilter;
        Filter translated = null;
        if (pushedDown) {
            VectorFilter vf = (VectorFilter) filter;
            if (letsNothingThrough(vf)) {
                return List.of();
            }
            translated = translate(vf);
        }
        // a predicate the store cannot read is run here, over every entry the store may hold
        int fetch = pushedDown ? k : Math.max(k, ids.size());
        Map<String, VectorMatch> found = new java.util.LinkedHashMap<>();
        collect(query, k, fetch, translated, pushedDown ? null : filter, false, found);
        if (found.size() < k && found.size() < ids.size()) {
            // LangChain4j stores drop hits whose relevance is below 0, and an exactly opposite vector can
            // round to just below it; those are the best hits for the negated query, so ask for them too
            float[] negated = query.clone();
            for (int i = 0; i < negated.length; i++) {
                negated[i] = -negated[i];
            }
            collect(negated, k, fetch, translated, pushedDown ? null : filter, true, found);
        }
        List<VectorMatch> out = new ArrayList<>(found.values());
        out.sort(java.util.Comparator.comparingDouble(VectorMatch::score).reversed());
        return out.size() > k ? List.copyOf(out.subList(0, k)) : out;
    }

    /** Adds to {@code found} up to {@code k} hits of one search that pass the predicate (null: all pass). */
    private void collect(float[] query, int k, int fetch, Filter translated, Predicate<Map<String, String>> predicate,
            boolean negated, Map<String, VectorMatch> found) {
        EmbeddingSearchRequest.EmbeddingSearchRequestBuilder request = EmbeddingSearchRequest.builder()
                .queryEmbedding(Embedding.from(query)).maxResults(fetch).minScore(0.0);
        if (translated != null) {
            request.filter(translated);
        }
        int accepted = 0;
        for (EmbeddingMatch<TextSegment> m : store.search(request.build()).matches()) {
            if (accepted == k) {
                break;
            }
            Map<String, String> meta = metadataOf(m.embedded());
            if (predicate != null && !predicate.test(meta)) {
                continue;
            }
            double score = m.score() == null ? 0 : m.score();
            double cosine = cosineScores ? score : 2 * score - 1;
            found.putIfAbsent(m.embeddingId(), new VectorMatch(m.embeddingId(), negated ? -cosine : cosine, meta));
            accepted++;
        }
    }

    @Override
    public boolean remove(String id) {
        Objects.requireNonNull(id, "id");
        boolean[] removed = {false};
        ids.computeIfPresent(id, (key, present) -> {
            store.remove(key);
            removed[0] = true;
            return null;
        });
        return removed[0];
    }

    @Override
    public int size() {
        return ids.size();
    }

    private void checkDimension(float[] vector) {
        Objects.requireNonNull(vector, "vector");
        if (vector.length != dimension) {
            throw new IllegalArgumentException(
                    "vector dimension must be " + dimension + " but was " + vector.length);
        }
    }

    private static Map<String, String> metadataOf(TextSegment segment) {
        if (segment == null || segment.metadata() == null) {
            return Map.of();
        }
        Map<String, String> out = new HashMap<>();
        segment.metadata().toMap().forEach((key, value) -> out.put(key, String.valueOf(value)));
        return out;
    }

    private static boolean letsNothingThrough(VectorFilter f) {
        if (f instanceof VectorFilter.In) {
            return ((VectorFilter.In) f).values().isEmpty();
        }
        if (f instanceof VectorFilter.AllOf) {
            return ((VectorFilter.AllOf) f).filters().stream().anyMatch(LangChain4jVectorStore::letsNothingThrough);
        }
        return false;
    }

    /** {@return LangChain4j's filter for {@code f}, or null when it lets every entry through} */
    static Filter translate(VectorFilter f) {
        if (f instanceof VectorFilter.Eq) {
            VectorFilter.Eq eq = (VectorFilter.Eq) f;
            return metadataKey(eq.key()).isEqualTo(eq.value());
        }
        if (f instanceof VectorFilter.In) {
            VectorFilter.In in = (VectorFilter.In) f;
            return metadataKey(in.key()).isIn(in.values());
        }
        if (f instanceof VectorFilter.AllOf) {
            Filter all = null;
            for (VectorFilter part : ((VectorFilter.AllOf) f).filters()) {
                Filter p = translate(part);
                if (p != null) {
                    all = all == null ? p : Filter.and(all, p);
                }
            }
            return all;
        }
        return null;
    }

    /** Builds a {@link LangChain4jVectorStore}. */
    public static final class Builder {
        private final EmbeddingStore<TextSegment> store;
        private final int dimension;
        private boolean cosineScores;

        private Builder(EmbeddingStore<TextSegment> store, int dimension) {
            this.store = Objects.requireNonNull(store, "store");
            if (dimension < 1) {
                throw new IllegalArgumentException("dimension must be >= 1 but was " + dimension);
            }
            this.dimension = dimension;
        }

        /**
         * Says whether the wrapped store reports cosine similarity itself, so that its scores are passed on
         * unchanged.
         *
         * @param cosine whether the store reports cosine similarity itself rather than LangChain4j's
         *     relevance score {@code (cosine + 1) / 2} (default false)
         * @return this
         */
        public Builder cosineScores(boolean cosine) {
            this.cosineScores = cosine;
            return this;
        }

        /**
         * Builds the vector store.
         *
         * @return the vector store
         */
        public LangChain4jVectorStore build() {
            return new LangChain4jVectorStore(this);
        }
    }
}
