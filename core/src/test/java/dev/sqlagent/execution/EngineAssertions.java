package dev.sqlagent.execution;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import javax.sql.DataSource;

/** Shared steps of the per-engine tests: run one SQL, expect a failure of a category. */
public final class EngineAssertions {

    /**
     * The query time-out of {@link #executor}: far above what any test query takes on a loaded machine, so
     * that CPU load cannot turn an expected answer or error into a TIMEOUT.
     */
    static final Duration GENEROUS = Duration.ofMinutes(2);

    /**
     * A statement that never ends on its own within any test's life (it sleeps or counts for minutes or
     * more): the time-out tests run it under {@link #timingOut}'s one second, a margin no load can close.
     */
    static final int ENDLESS_SECONDS = 600;

    private EngineAssertions() {
    }

    /** @return an executor whose time-out only bounds a hang */
    public static JdbcSqlExecutor executor(DataSource ds) {
        return JdbcSqlExecutor.builder(ds).queryTimeout(GENEROUS).maxRows(50).build();
    }

    /** @return an executor with the shortest time-out (one second), for statements that never end */
    static JdbcSqlExecutor timingOut(DataSource ds) {
        return JdbcSqlExecutor.builder(ds).queryTimeout(Duration.ofSeconds(1)).maxRows(50).build();
    }

    public static ExecutionError failure(JdbcSqlExecutor executor, String sql) {
        ExecutionOutcome outcome = executor.execute(SqlStatement.of(sql));
        assertThat(outcome).as(sql).isInstanceOf(ExecutionOutcome.Failure.class);
        return ((ExecutionOutcome.Failure) outcome).error();
    }

    static ExecutionError assertCategory(JdbcSqlExecutor executor, String sql, ErrorCategory expected) {
        ExecutionError e = failure(executor, sql);
        assertThat(e.category()).as(sql + " -> " + e.message()).isEqualTo(expected);
        return e;
    }

    public static ResultTable success(JdbcSqlExecutor executor, String sql) {
        ExecutionOutcome outcome = executor.execute(SqlStatement.of(sql));
        assertThat(outcome).as(sql + " -> " + outcome).isInstanceOf(ExecutionOutcome.Success.class);
        return ((ExecutionOutcome.Success) outcome).table();
    }
}
