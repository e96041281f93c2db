package dev.sqlagent.cases;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.vector.Embedder;
import dev.sqlagent.vector.HashingEmbedder;
import dev.sqlagent.vector.InMemoryVectorStore;
import dev.sqlagent.vector.VectorMatch;
import dev.sqlagent.vector.VectorStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the agent learns from its cases. It is a {@link CaseSink}: every finished question is offered to
 * it, and it keeps two kinds apart in a {@link VectorStore}:
 * <ul>
 *   <li><b>good examples</b>: answers the judge or the verifiers accepted ({@link CaseRecord#verified()}),
 *       embedded as "table ‖ category ‖ question"; retrieved before generation as few-shot examples,
 *       ranked by cosine × quality (judge score × 1/rounds), above a similarity threshold;</li>
 *   <li><b>repairs</b>: corrections that led to an answer, with the wrong SQL, the fixed SQL and the
 *       judge's comment; retrieved during the correction when the error category matches, weighted
 *       1 + 0.3 × shared error tags.</li>
 * </ul>
 * Bad cases are not examples. Retrieved cases obey the current policy: a case whose SQL read a table the
 * policy now forbids is never shown. A store or embedder that throws during a retrieval (a shared store
 * that is down) gives no examples or repairs, logged at WARN and counted ({@link #retrievalFailures()}),
 * never a failed question. Thread-safe if the store is.
 */
public final class CaseLibrary implements CaseSink {

    /** Default number of few-shot examples. */
    public static final int DEFAULT_EXAMPLES = 3;
    /** Default cosine threshold for examples. */
    public static final double DEFAULT_THRESHOLD = 0.6;
    /** Default number of repairs shown in a correction. */
    public static final int DEFAULT_REPAIRS = 2;
    /** Default minimum judge score kept by {@link #cleanup()}. */
    public static final int DEFAULT_MIN_SCORE = 60;

    private static final String KIND = "kind";
    private static final String SEP = "\u0001";
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CaseLibrary.class);

    /**
     * A good example.
     *
     * @param id the case id
     * @param question its question
     * @param sql its SQL
     * @param similarity cosine similarity to the asked question
     * @param score similarity × quality, what ranks it
     */
    public record Example(String id, String question, String sql, double similarity, double score) {
    }

    /**
     * A past repair.
     *
     * @param id the case id
     * @param wrongSql the SQL that failed
     * @param fixedSql the SQL that worked
     * @param errorCategory the category of the failure
     * @param comment the error and the judge's comment, if any
     * @param score similarity × (1 + 0.3 × shared tags)
     */
    public record Repair(String id, String wrongSql, String fixedSql, String errorCategory, String comment,
            double score) {
    }

    private final VectorStore store;
    private final Embedder embedder;
    private final int examples;
    private final double threshold;
    private final int repairs;
    private final int minScore;
    private final Map<String, Integer> scores = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.LongAdder retrievalFailures = new java.util.concurrent.atomic.LongAdder();

    private CaseLibrary(Builder b) {
        this.embedder = b.embedder;
        int dimension = b.embedder.dimension();
        if (dimension < 1) {
            throw new IllegalStateException("embedder " + name(b.embedder) + " reports dimension "
                    + dimension + " (caseLibrary.embedder)");
        }
        if (b.store != null) {
            int stored = b.store.dimension();
            if (stored != dimension) {
                throw new IllegalStateException("store dimension " + stored + " does not match embedder dimension "
                        + dimension + " (caseLibrary.store " + name(b.store) + " vs caseLibrary.embedder "
                        + name(b.embedder) + ")");
            }
        }
        this.store = b.store != null ? b.store : new InMemoryVectorStore(dimension);
        this.examples = b.examples;
        this.threshold = b.threshold;
        this.repairs = b.repairs;
        this.minScore = b.minScore;
    }

    private static String name(Object plugin) {
        String simple = plugin.getClass().getSimpleName();
        return simple.isEmpty() ? plugin.getClass().getName() : simple;
    }

    /** {@return a builder (hashing embedder and exact in-memory store by default)} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return the store behind the library} */
    public VectorStore store() {
        return store;
    }

    @Override
    public void accept(CaseRecord c) {
        String tables = String.join(",", c.tablesRead());
        if (c.status() == CaseRecord.Status.GOOD && c.verified() && !c.sql().isEmpty()) {
            Map<String, String> m = new HashMap<>();
            m.put(KIND, "good");
            m.put("question", c.question());
            m.put("sql", c.sql());
            m.put("table", c.table());
            m.put("category", c.category());
            m.put("quality", Double.toString(c.quality()));
            m.put("tables", tables);
            store.add("good:" + c.id(), embed(c.table(), c.category(), c.question()), m);
            c.judgeScore().ifPresent(s -> scores.put("good:" + c.id(), s));
        }
        if (c.status() == CaseRecord.Status.GOOD && c.corrections() == 1) {
            CaseRecord.Attempt wrong = corrected(c.attempts());
            if (wrong != null && !wrong.sql().equals(c.sql())) {
                Map<String, String> m = new HashMap<>();
                m.put(KIND, "repair");
                m.put("wrong_sql", wrong.sql());
                m.put("fixed_sql", c.sql());
                m.put("error_category", c.errorCategory());
                m.put("tags", String.join(",", c.errorTags()));
                m.put("comment", (wrong.error() + " " + wrong.judgeComment()).trim());
                m.put("tables", tables);
                store.add("repair:" + c.id(), embed(c.table(), c.category(), c.question()), m);
            }
        }
    }

    /**
     * The attempt the correction worked on, as the agent chooses it: the first candidate of the first
     * round that failed on the database or that the guard refused for an invented column or function
     * (never run); else (none ran) the first that did not parse; else the first
     * that named a table the database lacks. A candidate rejected for breaking the policy never gets
     * here: such a question is rejected, not corrected. A correction of a result anomaly (its SQL ran)
     * has none.
     */
    private static CaseRecord.Attempt corrected(List<CaseRecord.Attempt> attempts) {
        for (String kind : List.of("error", "invented_name", "unparseable", "rejected")) {
            for (CaseRecord.Attempt a : attempts) {
                if (a.round() == 0 && a.execResult().equals(kind)) {
                    return a;
                }
            }
        }
        return null;
    }

    /**
     * Few-shot examples for a question.
     *
     * @param question the question
     * @param table its table label, or empty
     * @param category its category label, or empty
     * @param policy the policy in force: examples reading other tables are never returned
     * @return at most the configured number, best first, each above the similarity threshold
     */
    public List<Example> examplesFor(String question, String table, String category, GuardPolicy policy) {
        List<VectorMatch> hits;
        try {
            hits = store.search(embed(table, category, question), Math.max(examples * 4, 8),
                    m -> "good".equals(m.get(KIND)) && allowed(m.get("tables"), policy));
        } catch (RuntimeException e) {
            return failed("examples", e);
        }
        List<Example> out = new ArrayList<>();
        for (VectorMatch h : hits) {
            if (h.score() < threshold) {
                continue;
            }
            double quality = parse(h.metadata().get("quality"), 0.8);
            out.add(new Example(h.id().substring("good:".length()), h.metadata().get("question"),
                    h.metadata().get("sql"), h.score(), h.score() * quality));
        }
        out.sort(Comparator.comparingDouble(Example::score).reversed());
        return out.size() > examples ? out.subList(0, examples) : out;
    }

    /**
     * Past repairs of the same kind of failure.
     *
     * @param question the question being corrected
     * @param errorCategory the category of the failure
     * @param tags the judge's error tags, if any
     * @param policy the policy in force
     * @return at most the configured number, best first
     */
    public List<Repair> repairsFor(String question, String errorCategory, List<String> tags, GuardPolicy policy) {
        List<VectorMatch> hits;
        try {
            hits = store.search(embed("", "", question), Math.max(repairs * 8, 16),
                    m -> "repair".equals(m.get(KIND)) && allowed(m.get("tables"), policy)
                            && (errorCategory.equals(m.get("error_category")) || shares(m.get("tags"), tags)));
        } catch (RuntimeException e) {
            return failed("repairs", e);
        }
        List<Repair> out = new ArrayList<>();
        for (VectorMatch h : hits) {
            int shared = 0;
            Set<String> theirs = new HashSet<>(Arrays.asList(h.metadata().getOrDefault("tags", "").split(",")));
            for (String t : tags) {
                if (theirs.contains(t)) {
                    shared++;
                }
            }
            out.add(new Repair(h.id().substring("repair:".length()), h.metadata().get("wrong_sql"),
                    h.metadata().get("fixed_sql"), h.metadata().get("error_category"), h.metadata().get("comment"),
                    h.score() * (1 + 0.3 * shared)));
        }
        out.sort(Comparator.comparingDouble(Repair::score).reversed());
        return out.size() > repairs ? out.subList(0, repairs) : out;
    }

    private <T> List<T> failed(String what, RuntimeException e) {
        retrievalFailures.increment();
        LOG.warn("case library could not retrieve {} from {} ({}); the question goes on without them",
                what, name(store), e.toString());
        return List.of();
    }

    /**
     * Returns how many retrievals failed: each a question shown no examples, or a correction shown no past
     * repairs, because the store or the embedder threw.
     *
     * @return the failed retrievals since the library was built
     */
    public long retrievalFailures() {
        return retrievalFailures.sum();
    }

    /**
     * Drops good examples whose judge score is under the minimum (default 60). Examples without a judge
     * score stay.
     *
     * @return how many were dropped
     */
    public int cleanup() {
        int dropped = 0;
        for (Map.Entry<String, Integer> e : new ArrayList<>(scores.entrySet())) {
            if (e.getValue() < minScore && store.remove(e.getKey())) {
                scores.remove(e.getKey());
                dropped++;
            }
        }
        return dropped;
    }

    private float[] embed(String table, String category, String question) {
        return embedder.embed(table + " ‖ " + category + " ‖ " + question);
    }

    private static boolean allowed(String tables, GuardPolicy policy) {
        if (tables == null || tables.isEmpty()) {
            return true;
        }
        for (String t : tables.split(",")) {
            if (!t.isBlank() && !policy.allowsTable(t)) {
                return false;
            }
        }
        return true;
    }

    private static boolean shares(String theirs, List<String> ours) {
        if (theirs == null || theirs.isEmpty() || ours.isEmpty()) {
            return false;
        }
        for (String t : theirs.split(",")) {
            if (ours.contains(t)) {
                return true;
            }
        }
        return false;
    }

    private static double parse(String s, double fallback) {
        try {
            return s == null ? fallback : Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    @Override
    public String toString() {
        return "CaseLibrary{size=" + store.size() + '}';
    }

    /** Builds a {@link CaseLibrary}; setters check their arguments. */
    public static final class Builder {
        private Embedder embedder = HashingEmbedder.create();
        private VectorStore store;
        private int examples = DEFAULT_EXAMPLES;
        private double threshold = DEFAULT_THRESHOLD;
        private int repairs = DEFAULT_REPAIRS;
        private int minScore = DEFAULT_MIN_SCORE;

        private Builder() {
        }

        /**
         * Sets the embedder that turns questions into vectors; defaults to {@link HashingEmbedder#create()}.
         *
         * @param embedder turns questions into vectors, not null
         * @return this builder
         * @throws NullPointerException if {@code embedder} is null
         */
        public Builder embedder(Embedder embedder) {
            this.embedder = Objects.requireNonNull(embedder, "embedder");
            return this;
        }

        /**
         * Sets where the vectors are kept; by default an {@link InMemoryVectorStore} of the embedder's
         * dimension, which is lost when the process ends.
         *
         * @param store where vectors are kept, not null; its dimension must match the embedder's
         * @return this builder
         * @throws NullPointerException if {@code store} is null
         */
        public Builder store(VectorStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * Sets how many few-shot examples a question gets at most and how similar they must be; defaults
         * to {@value CaseLibrary#DEFAULT_EXAMPLES} and {@value CaseLibrary#DEFAULT_THRESHOLD}.
         *
         * @param k how many examples, 0 to 10 (0 turns examples off)
         * @param threshold the least cosine similarity, 0 to 1
         * @return this builder
         * @throws IllegalArgumentException if {@code k} or {@code threshold} is out of range
         */
        public Builder examples(int k, double threshold) {
            if (k < 0 || k > 10) {
                throw new IllegalArgumentException("examples must be in [0, 10] but was " + k);
            }
            if (!(threshold >= 0 && threshold <= 1)) {
                throw new IllegalArgumentException("threshold must be in [0, 1] but was " + threshold);
            }
            this.examples = k;
            this.threshold = threshold;
            return this;
        }

        /**
         * Sets how many past repairs a correction is shown at most; defaults to
         * {@value CaseLibrary#DEFAULT_REPAIRS}.
         *
         * @param k how many repairs, 0 to 10 (0 turns repairs off)
         * @return this builder
         * @throws IllegalArgumentException if {@code k} is out of range
         */
        public Builder repairs(int k) {
            if (k < 0 || k > 10) {
                throw new IllegalArgumentException("repairs must be in [0, 10] but was " + k);
            }
            this.repairs = k;
            return this;
        }

        /**
         * Sets the least judge score an example needs to survive {@link CaseLibrary#cleanup()}; defaults
         * to {@value CaseLibrary#DEFAULT_MIN_SCORE}.
         *
         * @param minScore the least judge score kept, 0 to 100
         * @return this builder
         * @throws IllegalArgumentException if {@code minScore} is out of range
         */
        public Builder minScore(int minScore) {
            if (minScore < 0 || minScore > 100) {
                throw new IllegalArgumentException("minScore must be in [0, 100] but was " + minScore);
            }
            this.minScore = minScore;
            return this;
        }

        /**
         * Builds the library. Asks the embedder its {@link Embedder#dimension() dimension} (an embedder
         * that does not know it embeds a probe text) and checks the store's against it.
         *
         * @return the library
         * @throws IllegalStateException if the store's dimension differs from the embedder's, naming both
         */
        public CaseLibrary build() {
            return new CaseLibrary(this);
        }
    }

    static String normalise(String s) {
        return s.toLowerCase(Locale.ROOT) + SEP;
    }
}
