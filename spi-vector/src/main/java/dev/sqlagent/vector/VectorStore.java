package dev.sqlagent.vector;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The vector store SPI: add vectors with metadata, find the nearest ones to a query.
 *
 * <p>Scores are cosine similarities, whatever the length of the vectors added or searched by.
 * Implementations are thread-safe (additions, removals and searches may run at once from many threads)
 * and an entry added is found by the next search. Arguments are checked: a wrong dimension, a blank id or
 * {@code k < 1} is an {@link IllegalArgumentException}, never a silent miss. Any other exception (a
 * database that cannot be reached) propagates to the caller; the agent's case library does not catch it,
 * so a store that fails during a question ends that question as an internal fault.
 *
 * <p>{@link InMemoryVectorStore} is an exact store for up to a few hundred thousand entries.
 * Filters may be any {@link Predicate}; a {@link VectorFilter} can also be read by a store that
 * translates it into its own query language, and must then select exactly the entries its
 * {@code test} accepts. Every implementation passes the contract suite {@code VectorStoreContract} (in
 * this module's test jar).
 */
public interface VectorStore {

    /**
     * Adds an entry, replacing any entry with the same id (its vector and its metadata).
     *
     * @param id the entry's id, not blank
     * @param vector the vector, not null; its dimension must match the store's. The store does not keep
     *     a reference to the array
     * @param metadata strings to filter on and to return with hits, not null (may be empty)
     * @throws IllegalArgumentException if the id is blank or the dimension differs; a store may also
     *     refuse a vector it cannot hold (a non-finite component; the zero vector in an approximate index)
     * @throws NullPointerException if an argument is null
     */
    void add(String id, float[] vector, Map<String, String> metadata);

    /**
     * Finds the nearest entries whose metadata passes the filter. The filter is applied before the
     * {@code k} nearest are taken, so a selective filter still yields hits far from the query.
     *
     * @param query the query vector, not null, of the store's dimension
     * @param k how many hits at most, at least 1
     * @param filter a test on an entry's metadata, not null; {@link VectorFilter#everything()} (or
     *     {@code m -> true}) for none
     * @return hits, best first, at most {@code k}; fewer only when fewer entries pass the filter; never
     *     null
     * @throws IllegalArgumentException if {@code k < 1} or the dimension differs
     * @throws NullPointerException if the query or the filter is null
     */
    List<VectorMatch> search(float[] query, int k, Predicate<Map<String, String>> filter);

    /**
     * Removes the entry with this id, if there is one; later searches no longer return it.
     *
     * @param id the entry's id, not null
     * @return whether an entry was removed
     * @throws NullPointerException if the id is null
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
