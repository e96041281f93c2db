package dev.sqlagent.internal.run;

import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.Violation;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.List;
import java.util.Optional;

/**
 * What the single correction works on: the SQL that was corrected, why, and the feedback the model is
 * given. Read from the outcome that sent the question to {@link dev.sqlagent.trace.Stage#CORRECT}, or
 * that ended it.
 *
 * @param sql the SQL that failed (or whose result was flagged)
 * @param category an {@link ErrorCategory} name, or {@value #RESULT_ANOMALY}
 * @param feedback the database's message, the guard's reason or the findings
 */
public record CorrectionTarget(String sql, String category, String feedback) {

    /** The category of a correction made for a result anomaly rather than an error. */
    public static final String RESULT_ANOMALY = "RESULT_ANOMALY";

    /** @return the error category, empty for a result anomaly */
    public Optional<ErrorCategory> errorCategory() {
        for (ErrorCategory c : ErrorCategory.values()) {
            if (c.name().equals(category)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /**
     * @param last the outcome that sent the question to the correction or ended it
     * @param state the question's state
     * @return the target, or empty when the outcome names no failing SQL
     */
    static Optional<CorrectionTarget> of(Outcome last, RunState state) {
        if (last instanceof Outcome.Guarded g) {
            return Optional.of(notRunnable(g.verdicts(), state));
        }
        if (last instanceof Outcome.Executed e && e.decisive().outcome() instanceof ExecutionOutcome.Failure f) {
            return Optional.of(new CorrectionTarget(e.decisive().sql(), f.error().category().name(),
                    f.error().message()));
        }
        if (last instanceof Outcome.Verified v && !v.findings().isEmpty()) {
            return Optional.of(new CorrectionTarget(state.chosen().sql(), RESULT_ANOMALY,
                    String.join("; ", v.findings())));
        }
        if (last instanceof Outcome.Corrected c) {
            return Optional.of(c.target());
        }
        if (last instanceof Outcome.NoCorrection n) {
            return Optional.of(n.target());
        }
        return Optional.empty();
    }

    /**
     * The feedback for names the database does not have, worded like the engine's own errors: the category
     * of the first (tables, then columns, then functions), every name, and for a function the engine's
     * equivalent where there is one. It names only what the SQL itself wrote.
     */
    private static CorrectionTarget invented(GuardVerdict.Rejected r, List<Violation> invented) {
        Set<String> tables = new LinkedHashSet<>();
        Set<String> columns = new LinkedHashSet<>();
        Set<String> functions = new LinkedHashSet<>();
        for (Violation x : invented) {
            switch (x.type()) {
                case UNKNOWN_COLUMN -> columns.add(x.fragment());
                case UNKNOWN_FUNCTION -> functions.add(x.fragment() + hint(x));
                default -> tables.add(x.fragment());
            }
        }
        List<String> parts = new ArrayList<>();
        ErrorCategory category = null;
        if (!tables.isEmpty()) {
            category = ErrorCategory.TABLE_NOT_FOUND;
            parts.add((tables.size() == 1 ? "table does not exist: " : "tables do not exist: ") + String.join(", ", tables));
        }
        if (!columns.isEmpty()) {
            category = category == null ? ErrorCategory.COLUMN_NOT_FOUND : category;
            parts.add((columns.size() == 1 ? "no such column: " : "no such columns: ") + String.join(", ", columns));
        }
        if (!functions.isEmpty()) {
            category = category == null ? ErrorCategory.FUNCTION_NOT_FOUND : category;
            parts.add((functions.size() == 1 ? "no such function: " : "no such functions: ")
                    + String.join(", ", functions));
        }
        return new CorrectionTarget(r.sql(), category.name(), String.join("; ", parts));
    }

    /** The engine's equivalent of an invented function, as the guard found it, or nothing. */
    private static String hint(Violation v) {
        int at = v.message().indexOf("; use ");
        return at < 0 ? "" : " (" + v.message().substring(at + 2) + ")";
    }

    /** Why the candidates of a round cannot run although none broke the policy: unparseable or invented. */
    private static CorrectionTarget notRunnable(List<GuardVerdict> verdicts, RunState state) {
        for (GuardVerdict v : verdicts) {
            if (v instanceof GuardVerdict.Unparseable u) {
                return new CorrectionTarget(v.sql(), ErrorCategory.SYNTAX_ERROR.name(),
                        "the SQL does not parse: " + u.message());
            }
        }
        for (GuardVerdict v : verdicts) {
            if (v instanceof GuardVerdict.Rejected r) {
                return invented(r, StateMachine.inventedNames(r, state.catalog()::databaseHasTable));
            }
        }
        throw new IllegalStateException("no unrunnable verdict among " + verdicts.size());
    }
}
