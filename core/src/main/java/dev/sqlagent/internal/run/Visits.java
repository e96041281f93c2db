package dev.sqlagent.internal.run;

import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.ExecutionError;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.JdbcSqlExecutor;
import dev.sqlagent.execution.SqlExecutor;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.engine.EngineCheck;
import dev.sqlagent.guard.engine.EngineVerdict;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One question's visits to its database, so that the question waits for the database once.
 *
 * <ul>
 *   <li>The engine checks of a round's candidates run on one connection, taken when the first is needed;
 *       the round's first execution runs on it too (the others take their own, in parallel, as before).
 *       The driver loop {@linkplain #release() gives it back} as soon as the next stage is not
 *       execution, so that no connection is held across a model call.</li>
 *   <li>A fault of the engine check is classified as the agent's executor classifies the same fault
 *       during execution, and becomes the statement's execution failure: the statement does not run
 *       unconfirmed (the engine check fails closed): an environmental fault is never corrected, and an
 *       error that says the statement itself is wrong (a correctable category) is corrected with the
 *       engine's message, the statement never run. A fault never ends the question as an internal fault, and never
 *       hides another candidate's policy violation: the guard's verdicts of the round all stand.</li>
 *   <li>The question's first connection fault ({@link ErrorCategory#CONNECTION}: taking a connection, the
 *       engine check, an execution) ends every later visit of the question without another wait: each
 *       later statement gets that failure, not tried.</li>
 * </ul>
 *
 * Thread-safe: a round's executions run in parallel.
 */
final class Visits {

    private static final Logger LOG = LoggerFactory.getLogger("dev.sqlagent.run");

    private final SqlExecutor executor;
    private final JdbcSqlExecutor jdbc;
    private final EngineCheck engine;
    /** Engine-check faults that stand in for the execution of a statement, by {@link #key}. */
    private final Map<String, ExecutionError> failed = new HashMap<>();
    /**
     * The engine's verdicts, by {@link #key}: candidates written differently that the guard renders to the
     * same statement (a keyword's case, spacing, quoting the engine folds away) are planned once.
     */
    private final Map<String, EngineVerdict> confirmed = new HashMap<>();
    private Connection held;
    private boolean heldBusy;
    private ExecutionError unreachable;

    /**
     * @param executor the agent's executor
     * @param engine the engine check, or null when off
     */
    Visits(SqlExecutor executor, EngineCheck engine) {
        this.executor = executor;
        this.jdbc = executor instanceof JdbcSqlExecutor j ? j : null;
        this.engine = engine;
    }

    /** @param s a statement  @return what identifies it among a question's statements */
    static String key(SqlStatement s) {
        return s.sql() + '\u0000' + s.parameters();
    }

    /**
     * Confirms an accepted statement with the engine, when the engine check is on.
     *
     * @param accepted the guard's verdict
     * @param policy the policy the guard applied
     * @return the verdict, or the guard's rejection when the engine reads the statement differently; a
     *     fault leaves the verdict standing and the statement failed (see the class comment)
     */
    GuardVerdict confirm(GuardVerdict.Accepted accepted, GuardPolicy policy) {
        if (engine == null) {
            return accepted;
        }
        if (jdbc == null) {
            // a host's executor never comes with an engine check; ask the engine on its own connection
            return engine.check(accepted, policy) instanceof EngineVerdict.Disagreement d
                    ? d.asRejection(accepted.sql()) : accepted;
        }
        String key = key(accepted.statement());
        Connection c;
        synchronized (this) {
            EngineVerdict seen = confirmed.get(key);
            if (seen != null) {
                return seen instanceof EngineVerdict.Disagreement d ? d.asRejection(accepted.sql()) : accepted;
            }
            if (failed.containsKey(key)) {
                return accepted; // the engine's fault already stands for this statement's execution
            }
            if (unreachable != null) {
                failed.putIfAbsent(key, notTried(unreachable));
                return accepted;
            }
            c = held;
        }
        if (c == null) {
            try {
                c = jdbc.dataSource().getConnection();
            } catch (SQLException e) {
                fault(key, jdbc.classify(e), null);
                return accepted;
            } catch (RuntimeException e) {
                fault(key, driverFault(e), null);
                return accepted;
            }
            synchronized (this) {
                held = c;
            }
        }
        try {
            EngineVerdict v = engine.check(c, accepted, policy);
            synchronized (this) {
                confirmed.put(key, v);
            }
            return v instanceof EngineVerdict.Disagreement d ? d.asRejection(accepted.sql()) : accepted;
        } catch (SQLException e) {
            // never run on the guard's word alone: the engine's error stands for the statement's execution
            // (a correctable one is corrected with the engine's message, an environmental one ends the question)
            fault(key, jdbc.classify(e), c);
            return accepted;
        } catch (RuntimeException e) {
            fault(key, driverFault(e), c);
            return accepted;
        }
    }

    private void fault(String key, ExecutionError error, Connection c) {
        LOG.debug("engine check failed: {} ({})", error.category(), error.message());
        ExecutionError asExecution = new ExecutionError(error.category(), error.sqlState(), error.vendorCode(),
                "engine check: " + error.message(), error.elapsed());
        Connection broken = null;
        synchronized (this) {
            failed.put(key, asExecution);
            if (error.category() == ErrorCategory.CONNECTION && unreachable == null) {
                unreachable = asExecution;
            }
            if (c != null && c == held && (error.category() == ErrorCategory.CONNECTION || closed(c))) {
                held = null;
                broken = c;
            }
        }
        if (broken != null) {
            closeQuietly(broken);
        }
    }

    private static boolean closed(Connection c) {
        try {
            return c.isClosed();
        } catch (SQLException | RuntimeException e) {
            return true;
        }
    }

    private static ExecutionError driverFault(RuntimeException e) {
        return new ExecutionError(ErrorCategory.UNKNOWN, null, 0, "driver failed: " + e, Duration.ZERO);
    }

    private static ExecutionError notTried(ExecutionError cause) {
        return new ExecutionError(cause.category(), cause.sqlState(), cause.vendorCode(),
                "not run: the database did not answer earlier in this question (" + cause.message() + ")",
                Duration.ZERO);
    }

    /**
     * Runs a statement: a fault its engine check met stands for its execution, an unreachable database
     * fails it without another wait, and an idle connection of the engine check runs it.
     *
     * @param statement a statement the guard accepted
     * @return the outcome; null only when a host's executor broke its contract
     */
    ExecutionOutcome execute(SqlStatement statement) {
        String key = key(statement);
        Connection c = null;
        synchronized (this) {
            ExecutionError f = failed.get(key);
            if (f != null) {
                return new ExecutionOutcome.Failure(f);
            }
            if (unreachable != null) {
                return new ExecutionOutcome.Failure(notTried(unreachable));
            }
            if (held != null && !heldBusy) {
                heldBusy = true;
                c = held;
            }
        }
        ExecutionOutcome outcome;
        if (c != null) {
            try {
                outcome = jdbc.execute(c, statement);
            } finally {
                boolean gone = closed(c); // the watchdog aborted it: the next statement takes its own
                synchronized (this) {
                    heldBusy = false;
                    if (gone && held == c) {
                        held = null;
                    }
                }
            }
        } else {
            outcome = executor.execute(statement);
        }
        if (outcome instanceof ExecutionOutcome.Failure f && f.error().category() == ErrorCategory.CONNECTION) {
            synchronized (this) {
                if (unreachable == null) {
                    unreachable = f.error();
                }
            }
        }
        return outcome;
    }

    /** Gives the engine check's connection back, unless an execution is using it. */
    void release() {
        Connection c;
        synchronized (this) {
            if (held == null || heldBusy) {
                return;
            }
            c = held;
            held = null;
        }
        closeQuietly(c);
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException | RuntimeException e) {
            LOG.debug("could not give a connection back: {}", e.toString());
        }
    }
}
