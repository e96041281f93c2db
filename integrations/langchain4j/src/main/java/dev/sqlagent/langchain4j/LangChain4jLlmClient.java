package dev.sqlagent.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.sqlagent.llm.ChatMessage;
import dev.sqlagent.llm.ChoiceFanOut;
import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.TokenUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;

/**
 * A LangChain4j {@link ChatModel} as sqlagent's {@link LlmClient}: any provider LangChain4j supports
 * (OpenAI, Anthropic, Gemini, Ollama, Azure, Bedrock, …) can write the agent's SQL.
 *
 * <pre>{@code
 * ChatModel model = OpenAiChatModel.builder().apiKey(key).modelName("gpt-4o-mini").build();
 * SqlAgent agent = SqlAgent.builder().llm(LangChain4jLlmClient.of(model)) ... .build();
 * }</pre>
 *
 * <p>LangChain4j's common chat API has no "number of choices", so a request for {@code n > 1} choices
 * is served by {@code n} calls made at once (the first on the calling thread, the others on the
 * client's executor); their token usages are added up. The request's temperature, output-token cap and
 * JSON wish are passed on; a provider that cannot honour JSON mode can be used with
 * {@link Builder#jsonMode(boolean) jsonMode(false)}. Provider failures (LangChain4j's exception
 * hierarchy, or the I/O faults under them) are mapped to {@link LlmException} kinds: timeouts,
 * rate limits, server errors, authentication, bad requests, transport. The client adds no retry of
 * its own: LangChain4j's models retry transport faults themselves ({@code maxRetries}).
 *
 * <p>Thread-safe when the wrapped model is (LangChain4j's provider models are).
 */
public final class LangChain4jLlmClient implements LlmClient {

    /** The pool that makes the extra calls when no executor is given: daemon threads, idle ones retired. */
    private static final class DefaultPool {
        static final ExecutorService INSTANCE = ChoiceFanOut.daemonPool("sqlagent-langchain4j");
    }

    private final ChatModel model;
    private final Executor executor;
    private final boolean jsonMode;

    private LangChain4jLlmClient(Builder b) {
        this.model = b.model;
        this.executor = b.executor != null ? b.executor : DefaultPool.INSTANCE;
        this.jsonMode = b.jsonMode;
    }

    /**
     * Wraps a chat model with the default settings.
     *
     * @param model the LangChain4j chat model
     * @return the client
     * @throws NullPointerException if the model is null
     */
    public static LangChain4jLlmClient of(ChatModel model) {
        return builder(model).build();
    }

    /**
     * Starts a builder.
     *
     * @param model the LangChain4j chat model
     * @return a builder
     * @throws NullPointerException if the model is null
     */
    public static Builder builder(ChatModel model) {
        return new Builder(model);
    }

    /**
     * Sends the request to the chat model, once per wanted choice.
     *
     * @param request the request
     * @return one text per choice, the summed token usage and the model name the provider reported
     * @throws LlmException of the kind matching the provider's failure, or {@code MALFORMED_RESPONSE}
     *     when the model answered without text (a tool call, a null response)
     */
    @Override
    public LlmResponse chat(LlmRequest request) {
        Objects.requireNonNull(request, "request");
        ChatRequest chatRequest = toChatRequest(request);
        return ChoiceFanOut.collect(request.n(), () -> call(chatRequest), executor, ProviderErrors::map);
    }

    private ChatRequest toChatRequest(LlmRequest request) {
        List<dev.langchain4j.data.message.ChatMessage> messages = new ArrayList<>(request.messages().size());
        for (ChatMessage m : request.messages()) {
            messages.add(toLangChain4j(m));
        }
        ChatRequest.Builder b = ChatRequest.builder().messages(messages).temperature(request.temperature());
        if (request.maxTokens() > 0) {
            b.maxOutputTokens(request.maxTokens());
        }
        if (jsonMode && request.jsonResponse()) {
            b.responseFormat(ResponseFormat.JSON);
        }
        return b.build();
    }

    private static dev.langchain4j.data.message.ChatMessage toLangChain4j(ChatMessage m) {
        // LangChain4j refuses blank message texts; a blank turn carries nothing, so one space stands in
        String text = m.content().isBlank() ? " " : m.content();
        switch (m.role()) {
            case SYSTEM:
                return SystemMessage.from(text);
            case ASSISTANT:
                return AiMessage.from(text);
            default:
                return UserMessage.from(text);
        }
    }

    private LlmResponse call(ChatRequest request) {
        ChatResponse response;
        try {
            response = model.chat(request);
        } catch (RuntimeException e) {
            throw ProviderErrors.map(e);
        }
        if (response == null || response.aiMessage() == null) {
            throw new LlmException(LlmException.Kind.MALFORMED_RESPONSE,
                    "chat model " + model.getClass().getName() + " returned no message");
        }
        String text = response.aiMessage().text();
        if (text == null) {
            throw new LlmException(LlmException.Kind.MALFORMED_RESPONSE, "chat model " + model.getClass().getName()
                    + " returned no text" + (response.aiMessage().hasToolExecutionRequests() ? " (a tool call)" : ""));
        }
        return new LlmResponse(List.of(text), usage(response.tokenUsage()),
                response.modelName() == null ? "" : response.modelName());
    }

    private static TokenUsage usage(dev.langchain4j.model.output.TokenUsage u) {
        if (u == null) {
            return TokenUsage.NONE;
        }
        long in = u.inputTokenCount() == null ? 0 : Math.max(0, u.inputTokenCount());
        long out = u.outputTokenCount() == null ? 0 : Math.max(0, u.outputTokenCount());
        return new TokenUsage(in, out);
    }

    @Override
    public String toString() {
        return "LangChain4jLlmClient{" + model.getClass().getSimpleName() + '}';
    }

    /** Builds a {@link LangChain4jLlmClient}. */
    public static final class Builder {
        private final ChatModel model;
        private Executor executor;
        private boolean jsonMode = true;

        private Builder(ChatModel model) {
            this.model = Objects.requireNonNull(model, "model");
        }

        /**
         * Where the extra calls for {@code n > 1} choices run. Default: a shared cached pool of daemon
         * threads.
         *
         * @param executor the executor
         * @return this
         * @throws NullPointerException if the executor is null
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * Whether a request that wants JSON asks the provider for its JSON mode (default true). Turn it
         * off for a provider that refuses the JSON response format; the prompt still asks for JSON.
         *
         * @param enabled whether to ask for JSON mode
         * @return this
         */
        public Builder jsonMode(boolean enabled) {
            this.jsonMode = enabled;
            return this;
        }

        /**
         * Builds the client.
         *
         * @return the client
         */
        public LangChain4jLlmClient build() {
            return new LangChain4jLlmClient(this);
        }
    }
}
