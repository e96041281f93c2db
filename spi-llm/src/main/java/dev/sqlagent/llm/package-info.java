/**
 * The model SPI: how sqlagent talks to a language model.
 *
 * <p>{@link dev.sqlagent.llm.LlmClient} is the one interface to implement: it takes an immutable
 * {@link dev.sqlagent.llm.LlmRequest} (chat messages, number of choices, temperature, token cap, JSON
 * mode) and returns an {@link dev.sqlagent.llm.LlmResponse} (one text per choice, the
 * {@link dev.sqlagent.llm.TokenUsage} and the model name), or throws an
 * {@link dev.sqlagent.llm.LlmException} whose {@link dev.sqlagent.llm.LlmException.Kind} says why the call
 * failed. Clients are called from many threads at once and must be thread-safe.
 *
 * <p>This module depends on nothing but the JDK, so a client for a new provider can be written without
 * depending on the agent itself. Ready clients live in {@code sqlagent-openai} (any OpenAI-compatible
 * endpoint), {@code sqlagent-langchain4j} (any LangChain4j chat model) and {@code sqlagent-test} (a
 * scripted fake for tests).
 */
package dev.sqlagent.llm;
