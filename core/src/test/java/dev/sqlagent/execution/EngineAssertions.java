package dev.sqlagent.execution;

import static org.assertj.core.api.Assertions.assertThat;

import javax.sql.DataSource;
import java.time.Duration;

/** Shared steps of the per-engine tests: run one SQL, expect a failure of a category. */
final class EngineAssertions {

    private EngineAssertions() {
    }

    static JdbcSqlExecutor executor(DataSource ds) {
        return JdbcSqlExecutor.builder(ds).queryTimeout(Duration.ofSeconds(1)).maxRows(50).build();
    }

    static ExecutionError failure(JdbcSqlExecutor executor, String sql) {
        ExecutionOutcome outcome = executor.execute(SqlStatement.of(sql));
        assertThat(outcome).as(sql).isInstanceOf(ExecutionOutcome.Failure.class);
        return ((ExecutionOutcome.Failure) outcome).error();
    }

    static ExecutionError assertCategory(JdbcSqlExecutor executor, String sql, ErrorCategory expected) {
        ExecutionError e = failure(executor, sql);
        assertThat(e.category()).as(sql + " -> " + e.message()).isEqualTo(expected);
        return e;
    }

    static ResultTable success(JdbcSqlExecutor executor, String sql) {
        ExecutionOutcome outcome = executor.execute(SqlStatement.of(sql));
        assertThat(outcome).as(sql + " -> " + outcome).isInstanceOf(ExecutionOutcome.Success.class);
        return ((ExecutionOutcome.Success) outcome).table();
    }
}
