package dev.sqlagent.springai;

import dev.sqlagent.cases.CaseLibrary;
import dev.sqlagent.vector.Embedder;
import dev.sqlagent.vector.VectorFilter;
import dev.sqlagent.vector.VectorMatch;
import dev.sqlagent.vector.VectorStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.springframework.ai.document.Document;
import org.springframework.ai.vectorstore.SearchRequest;
import org.springframework.ai.vectorstore.filter.Filter;

/**
 * The case library kept in a Spring AI {@link org.springframework.ai.vectorstore.VectorStore} that embeds
 * texts with its own {@code EmbeddingModel}: the kind of store a Spring Boot application defines as a
 * bean (PgVector, Chroma, Qdrant, Redis, a {@code SimpleVectorStore} over the application's embedding
 * model, …). The Spring AI auto-configuration of this module wires one in when the application has such a
 * bean and none of sqlagent's {@code VectorStore}.
 *
 * <pre>{@code
 * CaseLibrary cases = SpringAiCaseStore.over(springAiVectorStore).caseLibrary().build();
 * }</pre>
 *
 * <p>sqlagent's store SPI hands over vectors; a Spring AI store wants texts. This store therefore comes
 * with its own {@link #embedder() embedder}, which the case library must use (as {@link #caseLibrary()}
 * sets it): that embedder does not compute vectors, it hands out a one-number handle for each text it is
 * given, and this store turns the handle back into the text, which it gives the Spring AI store to embed
 * (on {@link #add}) or to search with (on {@link #search}). So the Spring AI store's embedding model is the
 * one that ranks the cases, each text is embedded once, and a vector that did not come from this store's
 * embedder is an {@link IllegalArgumentException}. The embedder remembers the {@value #REMEMBERED} texts
 * used last (far more than the questions under way at once) and gives a remembered text its handle again;
 * unlike a model's vectors, handles mean nothing outside this store and are not kept across runs (the
 * texts are, in the Spring AI store).
 *
 * <p>The cases live next to whatever else the store holds. Each case document carries the metadata key
 * {@value #NAMESPACE_KEY} set to the namespace (default {@value #DEFAULT_NAMESPACE}), and every search
 * filters on it, so the cases never mix with the application's documents in this store's answers. The
 * application's own searches of the store do see the cases unless they filter them out (for example with
 * {@code NOT (sqlagent_namespace == 'sqlagent')}), or give the cases a store of their own. Two agents
 * with different namespaces can share one store.
 *
 * <p>Scores are the Spring AI store's {@link Document#getScore() scores} (cosine similarity for
 * {@code SimpleVectorStore} and the cosine-distance stores), 0 when the store gives none. Spring AI's
 * similarity threshold cannot go below 0, so entries less similar than that to the query are not found.
 * {@link #size()} counts the entries added through this store since it was made, as Spring AI has no
 * count; entries of an earlier run are found by searches but not counted. Metadata, ids and filters are
 * kept as {@link SpringAiVectorStore} keeps them (reserved keys {@value SpringAiVectorStore#ID_KEY} and
 * {@value SpringAiVectorStore#METADATA_KEY}; document ids are name-based UUIDs of the namespace and the
 * entry id). Thread-safe when the wrapped store is.
 */
public final class SpringAiCaseStore implements VectorStore {

    /** Reserved metadata key holding the namespace of the cases. */
    public static final String NAMESPACE_KEY = "sqlagent_namespace";
    /** The namespace of {@link #over(org.springframework.ai.vectorstore.VectorStore)}. */
    public static final String DEFAULT_NAMESPACE = "sqlagent";
    /** How many texts the embedder remembers. */
    public static final int REMEMBERED = 4096;

    private static final Pattern SAFE_NAMESPACE = Pattern.compile("[A-Za-z0-9_.:-]{1,100}");
    /** Handles are floats counted from 1, exact below 2^24. */
    private static final int HANDLES = 1 << 24;

    private final org.springframework.ai.vectorstore.VectorStore store;
    private final String namespace;
    private final OwnedDocuments owned;
    private final Map<Integer, String> texts = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, String> eldest) {
            if (size() > REMEMBERED) {
                handles.remove(eldest.getValue());
                return true;
            }
            return false;
        }
    };
    private final Map<String, Integer> handles = new HashMap<>();
    private int nextHandle;
    private final Embedder embedder = new Handles();

    private SpringAiCaseStore(org.springframework.ai.vectorstore.VectorStore store, String namespace) {
        this.store = Objects.requireNonNull(store, "store");
        Objects.requireNonNull(namespace, "namespace");
        if (!SAFE_NAMESPACE.matcher(namespace).matches()) {
            throw new IllegalArgumentException("namespace must be 1 to 100 of [A-Za-z0-9_.:-] but was '"
                    + namespace + "'");
        }
        this.namespace = namespace;
        this.owned = new OwnedDocuments(store, this::documentId);
    }

    /**
     * Keeps cases in a Spring AI store under the namespace {@value #DEFAULT_NAMESPACE}.
     *
     * @param store the Spring AI store, built with the embedding model that should rank the cases
     * @return the case store
     * @throws NullPointerException if the store is null
     */
    public static SpringAiCaseStore over(org.springframework.ai.vectorstore.VectorStore store) {
        return new SpringAiCaseStore(store, DEFAULT_NAMESPACE);
    }

    /**
     * Keeps cases in a Spring AI store under a namespace of their own.
     *
     * @param store the Spring AI store, built with the embedding model that should rank the cases
     * @param namespace 1 to 100 of {@code [A-Za-z0-9_.:-]}, written to every case document and searched for
     * @return the case store
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the namespace is empty, too long or holds another character
     */
    public static SpringAiCaseStore over(org.springframework.ai.vectorstore.VectorStore store, String namespace) {
        return new SpringAiCaseStore(store, namespace);
    }

    /**
     * Returns the embedder that the case library over this store must use: it hands out handles to texts,
     * which this store gives the Spring AI store to embed.
     *
     * @return the embedder of dimension 1
     */
    public Embedder embedder() {
        return embedder;
    }

    /**
     * Returns a case-library builder holding this store and its {@link #embedder()}.
     *
     * @return the builder, for further settings ({@code examples}, {@code repairs}, …) and {@code build()}
     */
    public CaseLibrary.Builder caseLibrary() {
        return CaseLibrary.builder().store(this).embedder(embedder);
    }

    /** {@return 1: the vectors are handles of texts} */
    @Override
    public int dimension() {
        return 1;
    }

    @Override
    public void add(String id, float[] vector, Map<String, String> metadata) {
        OwnedDocuments.check(id, metadata, List.of(SpringAiVectorStore.ID_KEY, SpringAiVectorStore.METADATA_KEY,
                NAMESPACE_KEY));
        owned.put(id, textOf(vector), metadata, Map.of(NAMESPACE_KEY, namespace));
    }

    @Override
    public List<VectorMatch> search(float[] query, int k, Predicate<Map<String, String>> filter) {
        String text = textOf(query);
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1 but was " + k);
        }
        Objects.requireNonNull(filter, "filter");
        Filter.Expression expression = new Filter.Expression(Filter.ExpressionType.EQ, new Filter.Key(NAMESPACE_KEY),
                new Filter.Value(namespace));
        boolean pushedDown = false;
        if (filter instanceof VectorFilter && SpringAiVectorStore.pushable((VectorFilter) filter)) {
            Filter.Expression more = SpringAiVectorStore.translate((VectorFilter) filter);
            if (more != null) {
                expression = new Filter.Expression(Filter.ExpressionType.AND, expression, more);
            }
            pushedDown = true;
        }
        SearchRequest request = SearchRequest.builder().query(text).topK(pushedDown ? k : Math.max(k, owned.size()))
                .similarityThresholdAll().filterExpression(expression).build();
        List<Document> hits = store.similaritySearch(request);
        List<VectorMatch> out = new ArrayList<>();
        if (hits == null) {
            return out;
        }
        for (Document d : hits) {
            Object id = d.getMetadata().get(SpringAiVectorStore.ID_KEY);
            if (!(id instanceof String) || !namespace.equals(d.getMetadata().get(NAMESPACE_KEY))) {
                continue; // not a case of this store's (a store that ignored the filter)
            }
            Map<String, String> meta = SpringAiVectorStore.metadataOf(d);
            if (!pushedDown && !filter.test(meta)) {
                continue;
            }
            double score = d.getScore() == null ? 0 : Math.max(-1.0, Math.min(1.0, d.getScore()));
            out.add(new VectorMatch((String) id, score, meta));
        }
        out.sort(Comparator.comparingDouble(VectorMatch::score).reversed());
        return out.size() > k ? List.copyOf(out.subList(0, k)) : out;
    }

    @Override
    public boolean remove(String id) {
        return owned.remove(id);
    }

    @Override
    public int size() {
        return owned.size();
    }

    @Override
    public String toString() {
        return "SpringAiCaseStore{" + store.getName() + ", namespace " + namespace + '}';
    }

    private String documentId(String id) {
        return SpringAiVectorStore.documentId(namespace + ":" + id);
    }

    /** {@return the text behind a handle made by this store's embedder} */
    private String textOf(float[] vector) {
        Objects.requireNonNull(vector, "vector");
        String text = null;
        if (vector.length == 1 && vector[0] >= 1 && vector[0] < HANDLES && vector[0] == Math.rint(vector[0])) {
            synchronized (texts) {
                text = texts.get((int) vector[0]);
            }
        }
        if (text == null) {
            throw new IllegalArgumentException("SpringAiCaseStore takes only vectors made by its own embedder()"
                    + " (the case library must be built with SpringAiCaseStore.caseLibrary()), and among them one"
                    + " of the last " + REMEMBERED + "; was a vector of " + vector.length + " dimensions");
        }
        return text;
    }

    /** The embedder: a handle for each text. */
    private final class Handles implements Embedder {

        @Override
        public int dimension() {
            return 1;
        }

        @Override
        public float[] embed(String text) {
            Objects.requireNonNull(text, "text");
            synchronized (texts) {
                Integer known = handles.get(text);
                if (known != null) {
                    texts.get(known); // most recently used again
                    return new float[] {known};
                }
                nextHandle = nextHandle % (HANDLES - 1) + 1;
                String previous = texts.put(nextHandle, text);
                if (previous != null) {
                    handles.remove(previous);
                }
                handles.put(text, nextHandle);
                return new float[] {nextHandle};
            }
        }

        @Override
        public String toString() {
            return "SpringAiCaseStore.embedder{" + store.getName() + '}';
        }
    }
}
