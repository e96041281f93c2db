package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.TokenUsage;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.support.TraceRecorder;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import dev.sqlagent.trace.Stage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Budgets per question (model calls, tokens, deadline; on the builder and per request), cancellation of
 * {@code askAsync}, and {@code close()} with questions under way. On H2; the statement-level cancellation
 * on PostgreSQL is in {@code execution.PostgresCancellationTest}.
 */
@ExtendWith(LegalTraceExtension.class)
class BudgetsAndCancellationTest {

    private static final String REFINER = AgentRole.REFINER.id();
    private static final String GOOD = "SELECT name FROM employees";
    /** A column the table lacks: correctable, so the correction needs a second call. */
    /** Fails on execution (H2: NAME must be in the GROUP BY list), a mistake the guard cannot see. */
    private static final String BAD_COLUMN = "SELECT name, COUNT(*) FROM employees";

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

    private static String fix(String sql) {
        return "{\"reason\": \"the column is name\", \"sql\": \"" + sql + "\"}";
    }

    @Test
    void aCallPastTheModelCallBudgetIsNotMadeAndEndsTheQuestionWithItsOwnKind(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, BAD_COLUMN).enqueueFor(REFINER, fix(GOOD));
        try (SqlAgent agent = agent(recorder).budget(QuestionBudget.unlimited().withMaxModelCalls(1)).build()) {
            AgentResult r = recorder.track(agent.ask("List the employees"));

            assertThat(r).isInstanceOf(AgentResult.Failed.class);
            assertThat(((AgentResult.Failed) r).kind()).isEqualTo(FailureKind.MODEL_CALLS_EXCEEDED);
            assertThat(llm.callCount()).isEqualTo(1);
            assertThat(llm.remaining()).isEqualTo(1);
            // the trace so far: the failing execution is kept
            assertThat(r.trace().executions()).hasSize(1);
            assertThat(r.trace().notes()).anyMatch(n -> n.kind().equals("budget"));
            assertThat(r.trace().finalStage()).isEqualTo(Stage.FAILED);
        }
    }

    @Test
    void aRequestBudgetReplacesTheAgentsLimitOfTheSameKind(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, BAD_COLUMN).enqueueFor(REFINER, fix(GOOD));
        try (SqlAgent agent = agent(recorder).budget(QuestionBudget.unlimited().withMaxModelCalls(1)
                .withMaxTokens(1_000_000)).build()) {
            AgentResult r = recorder.track(agent.ask(Question.of("List the employees")
                    .withBudget(QuestionBudget.unlimited().withMaxModelCalls(2))));

            assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
            assertThat(r.corrected()).isTrue();
        }
    }

    @Test
    void tokensPastTheBudgetEndTheQuestionAfterTheCallThatSpentThem(TraceRecorder recorder) {
        llm.enqueueResponse(REFINER, new LlmResponse(List.of(GOOD), new TokenUsage(80, 40), "m"));
        try (SqlAgent agent = agent(recorder).budget(QuestionBudget.unlimited().withMaxTokens(100)).build()) {
            AgentResult r = recorder.track(agent.ask("List the employees"));

            assertThat(((AgentResult.Failed) r).kind()).isEqualTo(FailureKind.TOKENS_EXCEEDED);
            assertThat(((AgentResult.Failed) r).message()).contains("120 tokens").contains("100");
            assertThat(r.trace().executions()).isEmpty();
            assertThat(r.trace().tokens().totalTokens()).isEqualTo(120);
        }
    }

    @Test
    void aCandidateWrittenPastTheTokenBudgetIsCheckedButNeverRun(TraceRecorder recorder) {
        // the budget ends the question after the call that spent it; the guard still reads the SQL (no
        // model call needed), so a violation rejects rather than hiding behind the budget (PromisedRulesTest)
        llm.enqueueResponse(REFINER, new LlmResponse(List.of("SELECT base_salary FROM salary_detail"),
                new TokenUsage(500, 500), "m"));
        try (SqlAgent agent = agent(recorder).budget(QuestionBudget.unlimited().withMaxTokens(10)).build()) {
            AgentResult r = recorder.track(agent.ask("What does each employee earn?"));

            assertThat(r.status()).isEqualTo(AgentResult.Status.REJECTED);
            assertThat(r.trace().guardChecks()).hasSize(1);
            assertThat(r.trace().executions()).isEmpty();
        }
    }

    @Test
    void theDeadlineInterruptsAModelCallThatHangs(TraceRecorder recorder) throws Exception {
        AtomicBoolean interrupted = new AtomicBoolean();
        llm.fallback(r -> {
            try {
                new CountDownLatch(1).await(); // never released: only an interrupt ends it
            } catch (InterruptedException e) {
                interrupted.set(true);
                Thread.currentThread().interrupt();
            }
            throw new dev.sqlagent.llm.LlmException(dev.sqlagent.llm.LlmException.Kind.OTHER, "interrupted");
        });
        try (SqlAgent agent = agent(recorder).budget(QuestionBudget.unlimited()
                .withDeadline(Duration.ofMillis(200))).build()) {
            AgentResult r = recorder.track(agent.ask("List the employees"));

            assertThat(((AgentResult.Failed) r).kind()).isEqualTo(FailureKind.DEADLINE_EXCEEDED);
            assertThat(interrupted).isTrue();
            // the interrupt the deadline delivered does not leak to the caller's thread
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
        }
    }

    @Test
    void cancellingTheFutureInterruptsTheModelCallAndEndsTheQuestionCancelled(TraceRecorder recorder)
            throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        llm.fallback(r -> {
            entered.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
            throw new dev.sqlagent.llm.LlmException(dev.sqlagent.llm.LlmException.Kind.OTHER, "interrupted");
        });
        CompletableFuture<HandOff> handOff = new CompletableFuture<>();
        try (SqlAgent agent = agent(recorder).onHandOff(handOff::complete).build()) {
            CompletableFuture<AgentResult> future = agent.askAsync("List the employees");
            assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();

            assertThat(future.cancel(true)).isTrue();

            HandOff h = handOff.get(30, TimeUnit.SECONDS);
            assertThat(h.failureKind()).contains(FailureKind.CANCELLED);
            assertThat(interrupted).isTrue();
            assertThat(future).isCancelled();
            assertThat(agent.metrics().questions()).isEqualTo(1);
        }
    }

    @Test
    void aQuestionCancelledBeforeItStartedIsNeverRun(TraceRecorder recorder) {
        LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
        Executor manual = tasks::add;
        llm.enqueueFor(REFINER, GOOD);
        try (SqlAgent agent = agent(recorder).asyncExecutor(manual).build()) {
            CompletableFuture<AgentResult> future = agent.askAsync("List the employees");
            future.cancel(true);
            tasks.poll().run();

            assertThat(llm.callCount()).isZero();
            assertThat(agent.metrics().questions()).isZero();
        }
    }

    @Test
    void closeCancelsQuestionsUnderWayAndRefusesNewOnes(TraceRecorder recorder) throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        llm.fallback(r -> {
            entered.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new dev.sqlagent.llm.LlmException(dev.sqlagent.llm.LlmException.Kind.OTHER, "interrupted");
        });
        CompletableFuture<HandOff> handOff = new CompletableFuture<>();
        SqlAgent agent = agent(recorder).onHandOff(handOff::complete).build();
        CompletableFuture<AgentResult> future = agent.askAsync("List the employees");
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();

        agent.close();

        assertThat(future).isDone();
        assertThat(((AgentResult.Failed) future.get()).kind()).isEqualTo(FailureKind.CANCELLED);
        assertThat(handOff.get(30, TimeUnit.SECONDS).failureKind()).contains(FailureKind.CANCELLED);
        assertThat(agent.isClosed()).isTrue();
        assertThatThrownBy(() -> agent.ask("again?")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> agent.askAsync("again?")).isInstanceOf(IllegalStateException.class);
        agent.close(); // twice is harmless
    }

    @Test
    void budgetsRefuseNonsenseWithTheFieldNamed() {
        assertThatThrownBy(() -> QuestionBudget.unlimited().withMaxModelCalls(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxModelCalls");
        assertThatThrownBy(() -> QuestionBudget.unlimited().withMaxTokens(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxTokens");
        assertThatThrownBy(() -> QuestionBudget.unlimited().withDeadline(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("deadline");
        assertThat(QuestionBudget.unlimited().withMaxModelCalls(3)
                .overriddenBy(QuestionBudget.unlimited().withMaxTokens(5)))
                .isEqualTo(QuestionBudget.unlimited().withMaxModelCalls(3).withMaxTokens(5));
    }
}
