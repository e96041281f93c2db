package dev.sqlagent.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.ExecutionError;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.StageTransition;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class StateMachineTest {

    private final List<StageTransition> published = new ArrayList<>();
    private final StateMachine machine = new StateMachine("q1",
            Clock.fixed(Instant.parse("2026-11-29T00:00:00Z"), ZoneOffset.UTC), true, published::add);

    private static ExecutionOutcome failure(ErrorCategory c) {
        return new ExecutionOutcome.Failure(new ExecutionError(c, null, 0, "boom", Duration.ZERO));
    }

    private void toExecute() {
        machine.moveTo(Stage.GENERATE, "t");
        machine.moveTo(Stage.GUARD, "t");
        machine.moveTo(Stage.EXECUTE, "t");
    }

    @Test
    void illegalMoveThrowsAndPublishesNothing() {
        assertThatThrownBy(() -> machine.moveTo(Stage.EXECUTE, "skip the guard"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("RECEIVED -> EXECUTE");
        assertThat(published).isEmpty();
        assertThat(machine.current()).isEqualTo(Stage.RECEIVED);
    }

    @Test
    void everyMoveIsPublishedAsAnImmutableEvent() {
        machine.moveTo(Stage.GENERATE, "write");
        assertThat(published).containsExactly(new StageTransition("q1", Stage.RECEIVED, Stage.GENERATE,
                Instant.parse("2026-11-29T00:00:00Z"), "write"));
    }

    @Test
    void secondCorrectionIsRefused() {
        toExecute();
        machine.moveTo(Stage.CORRECT, "first");
        machine.moveTo(Stage.GUARD, "t");
        machine.moveTo(Stage.EXECUTE, "t");
        assertThatThrownBy(() -> machine.moveTo(Stage.CORRECT, "second"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("correction refused");
    }

    @Test
    void noMoveLeavesATerminalStage() {
        machine.moveTo(Stage.FAILED, "t");
        for (Stage s : Stage.values()) {
            assertThatThrownBy(() -> machine.moveTo(s, "after the end")).isInstanceOf(IllegalStateException.class);
        }
    }

    @ParameterizedTest
    @EnumSource(value = ErrorCategory.class, names = {"PERMISSION_DENIED", "TIMEOUT", "CONNECTION", "RESOURCE_LIMIT"})
    void environmentalErrorsFailWithoutCorrection(ErrorCategory category) {
        toExecute();
        assertThat(machine.afterExecution(failure(category))).isEqualTo(Stage.FAILED);
        assertThat(machine.corrections()).isZero();
    }

    @ParameterizedTest
    @EnumSource(value = ErrorCategory.class, names = {"TABLE_NOT_FOUND", "COLUMN_NOT_FOUND", "AMBIGUOUS_COLUMN",
        "SYNTAX_ERROR", "GROUPING_ERROR", "FUNCTION_NOT_FOUND", "TYPE_MISMATCH"})
    void correctableErrorsAreCorrectedExactlyOnce(ErrorCategory category) {
        toExecute();
        assertThat(machine.afterExecution(failure(category))).isEqualTo(Stage.CORRECT);
        machine.moveTo(Stage.GUARD, "t");
        machine.moveTo(Stage.EXECUTE, "t");
        assertThat(machine.afterExecution(failure(category))).isEqualTo(Stage.FAILED);
        assertThat(machine.corrections()).isEqualTo(1);
    }

    @Test
    void unknownErrorsAreNotCorrected() {
        toExecute();
        assertThat(machine.afterExecution(failure(ErrorCategory.UNKNOWN))).isEqualTo(Stage.FAILED);
    }

    @Test
    void anyRejectionAmongUnrunnableCandidatesRejects() {
        machine.moveTo(Stage.GENERATE, "t");
        machine.moveTo(Stage.GUARD, "t");
        List<GuardVerdict> verdicts = List.of(new GuardVerdict.Unparseable("SELEC", "bad"),
                new GuardVerdict.Rejected("SELECT * FROM salary", List.of(
                        new Violation(ViolationType.TABLE_NOT_ALLOWED, "salary", "no"))));
        assertThat(machine.afterGuard(verdicts, Set.of("salary")::contains)).isEqualTo(Stage.REJECTED);
    }

    @Test
    void rejectionNamingOnlyMissingTablesIsCorrectable() {
        machine.moveTo(Stage.GENERATE, "t");
        machine.moveTo(Stage.GUARD, "t");
        GuardVerdict.Rejected invented = new GuardVerdict.Rejected("SELECT 1 FROM order",
                List.of(new Violation(ViolationType.TABLE_NOT_ALLOWED, "order", "no")));
        assertThat(StateMachine.inventedTables(invented, Set.of("orders")::contains)).containsExactly("order");
        assertThat(machine.afterGuard(List.of(invented), Set.of("orders")::contains)).isEqualTo(Stage.CORRECT);
    }

    @Test
    void rejectionWithAnyOtherViolationStands() {
        GuardVerdict.Rejected mixed = new GuardVerdict.Rejected("x", List.of(
                new Violation(ViolationType.TABLE_NOT_ALLOWED, "order", "no"),
                new Violation(ViolationType.FUNCTION_NOT_ALLOWED, "pg_sleep", "no")));
        assertThat(StateMachine.inventedTables(mixed, t -> false)).isEmpty();
    }

    @Test
    void acceptedCandidateWinsOverRejectedOnes() {
        machine.moveTo(Stage.GENERATE, "t");
        machine.moveTo(Stage.GUARD, "t");
        List<GuardVerdict> verdicts = List.of(
                new GuardVerdict.Rejected("x", List.of(new Violation(ViolationType.COMMENT, "--", "no"))),
                new GuardVerdict.Accepted("SELECT 1", dev.sqlagent.execution.SqlStatement.of("SELECT 1"), Set.of(), Set.of()));
        assertThat(machine.afterGuard(verdicts, t -> true)).isEqualTo(Stage.EXECUTE);
    }

    @Test
    void correctionReturningTheSameSqlFails() {
        toExecute();
        machine.afterExecution(failure(ErrorCategory.COLUMN_NOT_FOUND));
        assertThat(machine.afterCorrection("select  a\nFROM t;", "SELECT a FROM t")).isEqualTo(Stage.FAILED);
    }

    @Test
    void disabledCorrectionFailsCorrectableErrors() {
        StateMachine off = new StateMachine("q", Clock.systemUTC(), false, t -> { });
        off.moveTo(Stage.GENERATE, "t");
        off.moveTo(Stage.GUARD, "t");
        off.moveTo(Stage.EXECUTE, "t");
        assertThat(off.afterExecution(failure(ErrorCategory.SYNTAX_ERROR))).isEqualTo(Stage.FAILED);
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
