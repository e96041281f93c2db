package dev.sqlagent.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sqlagent.vector.VectorFilter;
import dev.sqlagent.vector.VectorMatch;
import dev.sqlagent.vector.VectorMath;
import dev.sqlagent.vector.VectorStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.vectorstore.SearchRequest;
import org.springframework.ai.vectorstore.filter.Filter;

/**
 * A Spring AI {@link org.springframework.ai.vectorstore.VectorStore} as sqlagent's {@link VectorStore},
 * so that the case library can live in any store Spring AI supports (PgVector, Chroma, Qdrant, Milvus,
 * Redis, Elasticsearch, its {@code SimpleVectorStore}, …).
 *
 * <pre>{@code
 * VectorStore cases = SpringAiVectorStore.create(384, codec -> SimpleVectorStore.builder(codec).build());
 * }</pre>
 *
 * <p>Spring AI's stores take texts and embed them with their own {@link EmbeddingModel}; sqlagent's SPI
 * hands over vectors already made. The Spring AI store must therefore be built with a {@link VectorCodec}
 * as its embedding model (which {@link #create(int, Function)} does): each entry becomes a document whose
 * text is the unit-length vector encoded by {@link VectorCodec#encode}, and the codec gives the store that
 * vector back. A store built with another embedding model would index the encoded text as words: wrapping
 * one is a mistake this class cannot detect.
 *
 * <p>How the SPI's promises are kept on top of Spring AI's API:
 * <ul>
 *   <li>Document ids are name-based UUIDs of the entry ids (many stores accept only UUIDs); the entry id
 *       and the metadata (as JSON) are kept in the reserved metadata keys {@value #ID_KEY} and
 *       {@value #METADATA_KEY}, which an entry's own metadata may not use. Each metadata entry is also
 *       stored under its own key, for the store's filters.</li>
 *   <li>Vectors are stored at unit length, so a store ranks alike by cosine, inner product or Euclidean
 *       distance; scores are computed here from the vector in the hit's text, so they are cosine
 *       similarities whatever the store reports.</li>
 *   <li>Spring AI's similarity threshold cannot go below 0: entries opposite the query are found by a
 *       second search with the negated query when the first finds fewer than {@code k}. A store whose
 *       threshold is strict (PgVector's {@code distance < 1 - threshold}) may miss an entry exactly
 *       orthogonal to the query.</li>
 *   <li>Spring AI has no "count": the adapter keeps the ids it added and answers {@link #size()} from
 *       them. It expects to own the store (or the part its filters see); entries written before this
 *       adapter was made are found by searches but not counted.</li>
 *   <li>A {@link VectorFilter} is translated into Spring AI's portable filter expression ({@code EQ},
 *       {@code IN}, {@code AND}), which the store runs itself. What cannot be mapped is run here instead,
 *       over as many hits as the adapter has entries: any other {@link Predicate}, and a filter naming a
 *       key outside {@code [A-Za-z_][A-Za-z0-9_]*} or a value with a quote, a backslash or a control
 *       character (Spring AI's filter converters paste keys and values into the store's query language
 *       without escaping them).</li>
 * </ul>
 *
 * <p>Thread-safe when the wrapped store is; an id is replaced or removed atomically with respect to
 * other writers of the same id through this adapter.
 */
public final class SpringAiVectorStore implements VectorStore {

    /** Reserved metadata key holding the entry's id. */
    public static final String ID_KEY = "sqlagent_id";
    /** Reserved metadata key holding the entry's metadata as a JSON object. */
    public static final String METADATA_KEY = "sqlagent_metadata";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {
    };
    private static final Pattern SAFE_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern UNSAFE_VALUE = Pattern.compile("['\"\\\\\\p{Cntrl}]");

    private final org.springframework.ai.vectorstore.VectorStore store;
    private final int dimension;
    private final OwnedDocuments owned;

    private SpringAiVectorStore(org.springframework.ai.vectorstore.VectorStore store, int dimension) {
        this.store = Objects.requireNonNull(store, "store");
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1 but was " + dimension);
        }
        this.dimension = dimension;
        this.owned = new OwnedDocuments(store, SpringAiVectorStore::documentId);
    }

    /**
     * Wraps a Spring AI store that was built with a {@link VectorCodec} as its embedding model.
     *
     * @param store the Spring AI store
     * @param dimension the dimension of every vector
     * @return the vector store
     * @throws NullPointerException if the store is null
     * @throws IllegalArgumentException if the dimension is below 1
     */
    public static SpringAiVectorStore of(org.springframework.ai.vectorstore.VectorStore store, int dimension) {
        return new SpringAiVectorStore(store, dimension);
    }

    /**
     * Builds a Spring AI store with a {@link VectorCodec} of the dimension and wraps it.
     *
     * @param dimension the dimension of every vector, at least 1
     * @param factory builds the Spring AI store with the embedding model it is given, for example
     *     {@code codec -> SimpleVectorStore.builder(codec).build()}
     * @return the vector store
     * @throws NullPointerException if the factory is null or returns null
     * @throws IllegalArgumentException if the dimension is below 1
     */
    public static SpringAiVectorStore create(int dimension,
            Function<EmbeddingModel, org.springframework.ai.vectorstore.VectorStore> factory) {
        Objects.requireNonNull(factory, "factory");
        return new SpringAiVectorStore(factory.apply(VectorCodec.of(dimension)), dimension);
    }

    /** {@return the dimension of every vector} */
    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public void add(String id, float[] vector, Map<String, String> metadata) {
        OwnedDocuments.check(id, metadata, List.of(ID_KEY, METADATA_KEY));
        checkDimension(vector);
        owned.put(id, VectorCodec.encode(VectorMath.normalise(vector)), metadata, Map.of());
    }

    @Override
    public List<VectorMatch> search(float[] query, int k, Predicate<Map<String, String>> filter) {
        checkDimension(query);
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1 but was " + k);
        }
        Objects.requireNonNull(filter, "filter");
        Filter.Expression expression = null;
        boolean pushedDown = false;
        if (filter instanceof VectorFilter) {
            VectorFilter vf = (VectorFilter) filter;
            if (letsNothingThrough(vf)) {
                return List.of();
            }
            pushedDown = pushable(vf);
            expression = pushedDown ? translate(vf) : null;
        }
        Predicate<Map<String, String>> local = pushedDown ? null : filter;
        float[] unit = VectorMath.normalise(query);
        int all = Math.max(k, owned.size());
        Map<String, VectorMatch> found = new LinkedHashMap<>();
        collect(unit, unit, pushedDown ? k : all, expression, local, found);
        if (found.size() < k && found.size() < owned.size()) {
            // the store drops hits below similarity 0: ask for the entries opposite the query, all of them, as
            // the store ranks them most opposite first and the best of them are the least opposite
            float[] negated = unit.clone();
            for (int i = 0; i < negated.length; i++) {
                negated[i] = -negated[i];
            }
            collect(unit, negated, all, expression, local, found);
        }
        List<VectorMatch> out = new ArrayList<>(found.values());
        out.sort(Comparator.comparingDouble(VectorMatch::score).reversed());
        return out.size() > k ? List.copyOf(out.subList(0, k)) : out;
    }

    /** Adds to {@code found} the hits of one search that pass the local predicate (null: all pass). */
    private void collect(float[] query, float[] searched, int topK, Filter.Expression expression,
            Predicate<Map<String, String>> local, Map<String, VectorMatch> found) {
        SearchRequest.Builder request = SearchRequest.builder().query(VectorCodec.encode(searched)).topK(topK)
                .similarityThresholdAll();
        if (expression != null) {
            request.filterExpression(expression);
        }
        List<Document> hits = store.similaritySearch(request.build());
        if (hits == null) {
            return;
        }
        for (Document d : hits) {
            Object id = d.getMetadata().get(ID_KEY);
            float[] v = VectorCodec.decode(d.getText());
            if (!(id instanceof String) || v == null || v.length != dimension) {
                continue; // not an entry of this adapter's
            }
            Map<String, String> meta = metadataOf(d);
            if (local != null && !local.test(meta)) {
                continue;
            }
            double score = 0;
            for (int i = 0; i < v.length; i++) {
                score += (double) query[i] * v[i];
            }
            found.putIfAbsent((String) id, new VectorMatch((String) id, Math.max(-1.0, Math.min(1.0, score)), meta));
        }
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
        return "SpringAiVectorStore{" + store.getName() + ", " + dimension + " dimensions}";
    }

    private void checkDimension(float[] vector) {
        Objects.requireNonNull(vector, "vector");
        if (vector.length != dimension) {
            throw new IllegalArgumentException("vector dimension must be " + dimension + " but was " + vector.length);
        }
    }

    /** {@return the Spring AI document id of an entry id: a name-based UUID} */
    static String documentId(String id) {
        return UUID.nameUUIDFromBytes(("sqlagent:" + id).getBytes(StandardCharsets.UTF_8)).toString();
    }

    static Map<String, String> metadataOf(Document d) {
        Object json = d.getMetadata().get(METADATA_KEY);
        if (json instanceof String) {
            try {
                return JSON.readValue((String) json, STRING_MAP);
            } catch (JsonProcessingException e) {
                // fall through: read the flat keys
            }
        }
        Map<String, String> out = new HashMap<>();
        d.getMetadata().forEach((key, value) -> {
            if (!key.equals(ID_KEY) && !key.equals(METADATA_KEY) && value != null) {
                out.put(key, String.valueOf(value));
            }
        });
        return out;
    }

    private static boolean letsNothingThrough(VectorFilter f) {
        if (f instanceof VectorFilter.In) {
            return ((VectorFilter.In) f).values().isEmpty();
        }
        if (f instanceof VectorFilter.AllOf) {
            return ((VectorFilter.AllOf) f).filters().stream().anyMatch(SpringAiVectorStore::letsNothingThrough);
        }
        return false;
    }

    /** {@return whether every key and value of the filter can be handed to a store's filter converter} */
    static boolean pushable(VectorFilter f) {
        if (f instanceof VectorFilter.Eq) {
            VectorFilter.Eq eq = (VectorFilter.Eq) f;
            return safeKey(eq.key()) && safeValue(eq.value());
        }
        if (f instanceof VectorFilter.In) {
            VectorFilter.In in = (VectorFilter.In) f;
            return safeKey(in.key()) && in.values().stream().allMatch(SpringAiVectorStore::safeValue);
        }
        if (f instanceof VectorFilter.AllOf) {
            return ((VectorFilter.AllOf) f).filters().stream().allMatch(SpringAiVectorStore::pushable);
        }
        return true;
    }

    private static boolean safeKey(String key) {
        return SAFE_KEY.matcher(key).matches() && !key.equals(ID_KEY) && !key.equals(METADATA_KEY);
    }

    private static boolean safeValue(String value) {
        return !UNSAFE_VALUE.matcher(value).find();
    }

    /** {@return Spring AI's filter expression for {@code f}, or null when it lets every entry through} */
    static Filter.Expression translate(VectorFilter f) {
        if (f instanceof VectorFilter.Eq) {
            VectorFilter.Eq eq = (VectorFilter.Eq) f;
            return new Filter.Expression(Filter.ExpressionType.EQ, new Filter.Key(eq.key()),
                    new Filter.Value(eq.value()));
        }
        if (f instanceof VectorFilter.In) {
            VectorFilter.In in = (VectorFilter.In) f;
            return new Filter.Expression(Filter.ExpressionType.IN, new Filter.Key(in.key()),
                    new Filter.Value(in.values().stream().sorted().toList()));
        }
        if (f instanceof VectorFilter.AllOf) {
            Filter.Expression all = null;
            for (VectorFilter part : ((VectorFilter.AllOf) f).filters()) {
                Filter.Expression p = translate(part);
                if (p != null) {
                    all = all == null ? p : new Filter.Expression(Filter.ExpressionType.AND, all, p);
                }
            }
            return all;
        }
        return null;
    }
}
