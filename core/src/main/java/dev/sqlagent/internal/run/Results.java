package dev.sqlagent.internal.run;

import dev.sqlagent.AgentResult;
import dev.sqlagent.FailureKind;
import dev.sqlagent.HandOff;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.ExecutionError;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.TraceEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The one place that turns a terminal stage and the last outcome into the question's result. */
final class Results {

    /** The kind of the trace note recording candidates dropped for breaking the policy. */
    static final String DROPPED = "dropped_candidates";

    private Results() {
    }

    /**
     * @param end the terminal stage
     * @param state the question's state; its last outcome decides the details
     * @return the result, with the trace as it is now
     */
    static AgentResult of(Stage end, RunState state) {
        Outcome last = state.last();
        if (end != Stage.REJECTED) {
            noteDropped(state);
        }
        switch (end) {
            case ANSWERED:
                return answered(last, state);
            case REJECTED:
                AgentResult.Rejected r = rejected(state);
                return r.withHandOff(HandOff.of(r, state.askedQuestion(), state.selection(), state.plan()));
            case FAILED:
                AgentResult.Failed f = failed(last, state);
                return f.withHandOff(HandOff.of(f, state.askedQuestion(), state.selection(), state.plan()));
            default:
                throw new IllegalStateException("not a terminal stage: " + end);
        }
    }

    private static AgentResult.Answered answered(Outcome last, RunState state) {
        if (last instanceof Outcome.MetricAnswered m) {
            return new AgentResult.Answered(state.question(), m.sql(), m.executedSql(), m.table(), state.trace());
        }
        if (last instanceof Outcome.Verified) {
            Ran chosen = state.chosen();
            return new AgentResult.Answered(state.question(), chosen.sql(), chosen.executedSql(), chosen.table(),
                    state.trace(), violating(state));
        }
        // the correction of a result anomaly could not improve on it: the flagged answer stands
        AgentResult.Answered flagged = state.flagged();
        return new AgentResult.Answered(flagged.question(), flagged.sqlText(), flagged.executedSql(), flagged.table(),
                state.trace(), violating(state));
    }

    private static AgentResult.Rejected rejected(RunState state) {
        List<GuardVerdict.Rejected> violating = violating(state);
        if (violating.isEmpty()) {
            throw new IllegalStateException("rejected without a policy violation among " + state.verdicts().size());
        }
        GuardVerdict.Rejected first = violating.get(0);
        return new AgentResult.Rejected(state.question(), first.sql(), first.violations(), state.trace(), violating);
    }

    /**
     * Candidates that broke the policy in a question that was not rejected were dropped (the agent drops
     * violating candidates): a note of kind {@value #DROPPED} says how many, whatever the ending, so that
     * the metrics and the case count every violation, not only those of an answer.
     */
    private static void noteDropped(RunState state) {
        int dropped = violating(state).size();
        if (dropped > 0) {
            state.note(Stage.GUARD, DROPPED, dropped + " candidate(s) broke the policy and were dropped");
        }
    }

    /** The candidates of every round that broke the policy (not merely named a table the database lacks). */
    static List<GuardVerdict.Rejected> violating(RunState state) {
        List<GuardVerdict.Rejected> out = new ArrayList<>();
        for (TraceEvent e : state.events()) {
            if (e instanceof TraceEvent.GuardChecked g && g.verdict() instanceof GuardVerdict.Rejected r
                    && g.candidate() >= 0 && StateMachine.inventedNames(r, state.catalog()::databaseHasTable).isEmpty()) {
                out.add(r);
            }
        }
        return out;
    }

    private static AgentResult.Failed failed(Outcome last, RunState state) {
        if (last instanceof Outcome.Failed f) {
            return failure(state, f.kind(), f.category().orElse(null), f.message(), state.sqlUnderWay());
        }
        FailureKind notFixed = state.round() > 0 ? FailureKind.STILL_FAILING : FailureKind.NOT_CORRECTED;
        if (last instanceof Outcome.Executed e) {
            ExecutionError err = ((ExecutionOutcome.Failure) e.decisive().outcome()).error();
            return failure(state, err.category().environmental() ? FailureKind.ENVIRONMENT : notFixed, err.category(),
                    err.message(), e.decisive().sql());
        }
        CorrectionTarget target = CorrectionTarget.of(last, state)
                .orElseThrow(() -> new IllegalStateException("failed after " + last));
        ErrorCategory category = target.errorCategory().orElse(null);
        if (last instanceof Outcome.Guarded) {
            return failure(state, notFixed, category, target.feedback(), target.sql());
        }
        if (last instanceof Outcome.Corrected c) {
            return failure(state, FailureKind.CORRECTION_UNCHANGED, category,
                    (c.cached() ? "the cached fix is the same SQL" : "the correction returned the same SQL")
                            + "; the original error was: " + target.feedback(), target.sql());
        }
        Outcome.NoCorrection n = (Outcome.NoCorrection) last;
        if (n.cause() == Outcome.NoCorrection.Cause.NO_SQL) {
            return failure(state, FailureKind.NO_SQL, category,
                    "the correction held no SQL; the original error was: " + target.feedback(), target.sql());
        }
        return failure(state, FailureKind.MODEL_ERROR, category, n.message(), target.sql());
    }

    private static AgentResult.Failed failure(RunState state, FailureKind kind, ErrorCategory category, String message,
            String sql) {
        return new AgentResult.Failed(state.question(), kind, Optional.ofNullable(category), message,
                Optional.ofNullable(sql), state.trace());
    }
}
