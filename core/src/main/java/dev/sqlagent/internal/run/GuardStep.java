package dev.sqlagent.internal.run;

import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.Dialect;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.trace.TraceEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * GUARD: each candidate of the round is parsed and checked against the effective policy. Entered after a
 * correction, the round is first replaced by the corrected SQL ({@link RunState#retryWith}).
 */
final class GuardStep implements Step {

    private final SqlGuard guard;
    private final Dialect dialect;

    GuardStep(SqlGuard guard, Dialect dialect) {
        this.guard = guard;
        this.dialect = dialect;
    }

    @Override
    public Outcome run(RunState state) {
        if (state.last() instanceof Outcome.Corrected c) {
            state.retryWith(c.sql());
        }
        List<GuardVerdict> verdicts = new ArrayList<>();
        for (Candidate c : state.candidates()) {
            GuardVerdict v = guard.check(c.sql(), state.policy(), dialect);
            state.add(new TraceEvent.GuardChecked(c.index(), state.round(), v));
            verdicts.add(v);
        }
        state.verdicts(verdicts);
        return new Outcome.Guarded(verdicts);
    }
}
