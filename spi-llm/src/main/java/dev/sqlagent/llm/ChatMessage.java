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
     * @param role who speaks, not null
     * @param content what is said, not null (may be empty)
     * @throws NullPointerException if a part is null
     */
    public ChatMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
    }

    /**
     * Creates a {@link Role#SYSTEM} message: instructions that frame the conversation.
     *
     * @param content the text, not null
     * @return a system message
     * @throws NullPointerException if {@code content} is null
     */
    public static ChatMessage system(String content) {
        return new ChatMessage(Role.SYSTEM, content);
    }

    /**
     * Creates a {@link Role#USER} message: the application's turn.
     *
     * @param content the text, not null
     * @return a user message
     * @throws NullPointerException if {@code content} is null
     */
    public static ChatMessage user(String content) {
        return new ChatMessage(Role.USER, content);
    }

    /**
     * Creates an {@link Role#ASSISTANT} message: an earlier turn of the model, replayed as context.
     *
     * @param content the text, not null
     * @return an assistant message
     * @throws NullPointerException if {@code content} is null
     */
    public static ChatMessage assistant(String content) {
        return new ChatMessage(Role.ASSISTANT, content);
    }
}
