/**
 * The vector SPI: embedding texts and finding the nearest stored vectors, as the case library does to
 * retrieve past questions.
 *
 * <p>Two interfaces to implement: {@link dev.sqlagent.vector.Embedder} turns a text into a vector of
 * fixed dimension, deterministically; {@link dev.sqlagent.vector.VectorStore} keeps vectors with string
 * metadata and returns the {@link dev.sqlagent.vector.VectorMatch nearest} ones by cosine similarity,
 * optionally restricted by a metadata filter (any predicate, or a {@link dev.sqlagent.vector.VectorFilter}
 * that a database-backed store can translate into its own query). Both must be thread-safe.
 *
 * <p>Ready implementations that need nothing beyond the JDK: {@link dev.sqlagent.vector.HashingEmbedder}
 * (feature hashing, finds near-duplicate questions without a model) and
 * {@link dev.sqlagent.vector.InMemoryVectorStore} (an exact store that can be saved to a file).
 * {@link dev.sqlagent.vector.VectorSlots} and {@link dev.sqlagent.vector.VectorMath} are building blocks
 * for further in-memory stores. Model-backed embedders and approximate or database stores live in the
 * {@code integrations} modules.
 */
package dev.sqlagent.vector;
