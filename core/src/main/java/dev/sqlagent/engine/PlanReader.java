package dev.sqlagent.engine;

import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.engine.EngineReading;
import java.sql.Connection;
import java.sql.SQLException;

/** One engine's way to read a statement's plan without running it. */
public interface PlanReader {

    /**
     * @param c a connection to the database the statement would run on
     * @param statement the statement, with its parameters bound when explaining
     * @param timeoutSeconds cap on the engine's time for the plan, 0 for none
     * @return what the plan reads
     * @throws SQLException if the engine refuses to plan the statement (it would fail when run as well)
     * @throws PlanNotUnderstood if the plan came back in a shape the reader does not know
     */
    EngineReading read(Connection c, SqlStatement statement, int timeoutSeconds) throws SQLException;

    /**
     * Reads a plan for the engine check, whose cap is known both in whole seconds (for the driver) and in
     * milliseconds (for an engine whose cap runs in the server, sent with the {@code EXPLAIN}).
     *
     * @param c a connection to the database the statement would run on
     * @param statement the statement, with its parameters bound when explaining
     * @param timeoutSeconds cap on the engine's time for the plan, in whole seconds, at least one
     * @param timeoutMillis the same cap in milliseconds
     * @return what the plan reads
     * @throws SQLException if the engine refuses to plan the statement (it would fail when run as well)
     * @throws PlanNotUnderstood if the plan came back in a shape the reader does not know
     */
    default EngineReading readBounded(Connection c, SqlStatement statement, int timeoutSeconds, long timeoutMillis)
            throws SQLException {
        return read(c, statement, timeoutSeconds);
    }

    /** The plan came back but could not be read. */
    public final class PlanNotUnderstood extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        public PlanNotUnderstood(String message) {
            super(message);
        }
    }
}
