package dev.sqlagent.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A chat request to a model: the messages, how many choices, how hot, how long, whether JSON is wanted.
 *
 * <p>{@link #role()} names the agent role that asks ({@code "refiner"}, {@code "selector"}, …). Clients
 * may ignore it; the test kit's {@code ScriptedLlm} uses it to answer each role from its own queue, and a host may use
 * it to route roles to different models. Immutable; build one with {@link #builder()}.
 */
public final class LlmRequest {

    /** Default sampling temperature: generation of SQL wants determinism. */
    public static final double DEFAULT_TEMPERATURE = 0.0;
    /** Role used when none is given. */
    public static final String DEFAULT_ROLE = "default";

    private final String role;
    private final List<ChatMessage> messages;
    private final double temperature;
    private final int n;
    private final int maxTokens;
    private final boolean jsonResponse;

    private LlmRequest(Builder b) {
        this.role = b.role;
        this.messages = List.copyOf(b.messages);
        this.temperature = b.temperature;
        this.n = b.n;
        this.maxTokens = b.maxTokens;
        this.jsonResponse = b.jsonResponse;
    }

    /** {@return a new builder} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder holding this request's values} */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.role = role;
        b.messages.addAll(messages);
        b.temperature = temperature;
        b.n = n;
        b.maxTokens = maxTokens;
        b.jsonResponse = jsonResponse;
        return b;
    }

    /** {@return the agent role asking, never blank} */
    public String role() {
        return role;
    }

    /** {@return the messages, unmodifiable, at least one} */
    public List<ChatMessage> messages() {
        return messages;
    }

    /** {@return sampling temperature, 0 to 2} */
    public double temperature() {
        return temperature;
    }

    /** {@return how many independent choices are wanted, at least 1} */
    public int n() {
        return n;
    }

    /** {@return the cap on output tokens per choice, or 0 for the provider's default} */
    public int maxTokens() {
        return maxTokens;
    }

    /** {@return whether the reply must be a JSON object} */
    public boolean jsonResponse() {
        return jsonResponse;
    }

    /** {@return the text of all messages joined, handy in tests and logs} */
    public String text() {
        StringBuilder sb = new StringBuilder();
        for (ChatMessage m : messages) {
            if (sb.length() > 0) {
                sb.append('\n');
            }
            sb.append(m.content());
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "LlmRequest{role=" + role + ", messages=" + messages.size() + ", n=" + n
                + ", temperature=" + temperature + ", maxTokens=" + maxTokens + ", json=" + jsonResponse + '}';
    }

    /** Builds an {@link LlmRequest}; every setter checks its argument and names it when it is bad. */
    public static final class Builder {
        private String role = DEFAULT_ROLE;
        private final List<ChatMessage> messages = new ArrayList<>();
        private double temperature = DEFAULT_TEMPERATURE;
        private int n = 1;
        private int maxTokens;
        private boolean jsonResponse;

        private Builder() {
        }

        /**
         * Names the agent role that asks; defaults to {@link LlmRequest#DEFAULT_ROLE}.
         *
         * @param role the asking role, not blank
         * @return this builder
         * @throws NullPointerException if {@code role} is null
         * @throws IllegalArgumentException if {@code role} is blank
         */
        public Builder role(String role) {
            Objects.requireNonNull(role, "role");
            if (role.isBlank()) {
                throw new IllegalArgumentException("role must not be blank");
            }
            this.role = role;
            return this;
        }

        /**
         * Appends one message to the conversation.
         *
         * @param message a message to append, not null
         * @return this builder
         * @throws NullPointerException if {@code message} is null
         */
        public Builder message(ChatMessage message) {
            messages.add(Objects.requireNonNull(message, "message"));
            return this;
        }

        /**
         * Appends messages to the conversation, in order.
         *
         * @param messages messages to append, neither the list nor an element null
         * @return this builder
         * @throws NullPointerException if the list or one of its messages is null
         */
        public Builder messages(List<ChatMessage> messages) {
            Objects.requireNonNull(messages, "messages").forEach(this::message);
            return this;
        }

        /**
         * Appends a system message.
         *
         * @param content the text of the message, not null
         * @return this builder
         * @throws NullPointerException if {@code content} is null
         */
        public Builder system(String content) {
            return message(ChatMessage.system(content));
        }

        /**
         * Appends a user message.
         *
         * @param content the text of the message, not null
         * @return this builder
         * @throws NullPointerException if {@code content} is null
         */
        public Builder user(String content) {
            return message(ChatMessage.user(content));
        }

        /**
         * Sets the sampling temperature; defaults to {@link LlmRequest#DEFAULT_TEMPERATURE}.
         *
         * @param temperature between 0 and 2 inclusive
         * @return this builder
         * @throws IllegalArgumentException if {@code temperature} is outside [0, 2] or NaN
         */
        public Builder temperature(double temperature) {
            if (!(temperature >= 0 && temperature <= 2)) {
                throw new IllegalArgumentException("temperature must be in [0, 2] but was " + temperature);
            }
            this.temperature = temperature;
            return this;
        }

        /**
         * Sets how many independent choices the model should return; defaults to 1.
         *
         * @param n number of choices, 1 to 128
         * @return this builder
         * @throws IllegalArgumentException if {@code n} is outside [1, 128]
         */
        public Builder n(int n) {
            if (n < 1 || n > 128) {
                throw new IllegalArgumentException("n must be in [1, 128] but was " + n);
            }
            this.n = n;
            return this;
        }

        /**
         * Caps the output tokens per choice; defaults to 0, the provider's own limit.
         *
         * @param maxTokens cap on output tokens, or 0 for the provider's default
         * @return this builder
         * @throws IllegalArgumentException if {@code maxTokens} is negative
         */
        public Builder maxTokens(int maxTokens) {
            if (maxTokens < 0) {
                throw new IllegalArgumentException("maxTokens must be >= 0 but was " + maxTokens);
            }
            this.maxTokens = maxTokens;
            return this;
        }

        /**
         * Asks for the reply to be one JSON object; defaults to false.
         *
         * @param jsonResponse whether a JSON object is wanted
         * @return this builder
         */
        public Builder jsonResponse(boolean jsonResponse) {
            this.jsonResponse = jsonResponse;
            return this;
        }

        /**
         * Builds the immutable request from the values set so far.
         *
         * @return the request
         * @throws IllegalStateException if no message was added
         */
        public LlmRequest build() {
            if (messages.isEmpty()) {
                throw new IllegalStateException("a request needs at least one message");
            }
            return new LlmRequest(this);
        }
    }
}
