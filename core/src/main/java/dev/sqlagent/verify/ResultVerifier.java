package dev.sqlagent.verify;

import dev.sqlagent.execution.ResultTable;
import java.util.Optional;

/**
 * A deterministic check of a result, run in the VERIFY stage without any model call. A finding is a
 * result anomaly: it is recorded in the trace and may use the question's single correction, with the
 * finding as the feedback. Implementations are pure and thread-safe.
 */
@FunctionalInterface
public interface ResultVerifier {

    /**
     * Checks a result.
     *
     * @param question the question
     * @param sql the SQL that produced the result
     * @param table the result
     * @return a finding in one sentence, or empty when nothing looks wrong
     */
    Optional<String> check(String question, String sql, ResultTable table);

    /** @return a verifier that finds an empty result suspicious */
    static ResultVerifier nonEmpty() {
        return (question, sql, table) -> table.rowCount() == 0
                ? Optional.of("the query returned no rows; check the filter values against the data")
                : Optional.empty();
    }
}
