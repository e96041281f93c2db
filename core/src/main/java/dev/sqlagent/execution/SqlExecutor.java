package dev.sqlagent.execution;

/**
 * The executor SPI: runs one statement that the guard accepted and returns a bounded result or a
 * classified error.
 *
 * <p>An implementation must run the statement read-only, bound it in time and rows, and report every
 * database error as an {@link ExecutionOutcome.Failure} rather than throwing. It must be thread-safe.
 * {@link JdbcSqlExecutor} does all of this over a {@link javax.sql.DataSource}.
 */
@FunctionalInterface
public interface SqlExecutor {

    /**
     * Runs a statement.
     *
     * @param statement the statement, already checked by the guard
     * @return the outcome, never null
     */
    ExecutionOutcome execute(SqlStatement statement);
}
