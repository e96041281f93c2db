package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.cases.CaseRecord;
import dev.sqlagent.cases.InMemoryCaseSink;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.testkit.ScriptedLlm;
import dev.sqlagent.metrics.MetricTool;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.support.TraceRecorder;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.StageTransition;
import dev.sqlagent.trace.TraceEvent;
import dev.sqlagent.verify.Verifiers;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The governance rules on the paths around the main one: the same-SQL rule, the fix cache, n-best
 * candidates and the policy, what the model is shown, metric tools, conversations, and what corrections
 * and the metrics report. Each test failed on the code before these rules were enforced.
 */
@ExtendWith(LegalTraceExtension.class)
class GovernancePathsTest {

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

    private static String fix(String sql) {
        return "{\"reason\": \"fixed\", \"sql\": \"" + sql.replace("\"", "\\\"") + "\"}";
    }

    private static List<Object> column(AgentResult r) {
        List<Object> out = new ArrayList<>();
        ((AgentResult.Answered) r).table().rows().forEach(row -> out.add(row.get(0)));
        return out;
    }

    // ---- same SQL ----

    @Test
    void aCorrectionChangingOnlyALiteralsCaseRuns(TraceRecorder recorder) {
        SqlAgent.Builder b = agent(recorder);
        b.verifiers(Verifiers.standard());
        llm.enqueueFor(REFINER, "SELECT customer FROM orders WHERE status = 'PAID'");
        llm.enqueueFor(REFINER, fix("SELECT customer FROM orders WHERE status = 'paid'"));
        AgentResult r = recorder.track(b.build().ask("Which customers have paid orders?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().executions()).hasSize(2);
        assertThat(column(r)).isNotEmpty();
        assertThat(r.sql()).contains("SELECT customer FROM orders WHERE status = 'paid'");
    }

    @Test
    void aCorrectionChangingOnlyAQuotedIdentifiersCaseRuns(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT \"name\" FROM employees");
        llm.enqueueFor(REFINER, fix("SELECT \"NAME\" FROM employees"));
        AgentResult r = recorder.track(agent(recorder).build().ask("List the employees"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(column(r)).hasSize(12);
    }

    @Test
    void spacesInsideALiteralMakeADifferentSql(TraceRecorder recorder) {
        SqlAgent.Builder b = agent(recorder);
        b.verifiers(Verifiers.standard());
        llm.enqueueFor(REFINER, "SELECT id FROM employees WHERE name = 'AliceWang'");
        llm.enqueueFor(REFINER, fix("SELECT id FROM employees WHERE name = 'Alice Wang'"));
        AgentResult r = recorder.track(b.build().ask("What is Alice Wang's id?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(column(r)).containsExactly(1L);
    }

    @Test
    void keywordCaseWhitespaceCommentsAndSemicolonsStillMakeTheSameSql(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT name, COUNT(*) FROM employees");
        llm.enqueueFor(REFINER, fix("select  name,count(*)\n from EMPLOYEES /* same */;"));
        AgentResult r = recorder.track(agent(recorder).build().ask("names"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.FAILED);
        assertThat(((AgentResult.Failed) r).kind()).isEqualTo(FailureKind.CORRECTION_UNCHANGED);
        assertThat(r.trace().executions()).hasSize(1);
    }

    // ---- the fix cache ----

    @Test
    void aFixLearntForOneLiteralNeverAnswersAnother(TraceRecorder recorder) {
        SqlAgent agent = agent(recorder).build();
        llm.enqueueFor(REFINER, "SELECT amount FROM orders WHERE customr = 'Acme'");
        llm.enqueueFor(REFINER, fix("SELECT amount FROM orders WHERE customer = 'Acme'"));
        recorder.track(agent.ask("Amounts of Acme's orders?"));

        llm.enqueueFor(REFINER, "SELECT amount FROM orders WHERE customr = 'ACME'");
        llm.enqueueFor(REFINER, fix("SELECT amount FROM orders WHERE UPPER(customer) = 'ACME'"));
        AgentResult r = recorder.track(agent.ask("Amounts of ACME's orders?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(llm.callCount()).isEqualTo(4);
        assertThat(r.trace().notes()).noneMatch(n -> n.kind().equals("fix_cache"));
        assertThat(r.sql()).contains("SELECT amount FROM orders WHERE UPPER(customer) = 'ACME'");
    }

    @Test
    void theSameLiteralStillHitsTheCache(TraceRecorder recorder) {
        SqlAgent agent = agent(recorder).build();
        llm.enqueueFor(REFINER, "SELECT amount FROM orders WHERE customr = 'Acme'");
        llm.enqueueFor(REFINER, fix("SELECT amount FROM orders WHERE customer = 'Acme'"));
        recorder.track(agent.ask("Amounts of Acme's orders?"));
        llm.enqueueFor(REFINER, "SELECT amount FROM orders WHERE customr = 'Acme'");
        AgentResult r = recorder.track(agent.ask("And again?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().notes()).anyMatch(n -> n.kind().equals("fix_cache"));
        assertThat(llm.callCount()).isEqualTo(3);
    }

    @Test
    void aFixLearntUnderOnePolicyIsNeverServedUnderAnother(TraceRecorder recorder) {
        SqlAgent agent = agent(recorder).build();
        llm.enqueueFor(REFINER, "SELECT nme FROM employees");
        llm.enqueueFor(REFINER, fix("SELECT e.name FROM employees e JOIN orders o ON o.employee_id = e.id"));
        recorder.track(agent.ask("Employees with orders"));

        GuardPolicy employeesOnly = GuardPolicy.allowingTables("employees");
        llm.enqueueFor(REFINER, "SELECT nme FROM employees");
        llm.enqueueFor(REFINER, fix("SELECT name FROM employees"));
        AgentResult r = recorder.track(agent.ask(Question.of("Employees").withPolicy(employeesOnly)));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(column(r)).hasSize(12);
        assertThat(llm.callCount()).isEqualTo(4);
    }

    // ---- n-best and the policy ----

    @Test
    void anyCandidateBreakingThePolicyRejectsTheQuestion(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM employees", "SELECT COUNT(*) FROM salary_detail");
        SqlAgent agent = agent(recorder).candidates(2).build();
        AgentResult r = recorder.track(agent.ask("How many employees?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.REJECTED);
        AgentResult.Rejected rejected = (AgentResult.Rejected) r;
        assertThat(rejected.candidates()).singleElement().satisfies(c -> assertThat(c.sql()).contains("salary_detail"));
        assertThat(rejected.violations()).extracting(v -> v.type()).containsExactly(ViolationType.TABLE_NOT_ALLOWED);
        assertThat(r.trace().executions()).isEmpty();
        assertThat(agent.metrics().rejected()).isEqualTo(1);
    }

    @Test
    void everyViolatingCandidateIsInTheRejection(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT bonus FROM salary_detail", "SELECT COUNT(*) FROM employees",
                "SELECT base_salary FROM salary_detail");
        AgentResult r = recorder.track(agent(recorder).candidates(3).build().ask("Bonuses?"));

        assertThat(((AgentResult.Rejected) r).candidates()).extracting(c -> c.sql())
                .containsExactly("SELECT bonus FROM salary_detail", "SELECT base_salary FROM salary_detail");
    }

    @Test
    void droppingViolatorsAnswersFromTheOthersButNeverCorrects(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT name, COUNT(*) FROM employees", "SELECT base_salary FROM salary_detail");
        llm.enqueueFor(REFINER, fix("SELECT name FROM employees"));
        SqlAgent agent = agent(recorder).candidates(2).dropViolatingCandidates(true).build();
        AgentResult r = recorder.track(agent.ask("Employee names"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.FAILED);
        assertThat(((AgentResult.Failed) r).kind()).isEqualTo(FailureKind.NOT_CORRECTED);
        assertThat(r.trace().correctionCount()).isZero();
        assertThat(llm.remaining()).isEqualTo(1);

        llm.reset();
        llm.enqueueFor(REFINER, "SELECT name FROM employees", "SELECT base_salary FROM salary_detail");
        AgentResult ok = recorder.track(agent.ask("Employee names"));
        assertThat(ok.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(((AgentResult.Answered) ok).droppedCandidates()).extracting(c -> c.sql())
                .containsExactly("SELECT base_salary FROM salary_detail");
        // both questions dropped a violating candidate: the failed one counts too
        assertThat(agent.metrics().droppedViolations()).isEqualTo(2);
    }

    @Test
    void aForbiddenTableIsAViolationEvenWithAHostSuppliedSchema(TraceRecorder recorder) throws Exception {
        GuardPolicy policy = GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES);
        SchemaCatalog hostSchema = SchemaCatalog.of(SchemaCatalog.introspect(db.analyst(), policy).tables());
        llm.enqueueFor(REFINER, "SELECT base_salary FROM salary_detail");
        llm.enqueueFor(REFINER, fix("SELECT COUNT(*) FROM employees"));
        AgentResult r = recorder.track(agent(recorder).schema(hostSchema).build().ask("Salaries?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.REJECTED);
        assertThat(llm.callCount()).isEqualTo(1);
    }

    // ---- what the model is shown ----

    @Test
    void deniedColumnsAreNeverInAPrompt(TraceRecorder recorder) {
        GuardPolicy policy = GuardPolicy.builder().allowTables(CompanyDatabase.ALLOWED_TABLES)
                .denyColumn("users", "email").build();
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM users");
        AgentResult r = recorder.track(agent(recorder).policy(policy).build().ask("How many users?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        String prompt = llm.requests(REFINER).get(0).text();
        assertThat(prompt).containsIgnoringCase("username").doesNotContainIgnoringCase("email");
    }

    @Test
    void rejectedSqlIsNeverShownToTheRewriter(TraceRecorder recorder) {
        Conversation c = agent(recorder).build().conversation();
        llm.enqueueFor(REFINER, "SELECT base_salary FROM salary_detail");
        recorder.track(c.ask("What are the salaries?"));
        llm.enqueueFor("rewriter", "{\"question\": \"How many employees are there?\"}");
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM employees");
        AgentResult r = recorder.track(c.ask("and how many employees?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(llm.requests("rewriter").get(0).text()).doesNotContain("salary_detail", "base_salary");
    }

    // ---- metric tools ----

    private static MetricTool ordersByStatus() {
        return MetricTool.builder("orders_by_status").description("order ids with a status")
                .sql("SELECT id FROM orders WHERE status = :status ORDER BY id")
                .parameter("status", MetricTool.Type.STRING, "paid, cancelled or refunded").build();
    }

    @Test
    void aMetricRunsUnderTheRequestsRowCap(TraceRecorder recorder) {
        llm.enqueueFor("router", "{\"metric\": \"orders_by_status\", \"arguments\": {\"status\": \"paid\"}}");
        GuardPolicy capped = GuardPolicy.builder().allowTables(CompanyDatabase.ALLOWED_TABLES).maxRows(2).build();
        AgentResult r = recorder.track(agent(recorder).metricTool(ordersByStatus()).build()
                .ask(Question.of("Paid orders?").withPolicy(capped)));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().stages()).containsExactly(Stage.RECEIVED, Stage.METRIC_TOOL, Stage.ANSWERED);
        assertThat(column(r)).hasSize(2);
    }

    @Test
    void aMetricNeverReturnsAnotherTenantsRows(TraceRecorder recorder) {
        llm.enqueueFor("router", "{\"metric\": \"orders_by_status\", \"arguments\": {\"status\": \"paid\"}}");
        GuardPolicy tenant = GuardPolicy.builder().allowTables(CompanyDatabase.ALLOWED_TABLES)
                .rowFilter("orders", "employee_id", 6).build();
        AgentResult r = recorder.track(agent(recorder).metricTool(ordersByStatus()).build()
                .ask(Question.of("Paid orders?").withPolicy(tenant)));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().stages()).contains(Stage.METRIC_TOOL).doesNotContain(Stage.GENERATE);
        // employee 6's paid orders, and nobody else's
        List<Object> expected = ids("SELECT id FROM orders WHERE status = 'paid' AND employee_id = 6 ORDER BY id");
        assertThat(expected).isNotEmpty();
        assertThat(column(r)).isEqualTo(expected);
    }

    @Test
    void aFailedMetricAttemptStaysInTheCaseRecord(TraceRecorder recorder) {
        InMemoryCaseSink sink = new InMemoryCaseSink();
        MetricTool broken = MetricTool.builder("broken").description("d")
                .sql("SELECT id FROM orders WHERE stat = :status")
                .parameter("status", MetricTool.Type.STRING, "a status").build();
        llm.enqueueFor("router", "{\"metric\": \"broken\", \"arguments\": {\"status\": \"paid\"}}");
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM orders WHERE status = 'paid'");
        AgentResult r = recorder.track(agent(recorder).metricTool(broken).caseSink(sink).caseSinkRetries(false)
                .build().ask("Paid orders?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        List<CaseRecord.Attempt> attempts = sink.cases().get(0).attempts();
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(0).sql()).contains("stat =");
        assertThat(attempts.get(0).execResult()).isEqualTo("invented_name");
        assertThat(attempts.get(1).sql()).contains("COUNT(*)");
    }

    private List<Object> ids(String sql) {
        List<Object> out = new ArrayList<>();
        try (java.sql.Connection c = db.admin().getConnection(); java.sql.ResultSet rs = c.createStatement().executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
        return out;
    }

    // ---- conversations ----

    @Test
    void aRewriteWithAPreambleIsReadForTheQuestionOnly(TraceRecorder recorder) {
        Conversation c = agent(recorder).build().conversation();
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM orders WHERE EXTRACT(YEAR FROM order_date) = 2023");
        recorder.track(c.ask("How many orders in 2023?"));
        llm.enqueueFor("rewriter", "Sure! Here is the rewritten question:\n\nHow many orders were there in 2022?");
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM orders WHERE EXTRACT(YEAR FROM order_date) = 2022");
        AgentResult r = recorder.track(c.ask("and in 2022?"));

        assertThat(r.question()).isEqualTo("How many orders were there in 2022?");
    }

    @Test
    void aRewriteThatIsNotAQuestionKeepsTheQuestionAsAsked(TraceRecorder recorder) {
        Conversation c = agent(recorder).build().conversation();
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM orders");
        recorder.track(c.ask("How many orders?"));
        llm.enqueueFor("rewriter", "SELECT COUNT(*) FROM orders WHERE status = 'paid'");
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM orders WHERE status = 'paid'");
        AgentResult r = recorder.track(c.ask("and the paid ones?"));

        assertThat(r.question()).isEqualTo("and the paid ones?");
        assertThat(r.trace().notes()).anySatisfy(n -> assertThat(n.message()).contains("kept as asked"));
    }

    @Test
    void aFollowUpNamingAnotherTableIsSelectedAgain(TraceRecorder recorder) {
        Conversation c = agent(recorder).selector(StageMode.ALWAYS).decomposer(StageMode.NEVER).build().conversation();
        llm.enqueueFor("selector", "{\"related_tables\": [\"employees\"], \"related_columns\": {}}");
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM employees");
        recorder.track(c.ask("How many employees?"));
        llm.enqueueFor("rewriter", "{\"question\": \"How many orders are there?\"}");
        llm.enqueueFor("selector", "{\"related_tables\": [\"orders\"], \"related_columns\": {}}");
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM orders");
        AgentResult r = recorder.track(c.ask("and orders?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(llm.requests("selector")).hasSize(2);
        assertThat(llm.requests(REFINER).get(1).text()).containsIgnoringCase("CREATE TABLE ORDERS");
    }

    @Test
    void aFollowUpWithinTheSelectionReusesIt(TraceRecorder recorder) {
        Conversation c = agent(recorder).selector(StageMode.ALWAYS).decomposer(StageMode.NEVER).build().conversation();
        llm.enqueueFor("selector", "{\"related_tables\": [\"employees\"], \"related_columns\": {}}");
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM employees");
        recorder.track(c.ask("How many employees?"));
        llm.enqueueFor("rewriter", "{\"question\": \"How many employees were hired in 2020?\"}");
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM employees WHERE EXTRACT(YEAR FROM hire_date) = 2020");
        recorder.track(c.ask("hired in 2020?"));

        assertThat(llm.requests("selector")).hasSize(1);
    }

    // ---- corrections and metrics ----

    @Test
    void aProseCorrectionEchoingTheFailedSqlFirstRunsTheFix(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT nme FROM employees");
        llm.enqueueFor(REFINER, "Your query was:\n```sql\nSELECT nme FROM employees\n```\nThe column is called name:\n"
                + "```sql\nSELECT name FROM employees\n```");
        AgentResult r = recorder.track(agent(recorder).build().ask("Employee names"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().correction().orElseThrow().correctedSql()).isEqualTo("SELECT name FROM employees");
        assertThat(r.sql()).contains("SELECT name FROM employees");
    }

    @Test
    void anAnomalyCorrectionReturningTheSameSqlIsNotASuccess(TraceRecorder recorder) {
        SqlAgent.Builder b = agent(recorder);
        b.verifiers(Verifiers.standard());
        SqlAgent agent = b.build();
        assertThat(agent.metrics().correctionSuccessRate()).isNaN();
        llm.enqueueFor(REFINER, "SELECT customer FROM orders WHERE status = 'lost'");
        llm.enqueueFor(REFINER, fix("SELECT customer FROM orders WHERE status = 'lost'"));
        AgentResult r = recorder.track(agent.ask("Which customers have lost orders?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(agent.metrics().corrections()).isEqualTo(1);
        assertThat(agent.metrics().correctionSuccessRate()).isZero();

        llm.enqueueFor(REFINER, "SELECT customer FROM orders WHERE status = 'lost'");
        llm.enqueueFault(REFINER, ScriptedLlm.Fault.TIMEOUT);
        recorder.track(agent.ask("Which customers have lost orders, again?"));
        assertThat(agent.metrics().corrections()).isEqualTo(2);
        assertThat(agent.metrics().correctionSuccessRate()).isZero();
    }

    @Test
    void theTraceSaysVerifiedOnlyWhenSomethingChecked(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM employees");
        AgentResult unchecked = recorder.track(agent(recorder).build().ask("How many employees?"));
        assertThat(lastReason(unchecked)).isNotEqualTo("verified");

        SqlAgent.Builder b = agent(recorder);
        b.verifiers(Verifiers.standard());
        llm.enqueueFor(REFINER, "SELECT COUNT(*) FROM employees");
        AgentResult checked = recorder.track(b.build().ask("How many employees?"));
        assertThat(lastReason(checked)).isEqualTo("verified");
    }

    private static String lastReason(AgentResult r) {
        StageTransition last = null;
        for (TraceEvent e : r.trace().events()) {
            if (e instanceof TraceEvent.StageEntered s) {
                last = s.transition();
            }
        }
        return last.reason();
    }

    @Test
    void aRejectionsCaseErrorReadsAsTheViolationsMessage(TraceRecorder recorder) {
        InMemoryCaseSink sink = new InMemoryCaseSink();
        llm.enqueueFor(REFINER, "SELECT base_salary FROM salary_detail");
        AgentResult r = recorder.track(agent(recorder).caseSink(sink).caseSinkRetries(false).build().ask("Salaries?"));

        String message = ((AgentResult.Rejected) r).violations().get(0).message();
        assertThat(sink.cases().get(0).error()).isEqualTo(message);
        assertThat(Set.of(sink.cases().get(0).attempts().get(0).error())).containsExactly(message);
    }
}
