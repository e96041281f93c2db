package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.support.TraceRecorder;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import dev.sqlagent.trace.CorrectionRecord;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.TraceEvent;
import dev.sqlagent.verify.ResultVerifier;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** One test per row of the rules table of DESIGN.md, on H2, asserting on the trace. */
@ExtendWith(LegalTraceExtension.class)
class SqlAgentRulesTest {

    private static final String REFINER = AgentRole.REFINER.id();

    private CompanyDatabase db;
    private ScriptedLlm llm;

    @BeforeEach
    void setUp() {
        db = CompanyDatabase.create();
        llm = ScriptedLlm.create();
    }

    private SqlAgent.Builder agent(TraceRecorder recorder) {
        return SqlAgent.builder().llm(llm).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).listener(recorder);
    }

    private static String fix(String reason, String sql) {
        return "{\"reason\": \"" + reason + "\", \"sql\": \"" + sql + "\"}";
    }

    @Test
    void guardRejectionStopsWithoutAnotherModelCall(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT employee_id, base_salary FROM salary_detail");
        AgentResult r = recorder.track(agent(recorder).build().ask("What does each employee earn?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.REJECTED);
        assertThat(((AgentResult.Rejected) r).violations()).extracting(v -> v.type())
                .containsExactly(ViolationType.TABLE_NOT_ALLOWED);
        assertThat(r.trace().stages()).containsExactly(Stage.RECEIVED, Stage.GENERATE, Stage.GUARD, Stage.REJECTED);
        assertThat(llm.callCount()).isEqualTo(1);
        assertThat(r.trace().executions()).isEmpty();
    }

    @Test
    void rejectedSqlIsNeverRegeneratedEvenWithRepliesQueued(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT base_salary FROM salary_detail");
        llm.enqueueFor(REFINER, "SELECT 1 FROM employees");
        AgentResult r = recorder.track(agent(recorder).build().ask("salaries?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.REJECTED);
        assertThat(llm.remaining()).isEqualTo(1);
    }

    @Test
    void unparseableSqlIsCorrectedOnceAndNeverExecuted(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT name FROM employees WHERE");
        llm.enqueueFor(REFINER, fix("WHERE had no condition", "SELECT name FROM employees"));
        AgentResult r = recorder.track(agent(recorder).build().ask("List the employees"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().executions()).hasSize(1);
        assertThat(r.trace().executions().get(0).sql()).doesNotContain("WHERE");
        CorrectionRecord c = r.trace().correction().orElseThrow();
        assertThat(c.originalSql()).isEqualTo("SELECT name FROM employees WHERE");
        assertThat(c.errorCategory()).isEqualTo("SYNTAX_ERROR");
        assertThat(c.correctionReason()).isEqualTo("WHERE had no condition");
    }

    @Test
    void inventedTableIsCorrectedAsTableNotFoundWithoutRunning(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM order");
        llm.enqueueFor(REFINER, fix("the table is called orders", "SELECT COUNT(*) FROM orders"));
        AgentResult r = recorder.track(agent(recorder).build().ask("How many orders are there?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(((AgentResult.Answered) r).table().rows()).containsExactly(List.of(120L));
        CorrectionRecord c = r.trace().correction().orElseThrow();
        assertThat(c.errorCategory()).isEqualTo("TABLE_NOT_FOUND");
        assertThat(c.originalError()).contains("order");
        assertThat(c.correctedSql()).isEqualTo("SELECT COUNT(*) FROM orders");
        assertThat(r.trace().executions()).hasSize(1);
    }

    @Test
    void unknownColumnIsFoundByTheGuardAndCorrectedOnceWithoutRunning(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT name FROM employees WHERE dept_name = 'Sales'");
        llm.enqueueFor(REFINER, fix("employees has department_id", "SELECT e.name FROM employees e JOIN departments d"
                + " ON e.department_id = d.id WHERE d.dept_name = 'Sales'"));
        AgentResult r = recorder.track(agent(recorder).build().ask("Who works in Sales?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().stages()).containsExactly(Stage.RECEIVED, Stage.GENERATE, Stage.GUARD,
                Stage.CORRECT, Stage.GUARD, Stage.EXECUTE, Stage.CHOOSE, Stage.VERIFY, Stage.ANSWERED);
        CorrectionRecord c = r.trace().correction().orElseThrow();
        assertThat(c.errorCategory()).isEqualTo("COLUMN_NOT_FOUND");
        assertThat(c.originalError()).isEqualTo("no such column: dept_name");
        assertThat(llm.requests(REFINER).get(1).text()).contains(c.originalError());
        assertThat(r.trace().executions()).hasSize(1);
        assertThat(((AgentResult.Answered) r).table().rowCount()).isEqualTo(3);
    }

    @Test
    void executionErrorIsCorrectedOnceWithTheDatabaseMessage(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT name, COUNT(*) FROM employees");
        llm.enqueueFor(REFINER, fix("group by name", "SELECT name, COUNT(*) FROM employees GROUP BY name"));
        AgentResult r = recorder.track(agent(recorder).build().ask("Employees and how many rows each has"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().stages()).containsExactly(Stage.RECEIVED, Stage.GENERATE, Stage.GUARD, Stage.EXECUTE,
                Stage.CORRECT, Stage.GUARD, Stage.EXECUTE, Stage.CHOOSE, Stage.VERIFY, Stage.ANSWERED);
        CorrectionRecord c = r.trace().correction().orElseThrow();
        assertThat(c.errorCategory()).isEqualTo("GROUPING_ERROR");
        assertThat(c.originalError()).containsIgnoringCase("NAME");
        assertThat(llm.requests(REFINER).get(1).text()).contains(c.originalError());
    }

    @Test
    void stillFailingAfterTheCorrectionStops(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT name, COUNT(*) FROM employees");
        llm.enqueueFor(REFINER, fix("aggregate", "SELECT name, MAX(id) FROM employees"));
        llm.enqueueFor(REFINER, "SELECT name FROM employees");
        AgentResult r = recorder.track(agent(recorder).build().ask("Names of employees"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.FAILED);
        AgentResult.Failed f = (AgentResult.Failed) r;
        assertThat(f.kind()).isEqualTo(FailureKind.STILL_FAILING);
        assertThat(f.errorCategory()).contains(ErrorCategory.GROUPING_ERROR);
        assertThat(r.trace().executions()).hasSize(2);
        assertThat(llm.callCount()).isEqualTo(2);
        assertThat(r.trace().correctionCount()).isEqualTo(1);
    }

    @Test
    void permissionDeniedIsNeverCorrected(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT event FROM audit_log");
        AgentResult r = recorder.track(agent(recorder).build().ask("List the user names"));

        AgentResult.Failed f = (AgentResult.Failed) r;
        assertThat(f.kind()).isEqualTo(FailureKind.ENVIRONMENT);
        assertThat(f.errorCategory()).contains(ErrorCategory.PERMISSION_DENIED);
        assertThat(llm.callCount()).isEqualTo(1);
        assertThat(r.trace().stages()).doesNotContain(Stage.CORRECT);
    }

    @Test
    void timeoutIsNeverCorrected(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM orders a, orders b, orders c, orders d, orders e");
        AgentResult r = recorder.track(agent(recorder).queryTimeout(Duration.ofSeconds(1)).build()
                .ask("How many combinations of five orders are there?"));

        AgentResult.Failed f = (AgentResult.Failed) r;
        assertThat(f.kind()).isEqualTo(FailureKind.ENVIRONMENT);
        assertThat(f.errorCategory()).contains(ErrorCategory.TIMEOUT);
        assertThat(llm.callCount()).isEqualTo(1);
    }

    @Test
    void correctionReturningTheSameSqlStopsWithoutRunningIt(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT name, COUNT(*) FROM employees");
        llm.enqueueFor(REFINER, fix("looks right", "select   name,COUNT(*) from employees;"));
        AgentResult r = recorder.track(agent(recorder).build().ask("Employee user names"));

        AgentResult.Failed f = (AgentResult.Failed) r;
        assertThat(f.kind()).isEqualTo(FailureKind.CORRECTION_UNCHANGED);
        assertThat(r.trace().executions()).hasSize(1);
        assertThat(r.trace().finalStage()).isEqualTo(Stage.FAILED);
    }

    @Test
    void correctionThatTheGuardRejectsEndsRejected(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT name, COUNT(*) FROM employees");
        llm.enqueueFor(REFINER, fix("salary lives elsewhere", "SELECT base_salary FROM salary_detail"));
        AgentResult r = recorder.track(agent(recorder).build().ask("Employee salaries"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.REJECTED);
        assertThat(r.trace().stages()).endsWith(Stage.CORRECT, Stage.GUARD, Stage.REJECTED);
        assertThat(r.trace().executions()).hasSize(1);
        assertThat(llm.callCount()).isEqualTo(2);
    }

    @Test
    void emptyResultUsesTheSingleCorrectionWhenAVerifierFlagsIt(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT name FROM employees WHERE title = 'CEO'");
        llm.enqueueFor(REFINER, fix("no CEO title; managers lead", "SELECT name FROM employees WHERE title = 'Manager'"));
        AgentResult r = recorder.track(agent(recorder).verifier(ResultVerifier.nonEmpty()).build()
                .ask("Who are the managers?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        CorrectionRecord c = r.trace().correction().orElseThrow();
        assertThat(c.errorCategory()).isEqualTo("RESULT_ANOMALY");
        assertThat(c.originalError()).contains("no rows");
        assertThat(((AgentResult.Answered) r).table().rowCount()).isEqualTo(3);
    }

    @Test
    void anomalyAfterTheCorrectionIsAnsweredWithTheFindingNoted(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT name FROM employees WHERE title = 'CEO'");
        llm.enqueueFor(REFINER, fix("try chief", "SELECT name FROM employees WHERE title = 'Chief'"));
        AgentResult r = recorder.track(agent(recorder).verifier(ResultVerifier.nonEmpty()).build().ask("Who is CEO?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().notes()).filteredOn(n -> n.kind().equals("verifier")).hasSize(2);
        assertThat(r.trace().correctionCount()).isEqualTo(1);
    }

    @Test
    void anomalyWhoseCorrectionKeepsTheSqlLeavesTheFlaggedAnswerStanding(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT name FROM employees WHERE title = 'CEO'");
        llm.enqueueFor(REFINER, fix("there is no CEO; the empty result is right",
                "SELECT name FROM employees WHERE title = 'CEO'"));
        AgentResult r = recorder.track(agent(recorder).verifier(ResultVerifier.nonEmpty()).build().ask("Who is CEO?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(((AgentResult.Answered) r).table().rowCount()).isZero();
        assertThat(r.trace().stages()).endsWith(Stage.VERIFY, Stage.CORRECT, Stage.ANSWERED);
        assertThat(r.trace().executions()).hasSize(1);
    }

    @Test
    void correctableErrorWithCorrectionDisabledIsNotCorrected(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT nme FROM employees");
        AgentResult r = recorder.track(agent(recorder).correction(false).build().ask("Names"));

        assertThat(((AgentResult.Failed) r).kind()).isEqualTo(FailureKind.NOT_CORRECTED);
        assertThat(llm.callCount()).isEqualTo(1);
    }

    @Test
    void modelTimeoutFailsAsModelError(TraceRecorder recorder) {
        llm.enqueueFault(REFINER, ScriptedLlm.Fault.TIMEOUT);
        AgentResult r = recorder.track(agent(recorder).build().ask("How many orders?"));

        AgentResult.Failed f = (AgentResult.Failed) r;
        assertThat(f.kind()).isEqualTo(FailureKind.MODEL_ERROR);
        assertThat(f.message()).contains("TIMEOUT");
        assertThat(r.trace().modelCalls()).hasSize(1);
        assertThat(r.trace().modelCalls().get(0).error()).isNotEmpty();
    }

    @Test
    void modelReturningNullIsNamedInTheError(TraceRecorder recorder) {
        llm.enqueueFault(REFINER, ScriptedLlm.Fault.NULL_RESPONSE);
        AgentResult.Failed f = (AgentResult.Failed) recorder.track(agent(recorder).build().ask("How many orders?"));

        assertThat(f.kind()).isEqualTo(FailureKind.MODEL_ERROR);
        assertThat(f.message()).contains(ScriptedLlm.class.getName()).contains("returned null");
    }

    @Test
    void clientThatThrowsDoesNotEscapeAsk(TraceRecorder recorder) {
        llm.enqueueFault(REFINER, ScriptedLlm.Fault.EXCEPTION);
        AgentResult.Failed f = (AgentResult.Failed) recorder.track(agent(recorder).build().ask("How many orders?"));

        assertThat(f.kind()).isEqualTo(FailureKind.MODEL_ERROR);
        assertThat(f.message()).contains("threw");
    }

    @Test
    void replyWithoutSqlIsATypedFailureAndNothingRuns(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "I'm sorry, I cannot help with that.");
        AgentResult r = recorder.track(agent(recorder).build().ask("How many orders?"));

        assertThat(((AgentResult.Failed) r).kind()).isEqualTo(FailureKind.NO_SQL);
        assertThat(r.trace().executions()).isEmpty();
        assertThat(r.trace().guardChecks()).isEmpty();
    }

    @Test
    void malformedCorrectionJsonStillYieldsTheSqlWhenThereIsOne(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT nme FROM employees");
        llm.enqueueFault(REFINER, ScriptedLlm.Fault.MALFORMED_JSON);
        AgentResult r = recorder.track(agent(recorder).build().ask("Names"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.FAILED);
        assertThat(r.trace().correctionCount()).isEqualTo(1);
        assertThat(r.trace().executions()).hasSizeLessThanOrEqualTo(2);
    }

    @Test
    void blankQuestionIsATypedFailureWithoutAModelCall(TraceRecorder recorder) {
        AgentResult r = recorder.track(agent(recorder).build().ask("   "));

        assertThat(((AgentResult.Failed) r).kind()).isEqualTo(FailureKind.INVALID_QUESTION);
        assertThat(llm.callCount()).isZero();
    }

    @Test
    void oversizedQuestionIsATypedFailure(TraceRecorder recorder) {
        AgentResult r = recorder.track(agent(recorder).maxQuestionLength(10).build().ask("How many orders were paid?"));

        AgentResult.Failed f = (AgentResult.Failed) r;
        assertThat(f.kind()).isEqualTo(FailureKind.INVALID_QUESTION);
        assertThat(f.message()).contains("at most 10");
    }

    @Test
    void everyModelCallIsInTheTraceWithPromptRepliesAndTokens(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT nme FROM employees");
        llm.enqueueFor(REFINER, fix("typo", "SELECT name FROM employees"));
        AgentResult r = recorder.track(agent(recorder).build().ask("Names"));

        List<TraceEvent.ModelCall> calls = r.trace().modelCalls();
        assertThat(calls).hasSize(2);
        assertThat(calls.get(0).stage()).isEqualTo(Stage.GENERATE);
        assertThat(calls.get(1).stage()).isEqualTo(Stage.CORRECT);
        assertThat(calls.get(0).prompt().get(0).content()).contains("CREATE TABLE").doesNotContainIgnoringCase("salary_detail");
        assertThat(calls).allSatisfy(c -> assertThat(c.usage().totalTokens()).isPositive());
        assertThat(r.trace().tokensByRole()).containsOnlyKeys(REFINER);
    }
}
