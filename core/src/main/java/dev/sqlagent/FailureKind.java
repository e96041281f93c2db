package dev.sqlagent;

/** Why a question ended without an answer (and without a rejection). */
public enum FailureKind {
    /** The question was blank or longer than the agent accepts. */
    INVALID_QUESTION,
    /** The model could not be reached or broke its contract (no text, null response). */
    MODEL_ERROR,
    /** The model's reply held no SQL. */
    NO_SQL,
    /** The database failed for a reason the SQL cannot fix: permission, timeout, connection, limits. */
    ENVIRONMENT,
    /** The SQL failed and no correction was allowed (error not correctable, or corrections disabled). */
    NOT_CORRECTED,
    /** The SQL still failed after the single correction. */
    STILL_FAILING,
    /** The correction returned the same SQL; it was not run again. */
    CORRECTION_UNCHANGED,
    /** The agent hit an internal fault; the trace says where. */
    INTERNAL,
    /** The question's future was cancelled, or its agent closed while it ran; the model call and the
     *  statement under way were stopped. */
    CANCELLED,
    /** The question ran past its deadline ({@link QuestionBudget#deadline()}). */
    DEADLINE_EXCEEDED,
    /** The question needed more model calls than its budget allows ({@link QuestionBudget#maxModelCalls()}). */
    MODEL_CALLS_EXCEEDED,
    /** The question's model calls used more tokens than its budget allows ({@link QuestionBudget#maxTokens()}). */
    TOKENS_EXCEEDED
}
