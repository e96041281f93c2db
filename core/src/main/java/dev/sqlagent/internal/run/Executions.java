package dev.sqlagent.internal.run;

import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.internal.AgentConfig;

/**
 * Runs statements on the agent's executor, through the question's {@link Visits}, and holds it to its
 * contract (never a null outcome).
 */
final class Executions {

    private final AgentConfig config;

    Executions(AgentConfig config) {
        this.config = config;
    }

    /**
     * @param state a question
     * @return its visits to the database, made on first use; call from the question's own thread
     */
    Visits visits(RunState state) {
        Visits v = state.visits();
        if (v == null) {
            v = new Visits(config.executor(), config.engineCheck());
            state.visits(v);
        }
        return v;
    }

    /**
     * @param visits the question's visits to the database
     * @param statement a statement the guard accepted
     * @return what the database said
     * @throws IllegalStateException if the executor broke its contract by returning null
     */
    ExecutionOutcome run(Visits visits, SqlStatement statement) {
        ExecutionOutcome outcome = visits.execute(statement);
        if (outcome == null) {
            throw new IllegalStateException("SqlExecutor " + config.executor().getClass().getName() + " returned null");
        }
        return outcome;
    }
}
