package dev.sqlagent.execution;

/**
 * The executor SPI: runs one statement that the guard accepted and returns a bounded result or a
 * classified error.
 *
 * <p>An implementation must:
 * <ul>
 *   <li>run the statement read-only (a read-only connection or transaction, a user without write
 *       privileges): the guard is one layer, not the only one;</li>
 *   <li>bind the statement's {@link SqlStatement#parameters() parameters} to its {@code ?} placeholders in
 *       order;</li>
 *   <li>bound it in time (a query timeout, reported as {@link ErrorCategory#TIMEOUT}) and in rows (keep at
 *       most a cap and mark the {@link ResultTable} {@linkplain ResultTable#truncated() truncated});</li>
 *   <li>report every database error as an {@link ExecutionOutcome.Failure} rather than throwing, with an
 *       {@link ErrorCategory} that tells the truth: the category decides whether the agent spends its one
 *       correction on the error ({@link ErrorCategory#correctable()}) or ends the question as a fault of
 *       the environment ({@link ErrorCategory#environmental()}). {@link ErrorClassifier#standard()}
 *       classifies JDBC exceptions;</li>
 *   <li>be thread-safe: the agent runs several candidates at once, and many questions share one
 *       executor.</li>
 * </ul>
 * The agent checks what comes back: a null outcome ends the question as an internal fault naming the
 * executor; an exception thrown ends it as an internal fault as well. An agent built with a custom
 * executor needs its {@link dev.sqlagent.Dialect} and {@link dev.sqlagent.schema.SchemaCatalog} given
 * explicitly, since it cannot read them from a data source. {@link JdbcSqlExecutor} does all of this
 * over a {@link javax.sql.DataSource}.
 */
@FunctionalInterface
public interface SqlExecutor {

    /**
     * Runs a statement read-only and returns its bounded result or its classified error. Called
     * concurrently from many threads.
     *
     * @param statement the statement, already checked (and row-limited) by the guard; never null
     * @return the outcome, never null; a database error is a {@link ExecutionOutcome.Failure}, not an
     *     exception
     */
    ExecutionOutcome execute(SqlStatement statement);
}
