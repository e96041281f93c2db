package dev.sqlagent.internal.run;

import dev.sqlagent.FailureKind;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.internal.SqlTokens;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.StageTransition;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The state machine of one question, and the only code that chooses the next stage. It holds the current
 * {@link Stage} and the correction counter; {@link #apply} reads a step's {@link Outcome} through the rule
 * of the current stage, makes the move and returns the stage entered. Every row of the rules table is one
 * of the {@code after…} rule methods below; the moves themselves go through one private method that
 * refuses any move outside {@link Stage}'s transition table and any second entry into
 * {@link Stage#CORRECT}.
 *
 * <p>Rules, as code:
 * <ul>
 *   <li>a preparing stage goes on to the next optional stage that is wanted, else to generation;</li>
 *   <li>any failure a step reports ends the question: FAILED;</li>
 *   <li>a policy violation by any candidate ends the question: REJECTED, no further generation or
 *       correction; or, when violating candidates are dropped, the others go on and the question is never
 *       corrected;</li>
 *   <li>unparseable SQL is a syntax error, and SQL naming only tables the database lacks is a
 *       table-not-found error: neither is run; corrected if the correction is still available, else FAILED;</li>
 *   <li>an execution error is corrected only when its category is correctable and the correction is
 *       still available; environmental errors never are;</li>
 *   <li>a result anomaly uses the same single correction, when anomalies may be corrected;</li>
 *   <li>a correction that produces no SQL, the same SQL, or cannot reach the model ends FAILED without
 *       running anything, except that a correction of a result anomaly leaves the flagged answer
 *       standing (ANSWERED).</li>
 * </ul>
 * Not thread-safe: one instance per question, used by the thread running it.
 */
public final class StateMachine {

    /** The optional stages before generation, in the order they may run. */
    private static final List<Stage> PREPARING = List.of(Stage.REWRITE, Stage.METRIC_TOOL, Stage.SELECT_SCHEMA,
            Stage.DECOMPOSE);

    private final String questionId;
    private final Clock clock;
    private final int maxCorrections;
    private final boolean correctAnomalies;
    private final boolean dropViolations;
    private final BiPredicate<Stage, RunState> wanted;
    private final Consumer<StageTransition> sink;
    private Stage current = Stage.RECEIVED;
    private int corrections;
    private boolean correctingAnomaly;
    private boolean violationDropped;

    /**
     * @param questionId the question's id
     * @param clock the clock stamping transitions
     * @param correctionEnabled whether the single correction is allowed at all
     * @param correctAnomalies whether a result anomaly may use the correction
     * @param dropViolations whether candidates that break the policy are dropped and the others answer
     *     (the question is then never corrected) rather than the question rejected
     * @param wanted whether an optional stage should run for a question
     * @param sink receives every transition (the trace and the listeners)
     */
    public StateMachine(String questionId, Clock clock, boolean correctionEnabled, boolean correctAnomalies,
            boolean dropViolations, BiPredicate<Stage, RunState> wanted, Consumer<StageTransition> sink) {
        this.dropViolations = dropViolations;
        this.questionId = Objects.requireNonNull(questionId, "questionId");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxCorrections = correctionEnabled ? 1 : 0;
        this.correctAnomalies = correctAnomalies;
        this.wanted = Objects.requireNonNull(wanted, "wanted");
        this.sink = Objects.requireNonNull(sink, "sink");
    }

    /** @return the current stage */
    public Stage current() {
        return current;
    }

    /** @return whether the correction under way is of a result anomaly rather than an error */
    public boolean correctingAnomaly() {
        return correctingAnomaly;
    }

    /** @return how many corrections were made (0 or 1) */
    public int corrections() {
        return corrections;
    }

    /**
     * @return whether the single correction is still available: not yet made, and no candidate of the
     *     question was dropped for breaking the policy
     */
    public boolean mayCorrect() {
        return corrections < maxCorrections && !violationDropped;
    }

    /**
     * Reads what the step of the current stage found and moves to the stage the rules say.
     *
     * @param outcome the step's outcome
     * @param state the question's state
     * @return the stage entered
     * @throws IllegalStateException if the outcome is not one the current stage can produce, or the move
     *     is illegal (a bug, never a property of the question)
     */
    public Stage apply(Outcome outcome, RunState state) {
        Objects.requireNonNull(outcome, "outcome");
        if (outcome instanceof Outcome.Failed f) {
            return move(Stage.FAILED, f.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                    + ": " + f.message());
        }
        switch (current) {
            case RECEIVED, REWRITE, SELECT_SCHEMA, DECOMPOSE:
                return afterPreparation(expect(outcome, Outcome.Prepared.class), state);
            case METRIC_TOOL:
                if (outcome instanceof Outcome.MetricAnswered m) {
                    return move(Stage.ANSWERED, "answered by a metric template");
                }
                return afterPreparation(expect(outcome, Outcome.Prepared.class), state);
            case GENERATE:
                return move(Stage.GUARD, "check " + expect(outcome, Outcome.Generated.class).count() + " candidate(s)");
            case GUARD:
                return afterGuard(expect(outcome, Outcome.Guarded.class).verdicts(), state.catalog()::databaseHasTable);
            case EXECUTE:
                return afterExecution(expect(outcome, Outcome.Executed.class).decisive().outcome());
            case CHOOSE:
                return move(Stage.VERIFY, "chosen by " + expect(outcome, Outcome.Chosen.class).rule());
            case VERIFY:
                return afterVerification(expect(outcome, Outcome.Verified.class));
            case CORRECT:
                return afterCorrection(outcome);
            default:
                throw new IllegalStateException("no step runs in the terminal stage " + current);
        }
    }

    /**
     * A stop from outside the step (the question's cancellation, its deadline, a spent budget) replaces
     * what the step found, except a policy violation: a question whose candidate broke the policy is
     * rejected whatever else happened, so that the security event is never hidden by a budget. So that a
     * budget cannot hide one either, SQL that a generation or a correction wrote before a spent budget
     * stopped the question still goes to the guard ({@link #guardsDespite}), which needs no model call:
     * a violation then rejects, anything else ends with the budget's failure.
     *
     * @param found what the step found, or null when the question was stopped before the step ran
     * @param stop the failure a stop means, or null when nothing stopped the question
     * @param state the question's state
     * @return the outcome to apply
     */
    public Outcome overrule(Outcome found, Outcome.Failed stop, RunState state) {
        if (stop == null) {
            return Objects.requireNonNull(found, "found");
        }
        if (current == Stage.GUARD && found instanceof Outcome.Guarded g
                && rejects(g.verdicts(), state.catalog()::databaseHasTable)) {
            return found;
        }
        if (budget(stop) && (current == Stage.GENERATE && found instanceof Outcome.Generated
                || current == Stage.CORRECT && found instanceof Outcome.Corrected c
                        && !SqlTokens.same(c.sql(), c.target().sql()))) {
            return found;
        }
        return stop;
    }

    /**
     * Whether the step of the current stage still runs although the question was stopped: only the guard,
     * when a spent budget (not a cancellation or the deadline) stopped it, see {@link #overrule}.
     *
     * @param stop the failure the stop means
     * @return whether to run the current stage's step anyway
     */
    public boolean guardsDespite(Outcome.Failed stop) {
        return current == Stage.GUARD && budget(stop);
    }

    private static boolean budget(Outcome.Failed stop) {
        return stop.kind() == FailureKind.TOKENS_EXCEEDED || stop.kind() == FailureKind.MODEL_CALLS_EXCEEDED;
    }

    private <T extends Outcome> T expect(Outcome outcome, Class<T> type) {
        if (!type.isInstance(outcome)) {
            throw new IllegalStateException("stage " + current + " cannot produce " + outcome.getClass().getSimpleName());
        }
        return type.cast(outcome);
    }

    /** Preparation done: the next optional stage that is wanted, else generation. */
    private Stage afterPreparation(Outcome.Prepared prepared, RunState state) {
        int from = PREPARING.indexOf(current);
        for (Stage s : PREPARING.subList(from + 1, PREPARING.size())) {
            if (wanted.test(s, state)) {
                return move(s, prepared.what());
            }
        }
        return move(Stage.GENERATE, prepared.what());
    }

    /**
     * The guard rows. A policy violation by any candidate is a validation failure of the question: it is
     * rejected, unless violating candidates are dropped, and then the others run but the question is never
     * corrected. Otherwise any accepted candidate runs; else (all unparseable, or naming only tables that
     * do not exist) the single correction, or FAILED.
     */
    private Stage afterGuard(List<GuardVerdict> verdicts, Predicate<String> tableExists) {
        int accepted = accepted(verdicts);
        int rejected = violating(verdicts, tableExists);
        if (rejects(verdicts, tableExists)) {
            return move(Stage.REJECTED, "policy violation by " + rejected + " of " + verdicts.size() + " candidate(s)");
        }
        if (accepted > 0) {
            if (rejected > 0) {
                violationDropped = true;
                return move(Stage.EXECUTE, accepted + " of " + verdicts.size() + " accepted; " + rejected
                        + " broke the policy and were dropped, so no correction");
            }
            return move(Stage.EXECUTE, accepted + " of " + verdicts.size() + " accepted");
        }
        if (mayCorrect()) {
            return move(Stage.CORRECT, "correctable " + ErrorCategory.SYNTAX_ERROR + " or invented name found by "
                    + "the guard");
        }
        return move(Stage.FAILED, "not runnable" + (corrections > 0 ? " after correction" : ", no correction allowed"));
    }

    private boolean rejects(List<GuardVerdict> verdicts, Predicate<String> tableExists) {
        return violating(verdicts, tableExists) > 0 && (!dropViolations || accepted(verdicts) == 0);
    }

    private static int accepted(List<GuardVerdict> verdicts) {
        int n = 0;
        for (GuardVerdict v : verdicts) {
            if (v instanceof GuardVerdict.Accepted) {
                n++;
            }
        }
        return n;
    }

    private static int violating(List<GuardVerdict> verdicts, Predicate<String> tableExists) {
        int n = 0;
        for (GuardVerdict v : verdicts) {
            if (v instanceof GuardVerdict.Rejected r && inventedNames(r, tableExists).isEmpty()) {
                n++;
            }
        }
        return n;
    }

    /**
     * The names of a rejection that the database does not have at all: tables outside the policy that no
     * schema of the database has, and columns or functions that resolve to nothing
     * ({@link ViolationType#inventedName()}). A rejection counts as a model's invention rather than a policy
     * violation only when every violation is such a name: such SQL is never run, but it is corrected as the
     * database's own "does not exist" error would be.
     *
     * @param rejected the guard's rejection
     * @param tableExists whether the database has a table of that name, allowed or not
     * @return the invented names' violations, empty when the rejection stands as a policy violation
     */
    public static List<Violation> inventedNames(GuardVerdict.Rejected rejected, Predicate<String> tableExists) {
        List<Violation> invented = new ArrayList<>();
        for (Violation v : rejected.violations()) {
            boolean table = v.type() == ViolationType.TABLE_NOT_ALLOWED && !tableExists.test(v.fragment());
            if (!table && !v.type().inventedName()) {
                return List.of();
            }
            invented.add(v);
        }
        return invented;
    }

    /** The execution rows: the decisive outcome is a success, a correctable error, or the end. */
    private Stage afterExecution(ExecutionOutcome outcome) {
        if (outcome instanceof ExecutionOutcome.Success) {
            return move(Stage.CHOOSE, "executed");
        }
        ErrorCategory category = ((ExecutionOutcome.Failure) outcome).error().category();
        String name = category.name();
        if (category.environmental()) {
            return move(Stage.FAILED, "environmental " + name + ", never corrected");
        }
        if (!category.correctable()) {
            return move(Stage.FAILED, "not correctable " + name);
        }
        if (mayCorrect()) {
            return move(Stage.CORRECT, "correctable " + name);
        }
        return move(Stage.FAILED, name + (corrections > 0 ? " after correction" : ", no correction allowed"));
    }

    /** The result-anomaly row: a finding may use the correction; else the answer stands with it. */
    private Stage afterVerification(Outcome.Verified verified) {
        List<String> findings = verified.findings();
        if (findings.isEmpty()) {
            return move(Stage.ANSWERED, verified.checked() ? "verified" : "answered; no verifier or judge checked it");
        }
        if (correctAnomalies && mayCorrect()) {
            correctingAnomaly = true;
            return move(Stage.CORRECT, "result anomaly: " + findings.get(0));
        }
        return move(Stage.ANSWERED, "answered with " + findings.size() + " unresolved finding(s)");
    }

    /**
     * The correction rows. Nothing to run (no SQL, the same SQL, the model unreachable) ends FAILED, except
     * for a result anomaly: the finding was a heuristic, so the flagged answer stands.
     */
    private Stage afterCorrection(Outcome outcome) {
        String nothing;
        if (outcome instanceof Outcome.Corrected c) {
            if (!SqlTokens.same(c.sql(), c.target().sql())) {
                return move(Stage.GUARD, c.cached() ? "corrected from the fix cache" : "corrected");
            }
            nothing = "correction returned the same SQL; not run again";
        } else if (outcome instanceof Outcome.NoCorrection n) {
            nothing = n.cause() == Outcome.NoCorrection.Cause.NO_SQL ? "correction produced no SQL"
                    : "model error during correction";
        } else {
            throw new IllegalStateException("stage " + current + " cannot produce " + outcome.getClass().getSimpleName());
        }
        if (correctingAnomaly) {
            return move(Stage.ANSWERED, nothing + "; the flagged answer stands");
        }
        return move(Stage.FAILED, nothing);
    }

    /** The one method that changes the stage. Publishes the transition. */
    private Stage move(Stage next, String reason) {
        if (!current.canMoveTo(next)) {
            throw new IllegalStateException("illegal transition " + current + " -> " + next + " (" + reason + ")");
        }
        if (next == Stage.CORRECT) {
            if (!mayCorrect()) {
                throw new IllegalStateException("correction refused: " + corrections + " of " + maxCorrections
                        + " already made (" + reason + ")");
            }
            corrections++;
        }
        StageTransition t = new StageTransition(questionId, current, next, clock.instant(), reason);
        current = next;
        sink.accept(t);
        return next;
    }
}
