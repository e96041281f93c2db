package dev.sqlagent.llm;

/**
 * The model SPI: one chat request in, one response out.
 *
 * <p>Implementations must be thread-safe: one agent calls its client from many threads. They may
 * retry transport faults (HTTP 429, 5xx, reset connections) with back-off; those are not SQL attempts.
 * They must not retry on their own for any other reason. A failure is reported by throwing
 * {@link LlmException}; the agent checks what comes back (a null response, a null or missing text) and
 * names the client in the error.
 *
 * <p>Ready implementations: {@code dev.sqlagent.testkit.ScriptedLlm} for tests (artifact
 * {@code sqlagent-test}), {@code dev.sqlagent.llm.openai.OpenAiCompatibleClient} for any
 * OpenAI-compatible endpoint (artifact {@code sqlagent-openai}).
 */
@FunctionalInterface
public interface LlmClient {

    /**
     * Sends a chat request.
     *
     * @param request the request, never null
     * @return the response, never null, with at least one text
     * @throws LlmException when the model cannot be reached or answers with an error
     */
    LlmResponse chat(LlmRequest request);
}
