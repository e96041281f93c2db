package dev.sqlagent.springai;

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
import java.util.function.Function;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * A Spring AI {@link ChatModel} as sqlagent's {@link LlmClient}: any provider Spring AI supports (OpenAI,
 * Anthropic, Ollama, Azure OpenAI, Bedrock, Vertex AI, …) can write the agent's SQL.
 *
 * <pre>{@code
 * SqlAgent agent = SqlAgent.builder().llm(SpringAiLlmClient.of(chatModel)) ... .build();
 * }</pre>
 *
 * <p>How a request is passed on:
 * <ul>
 *   <li>Messages become Spring AI's {@link SystemMessage}, {@link UserMessage} and {@link AssistantMessage}
 *       in order.</li>
 *   <li>The temperature and the output-token cap go into portable {@link ChatOptions}, which Spring AI's
 *       providers merge over their own defaults (the model name and the rest stay the host's).</li>
 *   <li>Spring AI's portable options have no "number of choices": a request for {@code n > 1} is served
 *       by {@code n} calls made at once (the first on the calling thread, the others on the client's
 *       executor), and their token usages are added up.</li>
 *   <li>Nor have they a JSON mode. The prompt asks for JSON anyway; to turn on a provider's JSON mode,
 *       give {@link Builder#options(Function) options} that build the provider's own options class (for
 *       example OpenAI's with a JSON response format) from the request.</li>
 *   <li>The token usage comes from the response's metadata ({@link Usage}); a provider that reports none
 *       counts as {@link TokenUsage#NONE}. The model name is the one the provider reported.</li>
 *   <li>Provider failures are mapped to {@link LlmException} kinds as the other adapters map them: Spring's
 *       HTTP status exceptions by status (401/403 authentication, 408 timeout, 429 rate limited, 5xx server
 *       error, 4xx bad request), Spring AI's {@code NonTransientAiException} and {@code TransientAiException}
 *       by the status their message starts with (else bad request and server error), I/O faults as
 *       transport, timeouts as timeout. The client adds no retry: Spring AI's providers retry
 *       themselves ({@code spring.ai.retry.*}).</li>
 * </ul>
 *
 * <p>Thread-safe when the wrapped model is (Spring AI's provider models are).
 */
public final class SpringAiLlmClient implements LlmClient {

    /** The pool that makes the extra calls when no executor is given: daemon threads, idle ones retired. */
    private static final class DefaultPool {
        static final ExecutorService INSTANCE = ChoiceFanOut.daemonPool("sqlagent-spring-ai");
    }

    private final ChatModel model;
    private final Executor executor;
    private final Function<LlmRequest, ChatOptions> options;

    private SpringAiLlmClient(Builder b) {
        this.model = b.model;
        this.executor = b.executor != null ? b.executor : DefaultPool.INSTANCE;
        this.options = b.options;
    }

    /**
     * Wraps a chat model with the default settings.
     *
     * @param model the Spring AI chat model
     * @return the client
     * @throws NullPointerException if the model is null
     */
    public static SpringAiLlmClient of(ChatModel model) {
        return builder(model).build();
    }

    /**
     * Starts a builder.
     *
     * @param model the Spring AI chat model
     * @return a builder
     * @throws NullPointerException if the model is null
     */
    public static Builder builder(ChatModel model) {
        return new Builder(model);
    }

    /**
     * The portable options for a request: its temperature and, when it sets one, its output-token cap.
     *
     * @param request the request
     * @return the options
     * @throws NullPointerException if the request is null
     */
    public static ChatOptions portableOptions(LlmRequest request) {
        ChatOptions.Builder b = ChatOptions.builder().temperature(request.temperature());
        if (request.maxTokens() > 0) {
            b.maxTokens(request.maxTokens());
        }
        return b.build();
    }

    /**
     * Sends the request to the chat model, once per wanted choice.
     *
     * @param request the request
     * @return one text per choice, the summed token usage and the model name the provider reported
     * @throws LlmException of the kind matching the provider's failure, or {@code MALFORMED_RESPONSE}
     *     when the model answered without text (a tool call, an empty response)
     */
    @Override
    public LlmResponse chat(LlmRequest request) {
        Objects.requireNonNull(request, "request");
        Prompt prompt = toPrompt(request);
        return ChoiceFanOut.collect(request.n(), () -> call(prompt), executor, ProviderErrors::map);
    }

    private Prompt toPrompt(LlmRequest request) {
        List<Message> messages = new ArrayList<>(request.messages().size());
        for (ChatMessage m : request.messages()) {
            switch (m.role()) {
                case SYSTEM:
                    messages.add(new SystemMessage(m.content()));
                    break;
                case ASSISTANT:
                    messages.add(new AssistantMessage(m.content()));
                    break;
                default:
                    messages.add(new UserMessage(m.content()));
            }
        }
        ChatOptions chatOptions = options.apply(request);
        return chatOptions == null ? new Prompt(messages) : new Prompt(messages, chatOptions);
    }

    private LlmResponse call(Prompt prompt) {
        ChatResponse response;
        try {
            response = model.call(prompt);
        } catch (RuntimeException e) {
            throw ProviderErrors.map(e);
        }
        Generation generation = response == null ? null : response.getResult();
        if (generation == null || generation.getOutput() == null) {
            throw new LlmException(LlmException.Kind.MALFORMED_RESPONSE,
                    "chat model " + model.getClass().getName() + " returned no message");
        }
        AssistantMessage message = generation.getOutput();
        String text = message.getText();
        if (text == null) {
            throw new LlmException(LlmException.Kind.MALFORMED_RESPONSE, "chat model " + model.getClass().getName()
                    + " returned no text" + (message.hasToolCalls() ? " (a tool call)" : ""));
        }
        ChatResponseMetadata metadata = response.getMetadata();
        String modelName = metadata == null || metadata.getModel() == null ? "" : metadata.getModel();
        return new LlmResponse(List.of(text), usage(metadata == null ? null : metadata.getUsage()), modelName);
    }

    private static TokenUsage usage(Usage u) {
        if (u == null) {
            return TokenUsage.NONE;
        }
        long in = u.getPromptTokens() == null ? 0 : Math.max(0, u.getPromptTokens());
        long out = u.getCompletionTokens() == null ? 0 : Math.max(0, u.getCompletionTokens());
        return new TokenUsage(in, out);
    }

    @Override
    public String toString() {
        return "SpringAiLlmClient{" + model.getClass().getSimpleName() + '}';
    }

    /** Builds a {@link SpringAiLlmClient}. */
    public static final class Builder {
        private final ChatModel model;
        private Executor executor;
        private Function<LlmRequest, ChatOptions> options = SpringAiLlmClient::portableOptions;

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
         * How a request's settings become the options sent with each call, for a provider's own options
         * (a JSON response format, a seed). Default: {@link SpringAiLlmClient#portableOptions(LlmRequest)}.
         *
         * @param options makes the options for a request; it may return null to send none (the model's
         *     defaults apply)
         * @return this
         * @throws NullPointerException if the function is null
         */
        public Builder options(Function<LlmRequest, ChatOptions> options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * Builds the client.
         *
         * @return the client
         */
        public SpringAiLlmClient build() {
            return new SpringAiLlmClient(this);
        }
    }
}
