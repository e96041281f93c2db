package dev.sqlagent.eval;

import java.util.Objects;

/**
 * One question of an evaluation set.
 *
 * @param id unique within the set; the key of checkpoints and resumption
 * @param question the question in natural language, not blank
 * @param goldSql the reference SQL, or empty when the set has none for this question
 * @param dbId the database the question is about, not blank; names the agent that answers it
 * @param table the table the question is mainly about, or empty (used to group trajectories)
 * @param category a free category for the breakdown in the summary, or empty
 */
public record EvalQuestion(String id, String question, String goldSql, String dbId, String table, String category) {

    /**
     * Checks the parts.
     *
     * @param id unique within the set, not blank
     * @param question the question in natural language, not blank
     * @param goldSql the reference SQL, or empty
     * @param dbId the database the question is about, not blank
     * @param table the table the question is mainly about, or empty
     * @param category a free category, or empty
     * @throws NullPointerException if a part is null
     * @throws IllegalArgumentException if the id, question or database id is blank
     */
    public EvalQuestion {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(question, "question");
        Objects.requireNonNull(goldSql, "goldSql");
        Objects.requireNonNull(dbId, "dbId");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(category, "category");
        if (id.isBlank()) {
            throw new IllegalArgumentException("id must not be blank");
        }
        if (question.isBlank()) {
            throw new IllegalArgumentException("question must not be blank (id " + id + ")");
        }
        if (dbId.isBlank()) {
            throw new IllegalArgumentException("dbId must not be blank (id " + id + ")");
        }
    }

    /** {@return whether a reference SQL is given} */
    public boolean hasGold() {
        return !goldSql.isBlank();
    }
}
