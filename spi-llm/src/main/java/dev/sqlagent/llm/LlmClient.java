package dev.sqlagent.llm;

/**
 * The model SPI: one chat request in, one response out.
 *
 * <p>Implementations must be thread-safe: one agent calls its client from many threads. They may
 * retry transport faults (HTTP 429, 5xx, reset connections) with back-off; those are not SQL attempts.
 * They must not retry on their own for any other reason. A failure is reported by throwing
 * {@link LlmException} with the {@link LlmException.Kind} that fits; the agent records it in the trace
 * and ends the question (or, for an optional step, goes on without it) rather than propagating it. The
 * agent also checks what comes back (a null response, a response without text) and names the client in
 * the error; any other exception a client throws is treated the same way, but says less.
 *
 * <p>A client should return {@link LlmRequest#n()} texts; a client whose provider ignores {@code n} may
 * return fewer, and the agent asks again with single-choice requests for the rest. Clients may ignore
 * {@link LlmRequest#role()}, and may treat {@link LlmRequest#jsonResponse()} as a hint: the agent parses
 * and checks every reply itself.
 *
 * <p>Ready implementations: {@code dev.sqlagent.testkit.ScriptedLlm} for tests (artifact
 * {@code sqlagent-test}), {@code dev.sqlagent.llm.openai.OpenAiCompatibleClient} for any
 * OpenAI-compatible endpoint (artifact {@code sqlagent-openai}).
 */
@FunctionalInterface
public interface LlmClient {

    /**
     * Sends a chat request and waits for the answer. Called concurrently from many threads.
     *
     * @param request the request, never null
     * @return the response, never null, with at least one text (at most {@link LlmRequest#n()})
     * @throws LlmException when the model cannot be reached or answers with an error, after the client's
     *     own retries of transport faults
     */
    LlmResponse chat(LlmRequest request);
}
