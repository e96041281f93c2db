/**
 * An {@link dev.sqlagent.llm.LlmClient} for any OpenAI-compatible chat completions endpoint
 * ({@link dev.sqlagent.llm.openai.OpenAiCompatibleClient}), on the JDK's HTTP client and jackson-core.
 */
module dev.sqlagent.openai {
    requires transitive dev.sqlagent.spi.llm;
    // the builder takes a java.net.http.HttpClient
    requires transitive java.net.http;
    requires com.fasterxml.jackson.core;

    exports dev.sqlagent.llm.openai;
}
