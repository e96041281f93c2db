package dev.sqlagent.cases;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One finished question, good or bad, with its whole trajectory: what the library learns from.
 *
 * @param id the question's id (the trace's)
 * @param question the question (after rewriting)
 * @param table the host's table label, or empty
 * @param category the host's category label, or empty
 * @param sql the final SQL (answered, rejected or last failing), or empty when none was produced
 * @param status {@link Status#GOOD} for an answer, {@link Status#BAD} otherwise
 * @param outcome the agent's status name: {@code ANSWERED}, {@code REJECTED} or {@code FAILED}
 * @param error the final error or rejection reason, empty for an answer
 * @param errorCategory the category of the error that was corrected or that ended the question, or empty
 * @param errorTags the judge's error tags, if it gave any
 * @param verified whether an answer was accepted by the judge or passed the configured verifiers without
 *     an unresolved finding: only such cases become few-shot examples
 * @param judgeScore the judge's last score, when the judge ran
 * @param corrections how many corrections were made (0 or 1)
 * @param attempts the trajectory: one entry per candidate that was guarded, in order
 * @param tablesRead the tables the final SQL reads, as the guard found them
 * @param modelNames the models that answered, in order of first use
 * @param createdAt when the question finished
 * @param traceJson the whole trace as JSON
 */
public record CaseRecord(String id, String question, String table, String category, String sql, Status status,
        String outcome, String error, String errorCategory, List<String> errorTags, boolean verified,
        OptionalInt judgeScore, int corrections, List<Attempt> attempts, List<String> tablesRead,
        List<String> modelNames, Instant createdAt, String traceJson) {

    /** Whether the question was answered. */
    public enum Status {
        /** Answered. */
        GOOD,
        /** Rejected or failed. */
        BAD
    }

    /**
     * One step of the trajectory: a candidate of a round, what the guard and the database made of it.
     *
     * @param round 0 for the first generation, 1 for the correction
     * @param sql the candidate
     * @param execResult {@code ok}, {@code error} (it ran and failed), {@code invented_name} (the guard refused
     *     a column or function the database does not have: never run, corrected like an error),
     *     {@code rejected}, {@code unparseable} or {@code not_run}
     * @param rows rows returned when it ran, else 0
     * @param error the error or violation, or empty
     * @param judgeCorrect the judge's verdict on it, when the judge ran
     * @param judgeComment the judge's comment and advice, or empty
     */
    public record Attempt(int round, String sql, String execResult, int rows, String error,
            Optional<Boolean> judgeCorrect, String judgeComment) {
        /**
         * Checks the parts; none of the object parts may be null.
         *
         * @param round 0 for the first generation, 1 for the correction
         * @param sql the candidate
         * @param execResult {@code ok}, {@code error} (it ran and failed), {@code invented_name} (refused by the
         *     guard for an invented column or function, never run), {@code rejected}, {@code unparseable} or
         *     {@code not_run}
         * @param rows rows returned when it ran, else 0
         * @param error the error or violation, or empty
         * @param judgeCorrect the judge's verdict on it, or empty when the judge did not run
         * @param judgeComment the judge's comment and advice, or empty
         * @throws NullPointerException if an object part is null
         */
        public Attempt {
            Objects.requireNonNull(sql, "sql");
            Objects.requireNonNull(execResult, "execResult");
            Objects.requireNonNull(error, "error");
            Objects.requireNonNull(judgeCorrect, "judgeCorrect");
            Objects.requireNonNull(judgeComment, "judgeComment");
        }
    }

    /**
     * Checks the parts and copies the lists into unmodifiable ones; no part may be null.
     *
     * @param id the question's id (the trace's)
     * @param question the question (after rewriting)
     * @param table the host's table label, or empty
     * @param category the host's category label, or empty
     * @param sql the final SQL, or empty when none was produced
     * @param status {@link Status#GOOD} for an answer, {@link Status#BAD} otherwise
     * @param outcome the agent's status name: {@code ANSWERED}, {@code REJECTED} or {@code FAILED}
     * @param error the final error or rejection reason, empty for an answer
     * @param errorCategory the category of the error that was corrected or that ended the question, or
     *     empty
     * @param errorTags the judge's error tags, possibly empty; copied
     * @param verified whether an answer was accepted by the judge or passed the verifiers
     * @param judgeScore the judge's last score, or empty when the judge did not run
     * @param corrections how many corrections were made (0 or 1)
     * @param attempts the trajectory, one entry per guarded candidate in order; copied
     * @param tablesRead the tables the final SQL reads; copied
     * @param modelNames the models that answered, in order of first use; copied
     * @param createdAt when the question finished
     * @param traceJson the whole trace as JSON
     * @throws NullPointerException if a part, or an element of a list, is null
     */
    public CaseRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(question, "question");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(errorCategory, "errorCategory");
        errorTags = List.copyOf(errorTags);
        Objects.requireNonNull(judgeScore, "judgeScore");
        attempts = List.copyOf(attempts);
        tablesRead = List.copyOf(tablesRead);
        modelNames = List.copyOf(modelNames);
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(traceJson, "traceJson");
    }

    /** {@return how many rounds were used: 1, or 2 with the correction} */
    public int rounds() {
        return corrections + 1;
    }

    /**
     * The case's worth as an example: the judge's score (or 80 when no judge ran) divided by the rounds
     * it took, on a 0–1 scale.
     *
     * @return the quality, 0 for a bad case
     */
    public double quality() {
        if (status != Status.GOOD) {
            return 0;
        }
        return judgeScore.orElse(80) / 100.0 / rounds();
    }
}
