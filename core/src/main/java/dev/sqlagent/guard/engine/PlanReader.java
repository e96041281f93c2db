package dev.sqlagent.guard.engine;

import dev.sqlagent.execution.SqlStatement;
import java.sql.Connection;
import java.sql.SQLException;

/** One engine's way to read a statement's plan without running it. */
interface PlanReader {

    /**
     * @param c a connection to the database the statement would run on
     * @param statement the statement, with its parameters bound when explaining
     * @param timeoutSeconds cap on the engine's time for the plan, 0 for none
     * @return what the plan reads
     * @throws SQLException if the engine refuses to plan the statement (it would fail when run as well)
     * @throws PlanNotUnderstood if the plan came back in a shape the reader does not know
     */
    EngineReading read(Connection c, SqlStatement statement, int timeoutSeconds) throws SQLException;

    /** The plan came back but could not be read. */
    final class PlanNotUnderstood extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        PlanNotUnderstood(String message) {
            super(message);
        }
    }
}
