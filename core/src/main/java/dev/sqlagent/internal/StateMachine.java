package dev.sqlagent.internal;

import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.StageTransition;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The state machine of one question. It holds the current {@link Stage} and the correction counter,
 * and it is the only code that decides whether a correction happens: each {@code after…} method takes
 * what a stage produced, applies a row of the rules table, makes the move through {@link #moveTo} and
 * returns the stage entered. {@link #moveTo} refuses any move outside {@link Stage}'s transition table
 * and any second entry into {@link Stage#CORRECT}.
 *
 * <p>Rules, as code:
 * <ul>
 *   <li>a rejected candidate ends the question: REJECTED, no further generation or correction;</li>
 *   <li>unparseable SQL is a syntax error, and SQL naming only tables the database lacks is a
 *       table-not-found error: neither is run; corrected if the correction is still available, else FAILED;</li>
 *   <li>an execution error is corrected only when its category is correctable and the correction is
 *       still available; environmental errors never are;</li>
 *   <li>a result anomaly uses the same single correction;</li>
 *   <li>a correction that returns no SQL or the same SQL ends FAILED without running anything.</li>
 * </ul>
 * Not thread-safe: one instance per question, used by the thread running it.
 */
public final class StateMachine {

    private final String questionId;
    private final Clock clock;
    private final int maxCorrections;
    private final Consumer<StageTransition> sink;
    private Stage current = Stage.RECEIVED;
    private int corrections;
    private boolean correctingAnomaly;

    /**
     * @param questionId the question's id
     * @param clock the clock stamping transitions
     * @param correctionEnabled whether the single correction is allowed at all
     * @param sink receives every transition (the trace and the listeners)
     */
    public StateMachine(String questionId, Clock clock, boolean correctionEnabled, Consumer<StageTransition> sink) {
        this.questionId = Objects.requireNonNull(questionId, "questionId");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxCorrections = correctionEnabled ? 1 : 0;
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

    /** @return whether the single correction is still available */
    public boolean mayCorrect() {
        return corrections < maxCorrections;
    }

    /**
     * The one method that changes state. Publishes the transition.
     *
     * @param next the stage to enter
     * @param reason why, in a few words
     * @throws IllegalStateException if the move is not in the transition table, or would enter
     *     {@link Stage#CORRECT} a second time
     */
    public void moveTo(Stage next, String reason) {
        Objects.requireNonNull(next, "next");
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
    }

    /**
     * Applies the guard rows of the rules table to the verdicts of one round of candidates.
     *
     * @param verdicts the verdicts, one per candidate, at least one
     * @param tableExists whether the database has a table of a given name (allowed or not)
     * @return {@link Stage#EXECUTE} if any candidate was accepted; else {@link Stage#REJECTED} if any
     *     broke the policy; else (all unparseable, or naming only tables that do not exist)
     *     {@link Stage#CORRECT} or {@link Stage#FAILED}
     */
    public Stage afterGuard(List<GuardVerdict> verdicts, Predicate<String> tableExists) {
        if (verdicts.isEmpty()) {
            throw new IllegalArgumentException("no verdicts");
        }
        int accepted = 0;
        int rejected = 0;
        for (GuardVerdict v : verdicts) {
            if (v instanceof GuardVerdict.Accepted) {
                accepted++;
            } else if (v instanceof GuardVerdict.Rejected && inventedTables((GuardVerdict.Rejected) v, tableExists).isEmpty()) {
                rejected++;
            }
        }
        if (accepted > 0) {
            moveTo(Stage.EXECUTE, accepted + " of " + verdicts.size() + " accepted");
        } else if (rejected > 0) {
            moveTo(Stage.REJECTED, "policy violation");
        } else if (mayCorrect()) {
            moveTo(Stage.CORRECT, "correctable " + ErrorCategory.SYNTAX_ERROR + " or " + ErrorCategory.TABLE_NOT_FOUND
                    + " found by the guard");
        } else {
            moveTo(Stage.FAILED, "not runnable" + (corrections > 0 ? " after correction" : ", no correction allowed"));
        }
        return current;
    }

    /**
     * The tables of a rejection that the database does not have at all. A rejection counts as a model's
     * invention rather than a policy violation only when every violation is a table outside the policy
     * and none of those tables exists: such SQL is never run, but it is corrected as a
     * {@link ErrorCategory#TABLE_NOT_FOUND} error would be.
     *
     * @param rejected the guard's rejection
     * @param tableExists whether the database has a table of that name, allowed or not
     * @return the invented table names, empty when the rejection stands as a policy violation
     */
    public static List<String> inventedTables(GuardVerdict.Rejected rejected, Predicate<String> tableExists) {
        List<String> invented = new java.util.ArrayList<>();
        for (dev.sqlagent.guard.Violation v : rejected.violations()) {
            if (v.type() != dev.sqlagent.guard.ViolationType.TABLE_NOT_ALLOWED || tableExists.test(v.fragment())) {
                return List.of();
            }
            invented.add(v.fragment());
        }
        return invented;
    }

    /**
     * Applies the execution rows of the rules table.
     *
     * @param outcome the outcome of the candidate that decides (a success if any candidate succeeded,
     *     else the first failure)
     * @return {@link Stage#CHOOSE}, {@link Stage#CORRECT} or {@link Stage#FAILED}
     */
    public Stage afterExecution(ExecutionOutcome outcome) {
        if (outcome instanceof ExecutionOutcome.Success) {
            moveTo(Stage.CHOOSE, "executed");
            return current;
        }
        ErrorCategory category = ((ExecutionOutcome.Failure) outcome).error().category();
        String name = category.name();
        if (category.environmental()) {
            moveTo(Stage.FAILED, "environmental " + name + ", never corrected");
        } else if (!category.correctable()) {
            moveTo(Stage.FAILED, "not correctable " + name);
        } else if (mayCorrect()) {
            moveTo(Stage.CORRECT, "correctable " + name);
        } else {
            moveTo(Stage.FAILED, name + (corrections > 0 ? " after correction" : ", no correction allowed"));
        }
        return current;
    }

    /** Moves from {@link Stage#CHOOSE} to {@link Stage#VERIFY}. */
    public void chosen() {
        moveTo(Stage.VERIFY, "chosen");
    }

    /**
     * Applies the result-anomaly row of the rules table.
     *
     * @param findings what the verifiers found, empty when nothing is wrong
     * @param correctAnomalies whether anomalies may use the correction
     * @return {@link Stage#ANSWERED} or {@link Stage#CORRECT}
     */
    public Stage afterVerification(List<String> findings, boolean correctAnomalies) {
        if (findings.isEmpty()) {
            moveTo(Stage.ANSWERED, "verified");
        } else if (correctAnomalies && mayCorrect()) {
            correctingAnomaly = true;
            moveTo(Stage.CORRECT, "result anomaly: " + findings.get(0));
        } else {
            moveTo(Stage.ANSWERED, "answered with " + findings.size() + " unresolved finding(s)");
        }
        return current;
    }

    /**
     * Applies the correction rows of the rules table. A correction of a result anomaly (a verifier's or
     * the judge's finding on a result that ran) that produces no SQL or the same SQL leaves the flagged
     * answer standing: the finding was a heuristic and the model stands by its SQL.
     *
     * @param correctedSql the SQL the correction produced, null when it produced none
     * @param originalSql the SQL that was corrected
     * @return {@link Stage#GUARD}, {@link Stage#ANSWERED} (anomaly kept) or {@link Stage#FAILED}
     */
    public Stage afterCorrection(String correctedSql, String originalSql) {
        if (correctedSql == null) {
            moveTo(correctingAnomaly ? Stage.ANSWERED : Stage.FAILED, "correction produced no SQL"
                    + (correctingAnomaly ? "; the flagged answer stands" : ""));
        } else if (sameSql(correctedSql, originalSql)) {
            moveTo(correctingAnomaly ? Stage.ANSWERED : Stage.FAILED, "correction returned the same SQL; not run again"
                    + (correctingAnomaly ? "; the model stands by it, the flagged answer stands" : ""));
        } else {
            moveTo(Stage.GUARD, "corrected");
        }
        return current;
    }

    /**
     * Whether two SQL texts are the same for the rule "a correction returning the same SQL stops":
     * equal after collapsing whitespace, dropping trailing semicolons and ignoring letter case.
     *
     * @param a a SQL
     * @param b another
     * @return whether they count as the same
     */
    public static boolean sameSql(String a, String b) {
        return normalise(a).equals(normalise(b));
    }

    private static String normalise(String sql) {
        String s = sql.trim().replaceAll("\\s+", " ");
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).trim();
        }
        return s.toLowerCase(Locale.ROOT);
    }
}
