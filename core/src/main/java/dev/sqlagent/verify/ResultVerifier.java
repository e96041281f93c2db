package dev.sqlagent.verify;

import dev.sqlagent.execution.ResultTable;
import java.util.Optional;

/**
 * A deterministic check of a result, run without any model call. A finding is a result anomaly: it
 * counts against its candidate when the agent chooses among several, it is recorded in the trace and,
 * when the agent may correct anomalies, it may use the question's single correction, with the finding as
 * the feedback the model reads. Write findings for that reader: one sentence saying what looks wrong.
 *
 * <p>Implementations are pure and thread-safe: the agent checks the results of several candidates and
 * questions at once. Report a finding by returning it, never by throwing: the agent treats an exception,
 * or a null instead of an {@link Optional}, as an internal fault that ends the question (a null is
 * reported naming the verifier).
 */
@FunctionalInterface
public interface ResultVerifier {

    /**
     * Checks the result of a candidate that ran without error.
     *
     * @param question the question, as the agent answered it (after rewriting a follow-up)
     * @param sql the SQL that produced the result
     * @param table the result, perhaps truncated at the row cap
     * @return a finding in one sentence, or empty when nothing looks wrong; never null
     */
    Optional<String> check(String question, String sql, ResultTable table);

    /** {@return a verifier that finds an empty result suspicious} */
    static ResultVerifier nonEmpty() {
        return (question, sql, table) -> table.rowCount() == 0
                ? Optional.of("the query returned no rows; check the filter values against the data")
                : Optional.empty();
    }
}
