/**
 * A model-backed {@link dev.sqlagent.vector.Embedder} that runs in-process (artifact
 * {@code sqlagent-minilm}).
 *
 * <p>{@link dev.sqlagent.minilm.MiniLmEmbedder} embeds texts with all-MiniLM-L6-v2 through ONNX Runtime,
 * from the model file inside LangChain4j's jar: no network, no download. Unlike the hashing embedder it
 * finds paraphrases of English questions, so the case library can retrieve examples asked in other
 * words. Its vectors have 384 dimensions, the same as {@link dev.sqlagent.vector.HashingEmbedder}'s
 * default.
 */
package dev.sqlagent.minilm;
