package dev.sqlagent.internal.run;

import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.ResultTable;

/**
 * A candidate that ran.
 *
 * @param candidate the candidate's index in its round
 * @param sql the candidate's SQL as the model wrote it (cleaned)
 * @param executedSql the statement that ran, as the guard rewrote it
 * @param outcome what the database said
 */
public record Ran(int candidate, String sql, String executedSql, ExecutionOutcome outcome) {

    /** @return the result table; only for a success */
    public ResultTable table() {
        if (outcome instanceof ExecutionOutcome.Success s) {
            return s.table();
        }
        throw new IllegalStateException("candidate " + candidate + " failed; it has no table");
    }
}
