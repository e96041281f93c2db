package dev.sqlagent.internal;

import java.util.List;
import java.util.Objects;

/**
 * What a question run knows of its conversation: an id (the key of its cached schema selection) and
 * the earlier turns.
 *
 * @param id the conversation's id
 * @param turns earlier turns, oldest first, as "question → SQL" lines
 */
public record ConversationContext(String id, List<String> turns) {

    /** Copies the turns. */
    public ConversationContext {
        Objects.requireNonNull(id, "id");
        turns = List.copyOf(turns);
    }

    /** @return the turns as text for the rewriter */
    public String historyText() {
        StringBuilder sb = new StringBuilder();
        int i = 1;
        for (String t : turns) {
            sb.append(i++).append(". ").append(t).append('\n');
        }
        return sb.toString();
    }
}
