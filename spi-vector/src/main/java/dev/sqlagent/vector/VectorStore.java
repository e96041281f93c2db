package dev.sqlagent.vector;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The vector store SPI: add vectors with metadata, find the nearest ones to a query.
 *
 * <p>Scores are cosine similarities. Implementations are thread-safe, and an entry added is found by the
 * next search. {@link InMemoryVectorStore} is an exact store for up to a few hundred thousand entries.
 * Filters may be any {@link Predicate}; a {@link VectorFilter} can also be read by a store that
 * translates it into its own query language. Every implementation passes the contract suite
 * {@code VectorStoreContract} (in this module's test jar).
 */
public interface VectorStore {

    /**
     * Adds an entry, replacing any entry with the same id.
     *
     * @param id the entry's id, not blank
     * @param vector the vector; its dimension must match the store's
     * @param metadata strings to filter on and to return with hits
     * @throws IllegalArgumentException if the id is blank or the dimension differs
     */
    void add(String id, float[] vector, Map<String, String> metadata);

    /**
     * Finds the nearest entries whose metadata passes the filter.
     *
     * @param query the query vector
     * @param k how many hits at most, at least 1
     * @param filter a test on an entry's metadata; {@code m -> true} for none
     * @return hits, best first, at most {@code k}; fewer only when fewer entries pass the filter
     * @throws IllegalArgumentException if {@code k < 1} or the dimension differs
     */
    List<VectorMatch> search(float[] query, int k, Predicate<Map<String, String>> filter);

    /**
     * Removes the entry with this id, if there is one.
     *
     * @param id the entry's id
     * @return whether an entry was removed
     */
    boolean remove(String id);

    /**
     * Returns how many entries the store holds.
     *
     * @return the number of entries
     */
    int size();

    /**
     * Returns the dimension of every vector the store holds and accepts, fixed when the store was made.
     * A store already checks it on every {@link #add} and {@link #search}; saying it lets whoever pairs
     * the store with an {@link Embedder} (the case library's builder) refuse a mismatch at once instead
     * of failing every later call.
     *
     * @return the dimension, at least 1
     */
    int dimension();
}
