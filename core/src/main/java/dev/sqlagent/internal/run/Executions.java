package dev.sqlagent.internal.run;

import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.internal.AgentConfig;

/** Runs statements on the agent's executor and holds it to its contract (never a null outcome). */
final class Executions {

    private final AgentConfig config;

    Executions(AgentConfig config) {
        this.config = config;
    }

    /**
     * @param statement a statement the guard accepted
     * @return what the database said
     * @throws IllegalStateException if the executor broke its contract by returning null
     */
    ExecutionOutcome run(SqlStatement statement) {
        ExecutionOutcome outcome = config.executor().execute(statement);
        if (outcome == null) {
            throw new IllegalStateException("SqlExecutor " + config.executor().getClass().getName() + " returned null");
        }
        return outcome;
    }
}
