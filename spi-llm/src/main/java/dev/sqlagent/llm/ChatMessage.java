package dev.sqlagent.llm;

import java.util.Objects;

/**
 * One message of a chat conversation sent to a model.
 *
 * @param role who speaks
 * @param content what is said; never null (may be empty)
 */
public record ChatMessage(Role role, String content) {

    /** Who speaks in a chat message. */
    public enum Role {
        /** Instructions that frame the conversation. */
        SYSTEM,
        /** The application's (or user's) turn. */
        USER,
        /** The model's earlier turn. */
        ASSISTANT
    }

    /**
     * Checks the parts.
     *
     * @throws NullPointerException if a part is null
     */
    public ChatMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
    }

    /** @param content the text  @return a system message */
    public static ChatMessage system(String content) {
        return new ChatMessage(Role.SYSTEM, content);
    }

    /** @param content the text  @return a user message */
    public static ChatMessage user(String content) {
        return new ChatMessage(Role.USER, content);
    }

    /** @param content the text  @return an assistant message */
    public static ChatMessage assistant(String content) {
        return new ChatMessage(Role.ASSISTANT, content);
    }
}
