package dev.sqlagent.internal.run;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.Dialect;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.guard.engine.EngineCheck;
import dev.sqlagent.guard.engine.EngineVerdict;
import dev.sqlagent.trace.TraceEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * GUARD: each candidate of the round is parsed and checked against the effective policy, and an accepted
 * one is confirmed by the engine's own planner when the engine check is on. Entered after a
 * correction, the round is first replaced by the corrected SQL ({@link RunState#retryWith}).
 */
final class GuardStep implements Step {

    private final SqlGuard guard;
    private final Dialect dialect;
    private final EngineCheck engine;

    /**
     * @param guard the guard
     * @param dialect the database's dialect
     * @param engine asks the database's planner to confirm an accepted statement, or null when off
     */
    GuardStep(SqlGuard guard, Dialect dialect, EngineCheck engine) {
        this.guard = guard;
        this.dialect = dialect;
        this.engine = engine;
    }

    /**
     * The guard's verdict and, for an accepted statement the engine could not plan, the engine's error.
     *
     * @param verdict the verdict
     * @param unplanned the engine's error standing for the statement's execution (which must not happen),
     *     or null
     */
    record Checked(GuardVerdict verdict, ExecutionOutcome.Failure unplanned) {
    }

    /**
     * The guard's verdict, confirmed by the engine when an engine check is configured: a statement the
     * engine reads differently from the guard (a table outside the policy, a denied column, a forbidden
     * function, a write, anything in the plan it cannot read) is rejected. A statement the engine cannot
     * plan keeps the guard's verdict but carries the engine's error, which stands for its execution: it is
     * never run on the guard's word alone.
     *
     * @param sql the SQL
     * @param policy the effective policy
     * @param guard the guard
     * @param dialect the dialect
     * @param engine the engine check, or null
     * @return the verdict, and the engine's error when it could not plan the statement
     */
    static Checked check(String sql, GuardPolicy policy, SqlGuard guard, Dialect dialect, EngineCheck engine) {
        GuardVerdict v = guard.check(sql, policy, dialect);
        if (engine != null && v instanceof GuardVerdict.Accepted a) {
            EngineVerdict e = engine.check(a, policy);
            if (e instanceof EngineVerdict.Disagreement d) {
                return new Checked(d.asRejection(a.sql()), null);
            }
            if (e instanceof EngineVerdict.Unavailable u) {
                return new Checked(v, new ExecutionOutcome.Failure(u.error()));
            }
        }
        return new Checked(v, null);
    }

    @Override
    public Outcome run(RunState state) {
        if (state.last() instanceof Outcome.Corrected c) {
            state.retryWith(c.sql());
        }
        List<GuardVerdict> verdicts = new ArrayList<>();
        // identical candidates (frequent at a low temperature) are parsed and explained once
        Map<String, Checked> bySql = new HashMap<>();
        for (Candidate c : state.candidates()) {
            Checked checked = bySql.computeIfAbsent(c.sql(), sql -> check(sql, state.policy(), guard, dialect, engine));
            GuardVerdict v = checked.verdict();
            if (checked.unplanned() != null && v instanceof GuardVerdict.Accepted a) {
                state.unplanned(a, checked.unplanned());
            }
            state.add(new TraceEvent.GuardChecked(c.index(), state.round(), v));
            verdicts.add(v);
        }
        state.verdicts(verdicts);
        return new Outcome.Guarded(verdicts);
    }
}
