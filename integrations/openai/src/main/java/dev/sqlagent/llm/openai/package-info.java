/**
 * A model client for any endpoint that speaks OpenAI's chat-completions protocol (artifact
 * {@code sqlagent-openai}): OpenAI itself, Azure-style gateways, vLLM, llama.cpp, Ollama, LM Studio and
 * the like.
 *
 * <p>{@link dev.sqlagent.llm.openai.OpenAiCompatibleClient} implements
 * {@link dev.sqlagent.llm.LlmClient} on the JDK's own HTTP client and Jackson's streaming parser: it
 * retries transport faults with back-off, honours {@code Retry-After}, reports every failure as an
 * {@link dev.sqlagent.llm.LlmException} of the fitting kind and never shows the API key. Build it with
 * {@link dev.sqlagent.llm.openai.OpenAiCompatibleClient#builder()} or read the settings from the
 * environment with {@link dev.sqlagent.llm.openai.OpenAiCompatibleClient#fromEnvironment()}.
 */
package dev.sqlagent.llm.openai;
