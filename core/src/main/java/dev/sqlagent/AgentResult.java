package dev.sqlagent;

import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.trace.Trace;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of one question: {@link Answered}, {@link Rejected} or {@link Failed}. Each carries the
 * question, the full {@link Trace} and the SQL last considered. Immutable.
 *
 * <pre>{@code
 * switch (result.status()) {
 *     case ANSWERED -> show(((AgentResult.Answered) result).table());
 *     case REJECTED -> audit(((AgentResult.Rejected) result).violations());
 *     case FAILED -> review(((AgentResult.Failed) result).message());
 * }
 * }</pre>
 */
public sealed interface AgentResult permits AgentResult.Answered, AgentResult.Rejected, AgentResult.Failed {

    /** The three ends of a question. */
    enum Status {
        /** A result table came back. */
        ANSWERED,
        /** The guard refused the SQL; nothing was retried. */
        REJECTED,
        /** No answer; {@link Failed#kind()} says why. */
        FAILED
    }

    /**
     * Returns the question as asked (after rewriting, see the trace).
     *
     * @return the question as asked (after rewriting, see the trace)
     */
    String question();

    /**
     * Returns everything that happened.
     *
     * @return everything that happened
     */
    Trace trace();

    /**
     * Returns which of the three ends.
     *
     * @return which of the three ends
     */
    Status status();

    /**
     * Returns the SQL answered, rejected or last failing; empty when none was produced.
     *
     * @return the SQL answered, rejected or last failing; empty when none was produced
     */
    Optional<String> sql();

    /**
     * Returns whether the single correction was made.
     *
     * @return whether the single correction was made
     */
    default boolean corrected() {
        return trace().correction().isPresent();
    }

    /**
     * Returns what a person needs to take the question over.
     *
     * @return the hand-off of a rejected or failed question as the agent returned it; empty for an answer
     *     (and for a result built by hand without one)
     */
    default Optional<HandOff> handOff() {
        return Optional.empty();
    }

    /**
     * Renders the result as one JSON object on one line, the form the command line's {@code ask --json}
     * prints. Field names are stable (new ones may be added, none renamed): {@code question},
     * {@code status}, {@code corrections}, {@code llm_calls}, {@code sql} and {@code error_category} (null
     * when absent), {@code failure_kind} (failed only), {@code rows} and {@code row_count} (both the row
     * count, answered only; {@code row_count} is the name the MCP server's results use),
     * {@code violations} ({@code "TYPE:fragment"}, rejected only), {@code tokens}, {@code hand_off} (the
     * {@link HandOff#toJson()} object, rejected or failed), {@code stages}, then for an answer
     * {@code executed_sql}, {@code columns}, {@code data} (the rows, values as JSON numbers, booleans,
     * strings or null) and {@code truncated}, for a failure {@code message}, and last {@code question_id}.
     * Unlike {@link Trace#toJson()}, meant for logs and case stores, it holds the answer's rows; it holds
     * no prompt.
     *
     * @return the JSON text
     */
    default String toJson() {
        return AgentResultJson.toJson(this, 0);
    }

    /**
     * Renders the result as {@link #toJson()} does, knowing the row cap the statement ran under: an answer
     * also carries {@code row_cap} and {@code row_cap_reached}, and {@code truncated} is true when rows may
     * have been cut, that is when the answer reached the cap (the guard caps the statement itself, so a
     * result at the cap cannot tell whether more rows existed). {@link #toJson()} knows no cap and flags only
     * a cut the executor saw.
     *
     * @param rowCap the row cap of the policy the question ran under, at least 1
     * @return the JSON text
     * @throws IllegalArgumentException if the cap is below 1
     */
    default String toJson(int rowCap) {
        if (rowCap < 1) {
            throw new IllegalArgumentException("rowCap must be >= 1 but was " + rowCap);
        }
        return AgentResultJson.toJson(this, rowCap);
    }

    /**
     * An answer.
     *
     * @param question the question
     * @param sqlText the SQL that produced the answer, as the model wrote it
     * @param executedSql the SQL that ran (after the guard's rewriting)
     * @param table the result
     * @param trace what happened
     * @param droppedCandidates candidates that broke the policy and were dropped, when the agent was built
     *     with {@code dropViolatingCandidates(true)}; empty otherwise. An answer with dropped candidates was
     *     never corrected.
     */
    record Answered(String question, String sqlText, String executedSql, ResultTable table, Trace trace,
            List<GuardVerdict.Rejected> droppedCandidates) implements AgentResult {
        /**
         * Checks the parts and copies the list.
         *
         * @param question the question
         * @param sqlText the SQL that produced the answer, as the model wrote it
         * @param executedSql the SQL that ran
         * @param table the result
         * @param trace what happened
         * @param droppedCandidates candidates that broke the policy and were dropped
         */
        public Answered {
            Objects.requireNonNull(question, "question");
            Objects.requireNonNull(sqlText, "sqlText");
            Objects.requireNonNull(executedSql, "executedSql");
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(trace, "trace");
            droppedCandidates = List.copyOf(droppedCandidates);
        }

        /**
         * An answer without dropped candidates.
         *
         * @param question the question
         * @param sqlText the SQL as the model wrote it
         * @param executedSql the SQL that ran
         * @param table the result
         * @param trace what happened
         */
        public Answered(String question, String sqlText, String executedSql, ResultTable table, Trace trace) {
            this(question, sqlText, executedSql, table, trace, List.of());
        }

        @Override
        public Status status() {
            return Status.ANSWERED;
        }

        @Override
        public Optional<String> sql() {
            return Optional.of(sqlText);
        }
    }

    /**
     * The guard refused the SQL. No further model call was made.
     *
     * @param question the question
     * @param sqlText the SQL refused
     * @param violations why
     * @param trace what happened
     * @param candidates every candidate that broke the policy, with its violations, in candidate order;
     *     the first is {@code sqlText} with {@code violations}
     * @param handOff what a person needs to take the question over
     */
    record Rejected(String question, String sqlText, List<Violation> violations, Trace trace,
            List<GuardVerdict.Rejected> candidates, Optional<HandOff> handOff) implements AgentResult {
        /**
         * Checks the parts and copies the lists.
         *
         * @param question the question
         * @param sqlText the SQL refused
         * @param violations why
         * @param trace what happened
         * @param candidates every candidate that broke the policy
         * @param handOff what a person needs to take the question over
         */
        public Rejected {
            Objects.requireNonNull(question, "question");
            Objects.requireNonNull(sqlText, "sqlText");
            violations = List.copyOf(violations);
            Objects.requireNonNull(trace, "trace");
            candidates = List.copyOf(candidates);
            Objects.requireNonNull(handOff, "handOff");
        }

        /**
         * A rejection without a hand-off.
         *
         * @param question the question
         * @param sqlText the SQL refused
         * @param violations why
         * @param trace what happened
         * @param candidates every candidate that broke the policy
         */
        public Rejected(String question, String sqlText, List<Violation> violations, Trace trace,
                List<GuardVerdict.Rejected> candidates) {
            this(question, sqlText, violations, trace, candidates, Optional.empty());
        }

        /**
         * Returns a copy carrying a hand-off.
         *
         * @param handOff the hand-off
         * @return the copy
         */
        public Rejected withHandOff(HandOff handOff) {
            return new Rejected(question, sqlText, violations, trace, candidates, Optional.of(handOff));
        }

        /**
         * A rejection of one SQL.
         *
         * @param question the question
         * @param sqlText the SQL refused
         * @param violations why
         * @param trace what happened
         */
        public Rejected(String question, String sqlText, List<Violation> violations, Trace trace) {
            this(question, sqlText, violations, trace, List.of(new GuardVerdict.Rejected(sqlText, violations)));
        }

        @Override
        public Status status() {
            return Status.REJECTED;
        }

        @Override
        public Optional<String> sql() {
            return Optional.of(sqlText);
        }
    }

    /**
     * No answer.
     *
     * @param question the question
     * @param kind why, broadly
     * @param errorCategory the database error's category when one caused the failure
     * @param message the final error, for people
     * @param lastSql the SQL last tried, if any
     * @param trace what happened
     * @param handOff what a person needs to take the question over
     */
    record Failed(String question, FailureKind kind, Optional<ErrorCategory> errorCategory, String message,
            Optional<String> lastSql, Trace trace, Optional<HandOff> handOff) implements AgentResult {
        /**
         * Checks the parts.
         *
         * @param question the question
         * @param kind why, broadly
         * @param errorCategory the database error's category when one caused the failure
         * @param message the final error, for people
         * @param lastSql the SQL last tried, if any
         * @param trace what happened
         * @param handOff what a person needs to take the question over
         */
        public Failed {
            Objects.requireNonNull(question, "question");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(errorCategory, "errorCategory");
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(lastSql, "lastSql");
            Objects.requireNonNull(trace, "trace");
            Objects.requireNonNull(handOff, "handOff");
        }

        /**
         * A failure without a hand-off.
         *
         * @param question the question
         * @param kind why, broadly
         * @param errorCategory the database error's category when one caused the failure
         * @param message the final error, for people
         * @param lastSql the SQL last tried, if any
         * @param trace what happened
         */
        public Failed(String question, FailureKind kind, Optional<ErrorCategory> errorCategory, String message,
                Optional<String> lastSql, Trace trace) {
            this(question, kind, errorCategory, message, lastSql, trace, Optional.empty());
        }

        /**
         * Returns a copy carrying a hand-off.
         *
         * @param handOff the hand-off
         * @return the copy
         */
        public Failed withHandOff(HandOff handOff) {
            return new Failed(question, kind, errorCategory, message, lastSql, trace, Optional.of(handOff));
        }

        @Override
        public Status status() {
            return Status.FAILED;
        }

        @Override
        public Optional<String> sql() {
            return lastSql;
        }
    }
}
