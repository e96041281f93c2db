package dev.sqlagent.internal.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.FailureKind;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.ExecutionError;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.ResultColumn;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.StageTransition;
import java.sql.Types;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The rows of the rules table, one outcome at a time, without a database or a model. */
class StateMachineTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T00:00:00Z"), ZoneOffset.UTC);

    private final List<StageTransition> published = new ArrayList<>();
    private final Set<Stage> wanted = EnumSet.noneOf(Stage.class);
    private final RunState state = state();
    private final StateMachine machine = machine(true, true);

    private StateMachine machine(boolean correction, boolean anomalies) {
        return machine(correction, anomalies, false);
    }

    private StateMachine machine(boolean correction, boolean anomalies, boolean drop) {
        return new StateMachine("q1", CLOCK, correction, anomalies, drop, (stage, s) -> wanted.contains(stage),
                published::add);
    }

    private static RunState state() {
        RunState s = new RunState("q1", "how many?", null, GuardPolicy.allowingTables("orders"), "", "");
        s.catalog(SchemaCatalog.of(List.of(), Set.of("orders", "salary")));
        return s;
    }

    private static Outcome.Executed failure(ErrorCategory c) {
        return new Outcome.Executed(List.of(), new Ran(0, "SELECT a FROM t", "SELECT a FROM t",
                new ExecutionOutcome.Failure(new ExecutionError(c, null, 0, "boom", Duration.ZERO))));
    }

    private static Outcome.Executed success() {
        ResultTable t = new ResultTable(List.of(new ResultColumn("n", "INTEGER", Types.INTEGER)),
                List.of(List.of(1)), false, Duration.ZERO);
        return new Outcome.Executed(List.of(new Ran(0, "SELECT 1", "SELECT 1", new ExecutionOutcome.Success(t))), null);
    }

    private static GuardVerdict.Accepted accepted(String sql) {
        return new GuardVerdict.Accepted(sql, SqlStatement.of(sql), Set.of(), Set.of());
    }

    private static GuardVerdict.Rejected forbidden(String table) {
        return new GuardVerdict.Rejected("SELECT * FROM " + table,
                List.of(new Violation(ViolationType.TABLE_NOT_ALLOWED, table, "no")));
    }

    private Stage apply(Outcome o) {
        return machine.apply(o, state);
    }

    private void toExecute(StateMachine m) {
        m.apply(new Outcome.Prepared("t"), state);
        m.apply(new Outcome.Generated(1), state);
        m.apply(new Outcome.Guarded(List.of(accepted("SELECT 1"))), state);
    }

    private void toCorrectAnomaly() {
        toExecute(machine);
        apply(success());
        apply(new Outcome.Chosen("only"));
        assertThat(apply(new Outcome.Verified(List.of("empty result"), true))).isEqualTo(Stage.CORRECT);
    }

    private static CorrectionTarget target(String sql) {
        return new CorrectionTarget(sql, "COLUMN_NOT_FOUND", "boom");
    }

    @Test
    void anOutcomeTheStageCannotProduceThrowsAndPublishesNothing() {
        assertThatThrownBy(() -> apply(new Outcome.Guarded(List.of(accepted("SELECT 1")))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("RECEIVED cannot produce Guarded");
        assertThat(published).isEmpty();
        assertThat(machine.current()).isEqualTo(Stage.RECEIVED);
    }

    @Test
    void everyMoveIsPublishedAsAnImmutableEvent() {
        apply(new Outcome.Prepared("admitted"));
        assertThat(published).containsExactly(new StageTransition("q1", Stage.RECEIVED, Stage.GENERATE,
                Instant.parse("2026-11-29T00:00:00Z"), "admitted"));
    }

    @Test
    void preparationVisitsTheWantedOptionalStagesInOrder() {
        wanted.addAll(Set.of(Stage.DECOMPOSE, Stage.REWRITE, Stage.SELECT_SCHEMA));
        assertThat(apply(new Outcome.Prepared("t"))).isEqualTo(Stage.REWRITE);
        assertThat(apply(new Outcome.Prepared("t"))).isEqualTo(Stage.SELECT_SCHEMA);
        assertThat(apply(new Outcome.Prepared("t"))).isEqualTo(Stage.DECOMPOSE);
        assertThat(apply(new Outcome.Prepared("t"))).isEqualTo(Stage.GENERATE);
    }

    @Test
    void aMetricAnswerEndsTheQuestionAndAFallbackGoesOn() {
        wanted.add(Stage.METRIC_TOOL);
        apply(new Outcome.Prepared("t"));
        ResultTable t = success().successes().get(0).table();
        assertThat(apply(new Outcome.MetricAnswered("SELECT 1", "SELECT 1", t))).isEqualTo(Stage.ANSWERED);

        StateMachine other = machine(true, true);
        other.apply(new Outcome.Prepared("t"), state);
        assertThat(other.apply(new Outcome.Prepared("text-to-SQL"), state)).isEqualTo(Stage.GENERATE);
    }

    @ParameterizedTest
    @EnumSource(value = Stage.class, names = {"RECEIVED", "REWRITE", "METRIC_TOOL", "SELECT_SCHEMA", "GENERATE"})
    void aFailureAStepReportsEndsTheQuestion(Stage at) {
        wanted.add(at);
        if (at != Stage.RECEIVED) {
            apply(new Outcome.Prepared("t"));
        }
        assertThat(machine.current()).isEqualTo(at == Stage.RECEIVED ? Stage.RECEIVED : at);
        assertThat(apply(Outcome.Failed.of(FailureKind.MODEL_ERROR, "down"))).isEqualTo(Stage.FAILED);
    }

    @Test
    void noMoveLeavesATerminalStage() {
        apply(Outcome.Failed.of(FailureKind.INVALID_QUESTION, "blank"));
        assertThatThrownBy(() -> apply(new Outcome.Prepared("t"))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> apply(Outcome.Failed.of(FailureKind.INTERNAL, "x")))
                .isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest
    @EnumSource(value = ErrorCategory.class, names = {"PERMISSION_DENIED", "TIMEOUT", "CONNECTION", "RESOURCE_LIMIT"})
    void environmentalErrorsFailWithoutCorrection(ErrorCategory category) {
        toExecute(machine);
        assertThat(apply(failure(category))).isEqualTo(Stage.FAILED);
        assertThat(machine.corrections()).isZero();
    }

    @ParameterizedTest
    @EnumSource(value = ErrorCategory.class, names = {"TABLE_NOT_FOUND", "COLUMN_NOT_FOUND", "AMBIGUOUS_COLUMN",
        "SYNTAX_ERROR", "GROUPING_ERROR", "FUNCTION_NOT_FOUND", "TYPE_MISMATCH"})
    void correctableErrorsAreCorrectedExactlyOnce(ErrorCategory category) {
        toExecute(machine);
        assertThat(apply(failure(category))).isEqualTo(Stage.CORRECT);
        assertThat(apply(new Outcome.Corrected(target("SELECT a FROM t"), "SELECT b FROM t", false)))
                .isEqualTo(Stage.GUARD);
        apply(new Outcome.Guarded(List.of(accepted("SELECT b FROM t"))));
        assertThat(apply(failure(category))).isEqualTo(Stage.FAILED);
        assertThat(machine.corrections()).isEqualTo(1);
    }

    @Test
    void unknownErrorsAreNotCorrected() {
        toExecute(machine);
        assertThat(apply(failure(ErrorCategory.UNKNOWN))).isEqualTo(Stage.FAILED);
    }

    @Test
    void anyRejectionAmongUnrunnableCandidatesRejects() {
        apply(new Outcome.Prepared("t"));
        apply(new Outcome.Generated(2));
        assertThat(apply(new Outcome.Guarded(List.of(new GuardVerdict.Unparseable("SELEC", "bad"),
                forbidden("salary"))))).isEqualTo(Stage.REJECTED);
    }

    @Test
    void rejectionNamingOnlyMissingTablesIsCorrectable() {
        apply(new Outcome.Prepared("t"));
        apply(new Outcome.Generated(1));
        GuardVerdict.Rejected invented = forbidden("order");
        assertThat(StateMachine.inventedNames(invented, Set.of("orders")::contains)).extracting(Violation::fragment)
                .containsExactly("order");
        assertThat(apply(new Outcome.Guarded(List.of(invented)))).isEqualTo(Stage.CORRECT);
    }

    @Test
    void rejectionWithAnyOtherViolationStands() {
        GuardVerdict.Rejected mixed = new GuardVerdict.Rejected("x", List.of(
                new Violation(ViolationType.TABLE_NOT_ALLOWED, "order", "no"),
                new Violation(ViolationType.FUNCTION_NOT_ALLOWED, "pg_sleep", "no")));
        assertThat(StateMachine.inventedNames(mixed, t -> false)).isEmpty();
    }

    @Test
    void aViolationBesideAnAcceptedCandidateRejectsTheQuestion() {
        apply(new Outcome.Prepared("t"));
        apply(new Outcome.Generated(2));
        List<GuardVerdict> verdicts = List.of(
                new GuardVerdict.Rejected("x", List.of(new Violation(ViolationType.COMMENT, "--", "no"))),
                accepted("SELECT 1"));
        assertThat(apply(new Outcome.Guarded(verdicts))).isEqualTo(Stage.REJECTED);
    }

    @Test
    void aStopFromOutsideReplacesWhatAStepFoundButNeverARejection() {
        Outcome.Failed stop = Outcome.Failed.of(dev.sqlagent.FailureKind.CANCELLED, "cancelled");
        apply(new Outcome.Prepared("t"));
        apply(new Outcome.Generated(2));
        Outcome.Guarded violating = new Outcome.Guarded(List.of(forbidden("salary"), accepted("SELECT 1")));
        Outcome.Guarded clean = new Outcome.Guarded(List.of(accepted("SELECT 1")));

        assertThat(machine.overrule(violating, stop, state)).isSameAs(violating);
        assertThat(machine.overrule(clean, stop, state)).isSameAs(stop);
        assertThat(machine.overrule(clean, null, state)).isSameAs(clean);
        assertThat(machine.overrule(null, stop, state)).isSameAs(stop);
        assertThat(apply(machine.overrule(violating, stop, state))).isEqualTo(Stage.REJECTED);
    }

    @Test
    void aSpentBudgetStillSendsWrittenSqlToTheGuardButACancellationDoesNot() {
        Outcome.Failed tokens = Outcome.Failed.of(dev.sqlagent.FailureKind.TOKENS_EXCEEDED, "tokens");
        Outcome.Failed cancelled = Outcome.Failed.of(dev.sqlagent.FailureKind.CANCELLED, "cancelled");
        apply(new Outcome.Prepared("t"));
        Outcome.Generated generated = new Outcome.Generated(1);

        assertThat(machine.overrule(generated, cancelled, state)).isSameAs(cancelled);
        assertThat(machine.guardsDespite(tokens)).isFalse();
        assertThat(apply(machine.overrule(generated, tokens, state))).isEqualTo(Stage.GUARD);
        assertThat(machine.guardsDespite(tokens)).isTrue();
        assertThat(machine.guardsDespite(cancelled)).isFalse();
        Outcome.Guarded clean = new Outcome.Guarded(List.of(accepted("SELECT 1")));
        assertThat(apply(machine.overrule(clean, tokens, state))).isEqualTo(Stage.FAILED);
    }

    @Test
    void droppingViolatorsRunsTheOthersAndTakesTheCorrectionAway() {
        StateMachine dropping = machine(true, true, true);
        dropping.apply(new Outcome.Prepared("t"), state);
        dropping.apply(new Outcome.Generated(2), state);
        assertThat(dropping.apply(new Outcome.Guarded(List.of(forbidden("salary"), accepted("SELECT 1"))), state))
                .isEqualTo(Stage.EXECUTE);
        assertThat(dropping.mayCorrect()).isFalse();
        assertThat(dropping.apply(failure(ErrorCategory.COLUMN_NOT_FOUND), state)).isEqualTo(Stage.FAILED);
        assertThat(dropping.corrections()).isZero();
    }

    @Test
    void droppingViolatorsStillRejectsWhenNothingElseIsLeft() {
        StateMachine dropping = machine(true, true, true);
        dropping.apply(new Outcome.Prepared("t"), state);
        dropping.apply(new Outcome.Generated(2), state);
        assertThat(dropping.apply(new Outcome.Guarded(List.of(forbidden("salary"),
                new GuardVerdict.Unparseable("SELEC", "bad"))), state)).isEqualTo(Stage.REJECTED);
    }

    @Test
    void anInventedTableBesideAnAcceptedCandidateIsNoViolation() {
        apply(new Outcome.Prepared("t"));
        apply(new Outcome.Generated(2));
        assertThat(apply(new Outcome.Guarded(List.of(forbidden("order"), accepted("SELECT 1")))))
                .isEqualTo(Stage.EXECUTE);
        assertThat(machine.mayCorrect()).isTrue();
    }

    @Test
    void correctionReturningTheSameSqlFails() {
        toExecute(machine);
        apply(failure(ErrorCategory.COLUMN_NOT_FOUND));
        assertThat(apply(new Outcome.Corrected(target("SELECT a FROM t"), "select  a\nFROM t;", false)))
                .isEqualTo(Stage.FAILED);
    }

    @ParameterizedTest
    @EnumSource(Outcome.NoCorrection.Cause.class)
    void aCorrectionWithNothingToRunFailsAnErrorButLeavesAFlaggedAnswerStanding(Outcome.NoCorrection.Cause cause) {
        toExecute(machine);
        apply(failure(ErrorCategory.COLUMN_NOT_FOUND));
        assertThat(apply(new Outcome.NoCorrection(target("SELECT a FROM t"), cause, "x"))).isEqualTo(Stage.FAILED);

        published.clear();
        StateMachine other = machine(true, true);
        other.apply(new Outcome.Prepared("t"), state);
        other.apply(new Outcome.Generated(1), state);
        other.apply(new Outcome.Guarded(List.of(accepted("SELECT 1"))), state);
        other.apply(success(), state);
        other.apply(new Outcome.Chosen("only"), state);
        assertThat(other.apply(new Outcome.Verified(List.of("empty result"), true), state)).isEqualTo(Stage.CORRECT);
        assertThat(other.correctingAnomaly()).isTrue();
        assertThat(other.apply(new Outcome.NoCorrection(target("SELECT 1"), cause, "x"), state))
                .isEqualTo(Stage.ANSWERED);
    }

    @Test
    void anAnomalyCorrectionReturningTheSameSqlLeavesTheAnswerStanding() {
        toCorrectAnomaly();
        assertThat(apply(new Outcome.Corrected(new CorrectionTarget("SELECT 1", CorrectionTarget.RESULT_ANOMALY, "x"),
                "SELECT 1;", false))).isEqualTo(Stage.ANSWERED);
    }

    @Test
    void anomaliesAreAnsweredWhenTheyMayNotBeCorrected() {
        StateMachine strict = machine(true, false);
        toExecute(strict);
        strict.apply(success(), state);
        strict.apply(new Outcome.Chosen("only"), state);
        assertThat(strict.apply(new Outcome.Verified(List.of("empty result"), true), state)).isEqualTo(Stage.ANSWERED);
        assertThat(strict.corrections()).isZero();
    }

    @Test
    void disabledCorrectionFailsCorrectableErrors() {
        StateMachine off = machine(false, true);
        toExecute(off);
        assertThat(off.apply(failure(ErrorCategory.SYNTAX_ERROR), state)).isEqualTo(Stage.FAILED);
    }

    @Test
    void legalPathCheckerCatchesIllegalPaths() {
        Instant t = Instant.EPOCH;
        List<StageTransition> twoCorrections = List.of(
                new StageTransition("q", Stage.RECEIVED, Stage.GENERATE, t, ""),
                new StageTransition("q", Stage.GENERATE, Stage.GUARD, t, ""),
                new StageTransition("q", Stage.GUARD, Stage.CORRECT, t, ""),
                new StageTransition("q", Stage.CORRECT, Stage.GUARD, t, ""),
                new StageTransition("q", Stage.GUARD, Stage.CORRECT, t, ""),
                new StageTransition("q", Stage.CORRECT, Stage.FAILED, t, ""));
        assertThatThrownBy(() -> LegalTraceExtension.checkPath("q", twoCorrections))
                .hasMessageContaining("more than one correction");
        List<StageTransition> unfinished = List.of(new StageTransition("q", Stage.RECEIVED, Stage.GENERATE, t, ""));
        assertThatThrownBy(() -> LegalTraceExtension.checkPath("q", unfinished)).hasMessageContaining("non-terminal");
        List<StageTransition> skipGuard = List.of(new StageTransition("q", Stage.RECEIVED, Stage.EXECUTE, t, ""));
        assertThatThrownBy(() -> LegalTraceExtension.checkPath("q", skipGuard)).hasMessageContaining("illegal");
    }
}
