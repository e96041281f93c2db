package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.metrics.MetricTool;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.support.TraceRecorder;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.TraceEvent;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The MAC-SQL roles, the rewriter and metric tools as stages, on the company database. */
@ExtendWith(LegalTraceExtension.class)
class RolesTest {

    private final CompanyDatabase db = CompanyDatabase.create();
    private final ScriptedLlm llm = ScriptedLlm.create();

    private SqlAgent.Builder agent(TraceRecorder recorder) {
        return SqlAgent.builder().llm(llm).dataSource(db.analyst()).listener(recorder)
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES));
    }

    private static final String SELECTION = "{\"related_tables\": [\"orders\", \"employees\", \"nonsense\"],"
            + " \"related_columns\": {\"orders\": [\"amount\", \"employee_id\", \"bogus\"], \"employees\": [\"name\"]},"
            + " \"reason\": \"sales per employee\"}";

    @Test
    void hostEnrichmentReachesTheRefinersSchema(TraceRecorder recorder) {
        llm.enqueueFor("refiner", "SELECT COUNT(*) FROM orders WHERE status = 'paid'");
        AgentResult r = recorder.track(agent(recorder).schemaEnrichment(dev.sqlagent.schema.SchemaEnrichment.builder()
                .describeColumn("orders", "amount", "order value in CNY")
                .codedValues("orders", "status", java.util.Map.of("paid", "paid", "cancelled", "cancelled by the customer"))
                .synonym("销售额", "orders.amount").build()).build().ask("How many orders were paid?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(llm.requests("refiner").get(0).messages().get(0).content())
                .contains("order value in CNY", "cancelled by the customer");
    }

    @Test
    void smallSchemaSkipsTheSelector(TraceRecorder recorder) {
        llm.enqueueFor("refiner", "SELECT COUNT(*) FROM orders");
        AgentResult r = recorder.track(agent(recorder).build().ask("How many orders?"));

        assertThat(r.trace().stages()).doesNotContain(Stage.SELECT_SCHEMA);
        assertThat(llm.requests("selector")).isEmpty();
    }

    @Test
    void schemaOverTheRefinerBudgetIsPrunedAndUnknownNamesDropped(TraceRecorder recorder) {
        llm.enqueueFor("selector", SELECTION);
        llm.enqueueFor("refiner", "SELECT e.name, SUM(o.amount) FROM orders o JOIN employees e ON e.id = o.employee_id"
                + " GROUP BY e.name");
        AgentResult r = recorder.track(agent(recorder).tokenBudgets(new TokenBudgets(3000, 1000, 150))
                .decomposer(StageMode.NEVER).build().ask("Total sales per employee"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().stages()).containsSubsequence(Stage.SELECT_SCHEMA, Stage.GENERATE);
        String refinerPrompt = llm.requests("refiner").get(0).messages().get(0).content();
        assertThat(refinerPrompt).contains("CREATE TABLE ORDERS", "CREATE TABLE EMPLOYEES")
                .doesNotContain("CREATE TABLE REGIONS", "CREATE TABLE USERS");
        assertThat(r.trace().notes()).anySatisfy(n -> assertThat(n.message()).contains("nonsense").containsIgnoringCase("orders.bogus"));
    }

    @Test
    void unreadableSelectionKeepsTheWholeSchema(TraceRecorder recorder) {
        llm.enqueueFor("selector", "I think you need the orders table.");
        llm.enqueueFor("refiner", "SELECT COUNT(*) FROM orders");
        AgentResult r = recorder.track(agent(recorder).selector(StageMode.ALWAYS).build().ask("How many orders?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(llm.requests("refiner").get(0).messages().get(0).content()).contains("CREATE TABLE REGIONS");
    }

    @Test
    void conversationReusesItsSelectionAndRewritesTheFollowUp(TraceRecorder recorder) {
        SqlAgent agent = agent(recorder).selector(StageMode.ALWAYS).decomposer(StageMode.NEVER).build();
        Conversation c = agent.conversation();
        llm.enqueueFor("selector", SELECTION);
        llm.enqueueFor("refiner", "SELECT SUM(amount) FROM orders WHERE EXTRACT(YEAR FROM order_date) = 2023");
        llm.enqueueFor("rewriter", "What was the total order amount in 2022?");
        llm.enqueueFor("refiner", "SELECT SUM(amount) FROM orders WHERE EXTRACT(YEAR FROM order_date) = 2022");

        recorder.track(c.ask("What was the total order amount in 2023?"));
        AgentResult second = recorder.track(c.ask("and in 2022?"));

        assertThat(second.question()).isEqualTo("What was the total order amount in 2022?");
        assertThat(second.trace().stages()).startsWith(Stage.RECEIVED, Stage.REWRITE, Stage.SELECT_SCHEMA);
        assertThat(llm.requests("selector")).hasSize(1);
        assertThat(llm.requests("rewriter").get(0).text()).contains("2023", "and in 2022?");
        assertThat(c.history()).hasSize(2);
    }

    @Test
    void failingRewriteKeepsTheQuestionAsAsked(TraceRecorder recorder) {
        Conversation c = agent(recorder).build().conversation();
        llm.enqueueFor("refiner", "SELECT COUNT(*) FROM orders", "SELECT COUNT(*) FROM employees");
        llm.enqueueFor("refiner", "SELECT COUNT(*) FROM employees");
        llm.enqueueFault("rewriter", ScriptedLlm.Fault.TIMEOUT);
        recorder.track(c.ask("How many orders?"));
        AgentResult r = recorder.track(c.ask("How many employees?"));

        assertThat(r.question()).isEqualTo("How many employees?");
        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
    }

    @Test
    void complexQuestionIsDecomposedAndThePlanReachesTheRefiner(TraceRecorder recorder) {
        llm.enqueueFor("decomposer", "{\"steps\": [{\"step_id\": 1, \"goal\": \"sum orders.amount per employee_id\","
                + " \"depends_on\": []}, {\"step_id\": 2, \"goal\": \"rank employees by the sum within each department_id\","
                + " \"depends_on\": [1]}], \"join_hint\": \"orders.employee_id = employees.id\"}");
        llm.enqueueFor("refiner", "WITH step1 AS (SELECT employee_id, SUM(amount) s FROM orders GROUP BY employee_id)"
                + " SELECT e.name FROM step1 JOIN employees e ON e.id = step1.employee_id ORDER BY s DESC LIMIT 1");
        AgentResult r = recorder.track(agent(recorder).decomposer(StageMode.ALWAYS).build()
                .ask("Who sold the most?"));

        assertThat(r.trace().stages()).containsSubsequence(Stage.DECOMPOSE, Stage.GENERATE);
        assertThat(llm.requests("refiner").get(0).text()).contains("Plan (write one CTE per step",
                "1. sum orders.amount per employee_id", "(uses step 1)");
    }

    @Test
    void vaguePlanIsDroppedAndGenerationGoesOn(TraceRecorder recorder) {
        llm.enqueueFor("decomposer", "{\"steps\": [{\"step_id\": 1, \"goal\": \"analyse sales\", \"depends_on\": []}]}");
        llm.enqueueFor("refiner", "SELECT COUNT(*) FROM orders");
        AgentResult r = recorder.track(agent(recorder).decomposer(StageMode.ALWAYS).build().ask("How many orders?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().notes()).anySatisfy(n -> assertThat(n.message()).contains("plan dropped", "vague"));
        assertThat(llm.requests("refiner").get(0).text()).doesNotContain("Plan (");
        assertThat(llm.requests("decomposer")).hasSize(1);
    }

    private static MetricTool revenue() {
        return MetricTool.builder("revenue_by_region_and_year")
                .description("total paid order amount for one region and year")
                .sql("SELECT SUM(o.amount) AS revenue FROM orders o JOIN employee_region er ON er.employee_id ="
                        + " o.employee_id JOIN regions r ON r.id = er.region_id WHERE r.region_name = :region AND"
                        + " EXTRACT(YEAR FROM o.order_date) = :year AND o.status = 'paid'")
                .parameter("region", MetricTool.Type.STRING, "region name such as 华东区")
                .parameter("year", MetricTool.Type.INTEGER, "four-digit year")
                .build();
    }

    @Test
    void matchingMetricAnswersWithBoundParametersAndNoGeneratedSql(TraceRecorder recorder) {
        llm.enqueueFor("router", "{\"metric\": \"revenue_by_region_and_year\", \"arguments\": {\"region\": \"华东区\","
                + " \"year\": \"2023\"}}");
        AgentResult r = recorder.track(agent(recorder).metricTool(revenue()).build().ask("2023 年华东区的销售额是多少？"));

        assertThat(r.status()).as(r.trace().notes().toString() + r.trace().guardChecks()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().stages()).containsExactly(Stage.RECEIVED, Stage.METRIC_TOOL, Stage.ANSWERED);
        assertThat(llm.requests("refiner")).isEmpty();
        assertThat(r.trace().executions().get(0).sql()).contains("r.region_name = ?").doesNotContain("华东区");
        assertThat(r.trace().notes()).anySatisfy(n -> assertThat(n.message()).startsWith("answered by metric"));
    }

    @Test
    void metricWithBadArgumentsFallsBackToTextToSqlOnce(TraceRecorder recorder) {
        llm.enqueueFor("router", "{\"metric\": \"revenue_by_region_and_year\", \"arguments\": {\"region\": \"华东区\","
                + " \"year\": \"last year\"}}");
        llm.enqueueFor("refiner", "SELECT SUM(amount) FROM orders");
        AgentResult r = recorder.track(agent(recorder).metricTool(revenue()).build().ask("Revenue last year?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().stages()).containsSubsequence(Stage.METRIC_TOOL, Stage.GENERATE);
        assertThat(r.trace().notes()).anySatisfy(n -> assertThat(n.message()).startsWith("text-to-SQL (")
                .contains("wrong type"));
    }

    @Test
    void noFittingMetricGoesStraightToGeneration(TraceRecorder recorder) {
        llm.enqueueFor("router", "{\"metric\": null}");
        llm.enqueueFor("refiner", "SELECT COUNT(*) FROM employees");
        AgentResult r = recorder.track(agent(recorder).metricTool(revenue()).build().ask("How many employees?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(r.trace().events()).filteredOn(e -> e instanceof TraceEvent.Executed).hasSize(1);
        assertThat(List.of(r.trace().notes().get(0).message())).allSatisfy(m -> assertThat(m).contains("no metric fits"));
    }

    @Test
    void metricToolCheckedAtBuild() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> MetricTool.builder("m").sql("SELECT :x").build())
                .hasMessageContaining(":x");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> MetricTool.builder("m").sql("SELECT 1")
                .parameter("x", MetricTool.Type.STRING, "").build()).hasMessageContaining("unused");
        assertThat(MetricTool.builder("m").sql("SELECT ':not_a_param', x::text FROM t WHERE a = :a")
                .parameter("a", MetricTool.Type.INTEGER, "").build().jdbcSql())
                .isEqualTo("SELECT ':not_a_param', x::text FROM t WHERE a = ?");
    }
}
