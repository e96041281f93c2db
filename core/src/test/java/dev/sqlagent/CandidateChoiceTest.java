package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.TokenUsage;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.support.TraceRecorder;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import dev.sqlagent.trace.TraceEvent;
import dev.sqlagent.verify.ResultVerifier;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LegalTraceExtension.class)
class CandidateChoiceTest {

    private final CompanyDatabase db = CompanyDatabase.create();
    private final ScriptedLlm llm = ScriptedLlm.create();

    private SqlAgent.Builder agent(TraceRecorder recorder, int n) {
        return SqlAgent.builder().llm(llm).dataSource(db.analyst()).candidates(n).listener(recorder)
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES));
    }

    private static TraceEvent.Chosen choice(AgentResult r) {
        return r.trace().events().stream().filter(e -> e instanceof TraceEvent.Chosen)
                .map(e -> (TraceEvent.Chosen) e).findFirst().orElseThrow();
    }

    @Test
    void theResultMostCandidatesAgreeOnWins(TraceRecorder recorder) {
        llm.enqueueFor("refiner", "SELECT COUNT(*) FROM employees WHERE department_id = 1",
                "SELECT COUNT(*) FROM employees e JOIN departments d ON d.id = e.department_id WHERE d.dept_name = 'Sales'",
                "SELECT COUNT(*) FROM employees e JOIN departments d ON d.id = e.department_id WHERE d.dept_name IN ('Marketing', 'Support')");
        AgentResult r = recorder.track(agent(recorder, 3).build().ask("How many people work in Sales?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(((AgentResult.Answered) r).table().rows()).containsExactly(List.of(3L));
        assertThat(choice(r).groupSizes()).containsExactly(2, 1);
        assertThat(choice(r).rule()).isEqualTo("majority");
        assertThat(r.trace().executions()).hasSize(3);
        assertThat(llm.callCount()).isEqualTo(1);
        assertThat(llm.requests().get(0).n()).isEqualTo(3);
    }

    @Test
    void identicalCandidatesRunOnce(TraceRecorder recorder) {
        llm.enqueueFor("refiner", "SELECT COUNT(*) FROM orders", "SELECT COUNT(*) FROM orders", "SELECT COUNT(*) FROM orders");
        AgentResult r = recorder.track(agent(recorder, 3).build().ask("How many orders?"));

        assertThat(r.trace().executions()).hasSize(1);
        assertThat(choice(r).groupSizes()).containsExactly(3);
    }

    @Test
    void aRejectedCandidateRejectsTheQuestionUnlessViolatorsAreDropped(TraceRecorder recorder) {
        llm.enqueueFor("refiner", "SELECT base_salary FROM salary_detail", "SELECT COUNT(*) FROM orders");
        AgentResult rejected = recorder.track(agent(recorder, 2).build().ask("How many orders?"));
        assertThat(rejected.status()).isEqualTo(AgentResult.Status.REJECTED);
        assertThat(rejected.trace().executions()).isEmpty();

        llm.enqueueFor("refiner", "SELECT base_salary FROM salary_detail", "SELECT COUNT(*) FROM orders");
        AgentResult r = recorder.track(agent(recorder, 2).dropViolatingCandidates(true).build().ask("How many orders?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().guardChecks()).hasSize(2);
        assertThat(r.trace().executions()).hasSize(1);
    }

    @Test
    void questionIsRejectedWhenEveryCandidateIs(TraceRecorder recorder) {
        llm.enqueueFor("refiner", "SELECT base_salary FROM salary_detail", "SELECT bonus FROM salary_detail");
        AgentResult r = recorder.track(agent(recorder, 2).build().ask("Salaries?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.REJECTED);
        assertThat(r.trace().executions()).isEmpty();
    }

    @Test
    void tieGoesToTheCandidateTheVerifiersDoNotFlag(TraceRecorder recorder) {
        llm.enqueueFor("refiner", "SELECT name FROM employees WHERE title = 'CEO'",
                "SELECT name FROM employees WHERE title = 'Manager'");
        AgentResult r = recorder.track(agent(recorder, 2).verifier(ResultVerifier.nonEmpty()).build().ask("Managers?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(choice(r).rule()).startsWith("signals");
        assertThat(choice(r).candidate()).isEqualTo(1);
        assertThat(r.trace().correctionCount()).isZero();
    }

    @Test
    void clientThatIgnoresNIsAskedAgainForTheRest(TraceRecorder recorder) {
        llm.enqueueResponse("refiner", new LlmResponse(List.of("SELECT COUNT(*) FROM orders"), TokenUsage.NONE, ""));
        llm.enqueueResponse("refiner", new LlmResponse(List.of("SELECT COUNT(*) FROM employees"), TokenUsage.NONE, ""));
        llm.enqueueResponse("refiner", new LlmResponse(List.of("SELECT COUNT(*) FROM orders"), TokenUsage.NONE, ""));
        AgentResult r = recorder.track(agent(recorder, 3).build().ask("How many orders?"));

        assertThat(llm.callCount()).isEqualTo(3);
        assertThat(llm.requests()).extracting(q -> q.n()).containsExactly(3, 1, 1);
        assertThat(((AgentResult.Answered) r).table().rows()).containsExactly(List.of(120L));
    }

    @Test
    void candidatesRunAtOnceWithinTheBoundAndTheTraceKeepsCandidateOrder(TraceRecorder recorder) throws Exception {
        java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CountDownLatch twoIn = new java.util.concurrent.CountDownLatch(2);
        java.util.concurrent.atomic.AtomicBoolean gaveUp = new java.util.concurrent.atomic.AtomicBoolean();
        dev.sqlagent.execution.SqlExecutor real = dev.sqlagent.execution.JdbcSqlExecutor.builder(db.analyst()).build();
        dev.sqlagent.execution.SqlExecutor slow = st -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            twoIn.countDown();
            try {
                // each of the first two waits for the other: both run at once whatever the scheduling; the
                // bound only stops a hang (a bound of 1 would never let the second in)
                if (!twoIn.await(2, java.util.concurrent.TimeUnit.MINUTES)) {
                    gaveUp.set(true);
                }
                return real.execute(st);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            } finally {
                running.decrementAndGet();
            }
        };
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            SqlAgent agent = SqlAgent.builder().llm(llm).executor(slow).dialect(Dialect.H2)
                    .schema(dev.sqlagent.schema.SchemaCatalog.introspect(db.analyst(),
                            GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)))
                    .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).listener(recorder)
                    .candidates(3).candidateExecution(pool, 2).build();
            llm.enqueueFor("refiner", "SELECT COUNT(*) FROM orders", "SELECT COUNT(*) FROM employees",
                    "SELECT COUNT(*) FROM regions");
            AgentResult r = recorder.track(agent.ask("How many orders?"));

            assertThat(gaveUp).as("two candidates never ran at once").isFalse();
            assertThat(most.get()).isEqualTo(2);
            assertThat(r.trace().executions()).extracting(TraceEvent.Executed::candidate).containsExactly(0, 1, 2);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void allCandidatesFailingCorrectsTheFirstFailureOnce(TraceRecorder recorder) {
        llm.enqueueFor("refiner", "SELECT nme FROM employees", "SELECT nam FROM employees");
        llm.enqueueFor("refiner", "{\"reason\": \"typo\", \"sql\": \"SELECT name FROM employees\"}");
        AgentResult r = recorder.track(agent(recorder, 2).build().ask("Names"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().correction().orElseThrow().originalSql()).isEqualTo("SELECT nme FROM employees");
    }
}
