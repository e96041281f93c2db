/**
 * An approximate {@link dev.sqlagent.vector.VectorStore} for large case libraries (artifact
 * {@code sqlagent-ann}).
 *
 * <p>{@link dev.sqlagent.ann.HnswVectorStore} keeps unit vectors in memory and searches them through
 * Lucene's HNSW graph, falling back to an exact scan for small stores and for filters so selective that
 * the graph would miss hits. It passes the same contract suite as the exact
 * {@link dev.sqlagent.vector.InMemoryVectorStore}; only which entries are found is approximate, never
 * their scores.
 */
package dev.sqlagent.ann;
