package dev.sqlagent.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.StageMode;
import dev.sqlagent.examples.demo.Scenario;
import dev.sqlagent.examples.demo.ScenarioModel;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.trace.Stage;
import org.junit.jupiter.api.Test;

class DemoCommandTest {

    private static String run(String... args) {
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            assertThat(SqlAgentCli.run(args)).as("exit code").isZero();
        } finally {
            System.setOut(saved);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void everyScenarioEndsAsExpectedAndPrintsTheContractFields() {
        List<String> lines = Arrays.stream(run("demo", "--json").split("\n")).filter(l -> !l.isBlank())
                .collect(Collectors.toList());

        assertThat(lines).hasSize(12);
        assertThat(lines).allSatisfy(l -> assertThat(l)
                .contains("\"question\":", "\"status\":", "\"corrections\":", "\"llm_calls\":", "\"sql\":",
                        "\"error_category\":", "\"as_expected\":true"));
        assertThat(lines.get(1)).contains("\"status\":\"ANSWERED\"", "\"corrections\":1", "TABLE_NOT_FOUND");
        assertThat(lines.get(4)).contains("\"status\":\"REJECTED\"", "\"llm_calls\":1");
        assertThat(lines.get(5)).contains("PERMISSION_DENIED", "\"corrections\":0");
        assertThat(lines.get(6)).contains("TIMEOUT", "\"corrections\":0");
        assertThat(lines.get(8)).contains("CORRECTION_UNCHANGED");
        assertThat(lines.get(9)).contains("\"status\":\"ANSWERED\"", "\"llm_calls\":3", "ROW_NUMBER() OVER");
        // the files scenarios: the shipped sales.csv as a table of a locked DuckDB
        assertThat(lines.get(10)).contains("\"scenario\":\"files: answered\"", "\"status\":\"ANSWERED\"", "FROM sales");
        assertThat(lines.get(11)).contains("\"status\":\"REJECTED\"", "read_csv");
    }

    @Test
    void macSqlWorkedExampleGivesTheRightAnswerOnH2() throws Exception {
        CompanyDatabase db = CompanyDatabase.create();
        List<List<Object>> expected = new java.util.ArrayList<>();
        // the same question answered without window functions: per department, the 华东区 employee whose
        // 2023 non-cancelled sales equal the department's maximum
        String totals = "(SELECT o.employee_id, SUM(o.amount) total FROM orders o WHERE o.status <> 'cancelled'"
                + " AND YEAR(o.order_date) = 2023 AND o.employee_id IN (SELECT er.employee_id FROM employee_region er"
                + " JOIN regions r ON r.id = er.region_id WHERE r.region_name = '华东区') GROUP BY o.employee_id)";
        String independent = "SELECT d.dept_name, e.name, s.total FROM " + totals + " s JOIN employees e ON e.id ="
                + " s.employee_id JOIN departments d ON d.id = e.department_id WHERE s.total = (SELECT MAX(s2.total)"
                + " FROM " + totals + " s2 JOIN employees e2 ON e2.id = s2.employee_id WHERE e2.department_id ="
                + " e.department_id) ORDER BY d.dept_name";
        try (java.sql.Connection c = db.analyst().getConnection(); java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery(independent)) {
            while (rs.next()) {
                expected.add(List.of(rs.getString(1), rs.getString(2), rs.getBigDecimal(3)));
            }
        }
        ScriptedLlm llm = ScenarioModel.of(List.of(Scenario.all().get(9)));
        SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db.analyst()).selector(StageMode.ALWAYS)
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).build();

        AgentResult r = agent.ask(Scenario.all().get(9).question());

        assertThat(r.trace().stages()).containsExactly(Stage.RECEIVED, Stage.SELECT_SCHEMA, Stage.DECOMPOSE,
                Stage.GENERATE, Stage.GUARD, Stage.EXECUTE, Stage.CHOOSE, Stage.VERIFY, Stage.ANSWERED);
        assertThat(expected).hasSize(4);
        assertThat(((AgentResult.Answered) r).table().rows()).containsExactlyElementsOf(expected);
    }

    @Test
    void readableTraceShowsTheCorrectionRecord() {
        String out = run("demo");

        assertThat(out).contains("original sql:", "original error:", "reason:", "corrected sql:")
                .contains("Every scenario ended as expected.");
    }
}
