package dev.sqlagent.choose;

import dev.sqlagent.execution.ResultTable;
import java.util.List;
import java.util.Objects;

/**
 * A candidate that ran, as the chooser sees it.
 *
 * @param index the candidate's number in its round (0-based); the earliest wins a full tie
 * @param sql the SQL as written (after cleaning)
 * @param table its result
 * @param findings what the deterministic verifiers found in its result (each a sentence), empty when none
 * @param flags candidate-level warnings the guard or the cleaner raised (a rewrite, a repaired reply),
 *     empty when none
 */
public record ChoiceCandidate(int index, String sql, ResultTable table, List<String> findings, List<String> flags) {

    /**
     * Checks and copies the parts.
     *
     * @param index the candidate's number in its round (0-based); the earliest wins a full tie
     * @param sql the SQL as written (after cleaning)
     * @param table its result
     * @param findings what the deterministic verifiers found in its result (each a sentence), empty when none
     * @param flags candidate-level warnings the guard or the cleaner raised (a rewrite, a repaired reply),
     *     empty when none
     */
    public ChoiceCandidate {
        if (index < 0) {
            throw new IllegalArgumentException("index must be >= 0 but was " + index);
        }
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(table, "table");
        findings = List.copyOf(findings);
        flags = List.copyOf(flags);
    }

    /**
     * Creates a candidate that carries no verifier findings and no flags.
     *
     * @param index the candidate's number
     * @param sql its SQL
     * @param table its result
     * @return a candidate without findings or flags
     */
    public static ChoiceCandidate of(int index, String sql, ResultTable table) {
        return new ChoiceCandidate(index, sql, table, List.of(), List.of());
    }
}
