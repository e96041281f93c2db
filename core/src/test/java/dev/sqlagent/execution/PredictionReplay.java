package dev.sqlagent.execution;

import dev.sqlagent.Dialect;
import dev.sqlagent.testing.SpiderPredictions;
import dev.sqlagent.testing.SpiderPredictions.Prediction;
import dev.sqlagent.testing.TinyPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import javax.sql.DataSource;

/** Runs every model prediction on one engine through {@link JdbcSqlExecutor} and keeps the failures. */
final class PredictionReplay {

    /**
     * A prediction that failed.
     *
     * @param prediction what the model wrote
     * @param error what the engine said, classified
     * @param trueCause what the schema says is wrong, when it can tell
     */
    record Failure(Prediction prediction, ExecutionError error, Optional<ErrorCategory> trueCause) {
    }

    /**
     * The outcome of a replay.
     *
     * @param engine the engine's display name
     * @param executed how many predictions ran
     * @param failures those that failed
     */
    record Result(String engine, int executed, List<Failure> failures) {
    }

    private PredictionReplay() {
    }

    static Result replay(String engine, Dialect dialect, Function<String, DataSource> dataSourceByDbId,
            TrueCauseOracle oracle) {
        Map<String, JdbcSqlExecutor> executors = new HashMap<>();
        // one connection per database, reused (the executor rolls back and puts its flags back): opening a
        // PostgreSQL connection per prediction took some 80 s of the 3,000 predictions' 85
        List<TinyPool> pools = new ArrayList<>();
        List<Failure> failures = new ArrayList<>();
        List<Prediction> all = SpiderPredictions.all();
        try {
            for (Prediction p : all) {
                // no prediction runs away (the tests assert none is environmental); the slowest take about two
                // seconds on a loaded machine, so the time-out only bounds a hang and load cannot make a TIMEOUT
                JdbcSqlExecutor executor = executors.computeIfAbsent(p.dbId(), db -> {
                    TinyPool pool = new TinyPool(dataSourceByDbId.apply(db), 1);
                    pools.add(pool);
                    return JdbcSqlExecutor.builder(pool).dialect(dialect).queryTimeout(Duration.ofMinutes(2))
                            .maxRows(10).build();
                });
                ExecutionOutcome outcome = executor.execute(SqlStatement.of(p.sql()));
                if (outcome instanceof ExecutionOutcome.Failure) {
                    ExecutionError e = ((ExecutionOutcome.Failure) outcome).error();
                    failures.add(new Failure(p, e, oracle.trueCause(p.dbId(), p.sql())));
                }
            }
        } finally {
            pools.forEach(TinyPool::close);
        }
        return new Result(engine, all.size(), failures);
    }
}
