/**
 * Running the SQL the guard accepted, read-only and bounded, and classifying what the database said.
 *
 * <p>{@link dev.sqlagent.execution.SqlExecutor} is the SPI: one {@link dev.sqlagent.execution.SqlStatement}
 * in, one {@link dev.sqlagent.execution.ExecutionOutcome} out, either a
 * {@link dev.sqlagent.execution.ResultTable} (rows capped, values normalised to a few Java types) or an
 * {@link dev.sqlagent.execution.ExecutionError} whose {@link dev.sqlagent.execution.ErrorCategory} says
 * whether one correction of the SQL may fix it or the environment is at fault. Database errors are
 * results, never exceptions. {@link dev.sqlagent.execution.JdbcSqlExecutor} implements it over any
 * {@link javax.sql.DataSource} with a read-only transaction that is always rolled back, a query timeout
 * and a row cap;
 * {@link dev.sqlagent.execution.ErrorClassifier} classifies JDBC exceptions for H2, SQLite, PostgreSQL,
 * MySQL, MariaDB, SQL Server and Oracle; {@link dev.sqlagent.execution.UrlDataSource} is a minimal data
 * source over a JDBC URL for tools and tests.
 */
package dev.sqlagent.execution;
