package dev.sqlagent.internal.run;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
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
    private final Executions executions;
    private final java.util.concurrent.Executor parallel;

    /**
     * @param guard the guard
     * @param dialect the database's dialect
     * @param executions the question's visits to the database, which ask the engine check when it is on; null
     *     for none
     * @param parallel where the guard reads a round's other candidates while the asking thread reads the
     *     first; null to read them one after another
     */
    GuardStep(SqlGuard guard, Dialect dialect, Executions executions, java.util.concurrent.Executor parallel) {
        this.guard = guard;
        this.dialect = dialect;
        this.executions = executions;
        this.parallel = parallel;
    }

    /**
     * The guard's verdict, confirmed by the engine when an engine check is configured: a statement the
     * engine reads differently from the guard (a table outside the policy, a denied column, a forbidden
     * function, a write) is rejected. An engine that cannot say leaves the guard's verdict standing; a
     * fault of the engine check becomes the statement's execution failure ({@link Visits}).
     *
     * @param sql the SQL
     * @param policy the effective policy
     * @param guard the guard
     * @param dialect the dialect
     * @param visits the question's visits to the database, which ask the engine check when it is on; null
     *     for none
     * @return the verdict
     */
    static GuardVerdict check(String sql, GuardPolicy policy, SqlGuard guard, Dialect dialect, Visits visits) {
        GuardVerdict v = guard.check(sql, policy, dialect);
        return visits != null && v instanceof GuardVerdict.Accepted a ? visits.confirm(a, policy) : v;
    }

    @Override
    public Outcome run(RunState state) {
        if (state.last() instanceof Outcome.Corrected c) {
            state.retryWith(c.sql());
        }
        // identical candidates (frequent at a low temperature) are parsed and explained once, and so are
        // texts of one statement (select and SELECT: SameStatement), read once and the verdict given to each
        // text; distinct statements are parsed side by side (the guard is pure), then confirmed by the engine
        // one after another on the question's one connection
        Map<String, Integer> statementOf = new java.util.LinkedHashMap<>();
        Map<String, Integer> byKey = new HashMap<>();
        List<String> first = new ArrayList<>();
        for (Candidate c : state.candidates()) {
            statementOf.computeIfAbsent(c.sql(), sql -> byKey.computeIfAbsent(
                    dev.sqlagent.internal.SameStatement.key(sql), key -> {
                        first.add(sql);
                        return first.size() - 1;
                    }));
        }
        GuardPolicy policy = state.policy();
        List<GuardVerdict> read = Parallel.map(parallel, first, sql -> guard.check(sql, policy, dialect));
        Visits visits = executions == null ? null : executions.visits(state);
        Map<String, GuardVerdict> bySql = new HashMap<>();
        statementOf.forEach((sql, statement) -> {
            GuardVerdict v = dev.sqlagent.internal.SameStatement.givenAs(read.get(statement), sql);
            if (v == null) {
                v = guard.check(sql, policy, dialect); // a syntax error, whose message is its text's own
            }
            bySql.put(sql, visits != null && v instanceof GuardVerdict.Accepted a ? visits.confirm(a, policy) : v);
        });
        List<GuardVerdict> verdicts = new ArrayList<>();
        for (Candidate c : state.candidates()) {
            GuardVerdict v = bySql.get(c.sql());
            state.add(new TraceEvent.GuardChecked(c.index(), state.round(), v));
            verdicts.add(v);
        }
        state.verdicts(verdicts);
        return new Outcome.Guarded(verdicts);
    }
}
