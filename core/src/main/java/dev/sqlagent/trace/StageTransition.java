package dev.sqlagent.trace;

import java.time.Instant;
import java.util.Objects;

/**
 * An immutable event published on every move of the state machine.
 *
 * @param questionId the id of the question moving
 * @param from the stage left
 * @param to the stage entered
 * @param at when
 * @param reason why, in a few words (e.g. {@code "correctable COLUMN_NOT_FOUND"})
 */
public record StageTransition(String questionId, Stage from, Stage to, Instant at, String reason) {

    /**
     * Checks the parts.
     *
     * @param questionId the id of the question moving
     * @param from the stage left
     * @param to the stage entered
     * @param at when
     * @param reason why, in a few words (e.g. {@code "correctable COLUMN_NOT_FOUND"})
     */
    public StageTransition {
        Objects.requireNonNull(questionId, "questionId");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(reason, "reason");
    }
}
