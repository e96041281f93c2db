package dev.sqlagent.cases;

import java.time.Instant;
import java.util.Objects;

/**
 * One finished question, good or bad, with its whole trajectory: what the library learns from.
 *
 * @param id the question's id (the trace's)
 * @param question the question
 * @param sql the final SQL (answered, rejected or last failing), or empty when none was produced
 * @param status {@link Status#GOOD} for an answer, {@link Status#BAD} otherwise
 * @param outcome the agent's status name: {@code ANSWERED}, {@code REJECTED} or {@code FAILED}
 * @param error the final error or rejection reason, empty for an answer
 * @param corrections how many corrections were made (0 or 1)
 * @param createdAt when the question finished
 * @param traceJson the whole trace as JSON
 */
public record CaseRecord(String id, String question, String sql, Status status, String outcome, String error,
        int corrections, Instant createdAt, String traceJson) {

    /** Whether a case may serve as an example. */
    public enum Status {
        /** Answered. */
        GOOD,
        /** Rejected or failed. */
        BAD
    }

    /** Checks the parts. */
    public CaseRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(question, "question");
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(traceJson, "traceJson");
    }
}
