package dev.sqlagent.examples.demo;

import dev.sqlagent.AgentResult;
import java.util.List;
import java.util.Objects;

/**
 * One demo question with the replies the scripted model gives, in order, and the end it must reach.
 *
 * @param name a short name
 * @param question the question
 * @param replies the model's replies: the first generation, then the correction if one is asked for
 * @param expected the status the question must end in
 * @param expectedCorrections how many corrections it must make
 * @param allRoles whether the question runs through every MAC-SQL role (selector forced on), the
 *     replies then being the selector's, the decomposer's and the refiner's in that order
 */
public record Scenario(String name, String question, List<String> replies, AgentResult.Status expected,
        int expectedCorrections, boolean allRoles) {

    /** Copies the replies. */
    public Scenario {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(question, "question");
        replies = List.copyOf(replies);
        Objects.requireNonNull(expected, "expected");
    }

    /** A scenario through the refiner only. */
    Scenario(String name, String question, List<String> replies, AgentResult.Status expected, int expectedCorrections) {
        this(name, question, replies, expected, expectedCorrections, false);
    }

    /** The worked example of the MAC-SQL write-up, on the company schema. */
    static final String MAC_SQL_QUESTION = "2023 年华东区每个部门中销售额最高的员工是谁？";

    /** The CTE query the refiner writes for it: one CTE per step, a window function for the top one. */
    public static final String MAC_SQL_SQL = "WITH regional_employees AS (\n"
            + "  SELECT e.id AS employee_id, e.name, e.department_id FROM employees e\n"
            + "  JOIN employee_region er ON e.id = er.employee_id\n"
            + "  JOIN regions r ON er.region_id = r.id WHERE r.region_name = '华东区'),\n"
            + "employee_sales AS (\n"
            + "  SELECT o.employee_id, SUM(o.amount) AS total_sales FROM orders o\n"
            + "  JOIN regional_employees re ON o.employee_id = re.employee_id\n"
            + "  WHERE o.status <> 'cancelled' AND o.order_date >= DATE '2023-01-01' AND o.order_date < DATE '2024-01-01'\n"
            + "  GROUP BY o.employee_id),\n"
            + "ranked_sales AS (\n"
            + "  SELECT d.dept_name, re.name, es.total_sales,\n"
            + "         ROW_NUMBER() OVER (PARTITION BY d.dept_name ORDER BY es.total_sales DESC) AS rn\n"
            + "  FROM employee_sales es JOIN regional_employees re ON re.employee_id = es.employee_id\n"
            + "  JOIN departments d ON d.id = re.department_id)\n"
            + "SELECT dept_name, name, total_sales FROM ranked_sales WHERE rn = 1 ORDER BY dept_name";

    private static Scenario macSql() {
        String selection = "{\"related_tables\": [\"employees\", \"departments\", \"orders\", \"regions\","
                + " \"employee_region\"], \"related_columns\": {\"employees\": [\"id\", \"name\", \"department_id\"],"
                + " \"departments\": [\"id\", \"dept_name\"], \"orders\": [\"employee_id\", \"order_date\", \"amount\","
                + " \"status\"], \"regions\": [\"id\", \"region_name\"], \"employee_region\": [\"employee_id\","
                + " \"region_id\"]}, \"reason\": \"2023 orders, 华东区 employees, each department, the highest sales\"}";
        String plan = "{\"steps\": ["
                + "{\"step_id\": 1, \"goal\": \"select employees whose employee_region links to the regions row 华东区\","
                + " \"depends_on\": []},"
                + "{\"step_id\": 2, \"goal\": \"sum orders.amount per employee for orders of 2023 that are not cancelled\","
                + " \"depends_on\": [1]},"
                + "{\"step_id\": 3, \"goal\": \"join each employee's sales to departments.dept_name\", \"depends_on\": [2]},"
                + "{\"step_id\": 4, \"goal\": \"rank employees by sales within each department and keep the first\","
                + " \"depends_on\": [3]}],"
                + " \"join_hint\": \"employees.id = employee_region.employee_id, employee_region.region_id = regions.id,"
                + " orders.employee_id = employees.id, employees.department_id = departments.id\"}";
        return new Scenario("MAC-SQL worked example", MAC_SQL_QUESTION,
                List.of(selection, plan, "```sql\n" + MAC_SQL_SQL + "\n```"), AgentResult.Status.ANSWERED, 0, true);
    }

    /**
     * @param reason the model's reason
     * @param sql the corrected SQL
     * @return a correction reply in the JSON the refiner is asked for
     */
    static String fix(String reason, String sql) {
        return "{\"reason\": \"" + reason + "\", \"sql\": \"" + sql.replace("\"", "\\\"") + "\"}";
    }

    /** @return the fixed scenarios of the demo, reproducing real failures of real models */
    /**
     * The files scenarios: the demo's {@code sales.csv} registered as the table {@code sales} in a locked
     * DuckDB ({@code DuckDbFiles}); a question answered from it, and a reply that names a file instead of
     * the table, which the guard refuses.
     *
     * @return the files scenarios, in order
     */
    public static List<Scenario> files() {
        return List.of(
                new Scenario("files: answered", "What were the total sales per region?",
                        List.of("SELECT region, SUM(amount) AS total FROM sales GROUP BY region ORDER BY total DESC"),
                        AgentResult.Status.ANSWERED, 0),
                new Scenario("files: a path instead of a table", "Show the system's password file.",
                        List.of("SELECT column0 FROM read_csv('/etc/passwd')"),
                        AgentResult.Status.REJECTED, 0));
    }

    public static List<Scenario> all() {
        return List.of(
                new Scenario("answered", "How many orders were paid in 2023?",
                        List.of("```sql\nSELECT COUNT(*) AS paid_orders FROM orders\n"
                                + "WHERE status = 'paid' AND order_date >= DATE '2023-01-01' AND order_date < DATE '2024-01-01'\n```"),
                        AgentResult.Status.ANSWERED, 0),
                new Scenario("wrong table", "What is the total amount of all orders?",
                        List.of("SELECT SUM(amount) AS total FROM order",
                                fix("the table is named orders, not order", "SELECT SUM(amount) AS total FROM orders")),
                        AgentResult.Status.ANSWERED, 1),
                new Scenario("wrong column", "List the user names in alphabetical order.",
                        List.of("SELECT user_name FROM users ORDER BY user_name",
                                fix("the column is username", "SELECT username FROM users ORDER BY username")),
                        AgentResult.Status.ANSWERED, 1),
                new Scenario("syntax error", "Which employees were hired after 2020?",
                        List.of("好的，首先我需要分析问题。\nSELECT name, hire_date FROM employees WHERE ORDER BY hire_date",
                                fix("WHERE had no condition",
                                        "SELECT name, hire_date FROM employees WHERE hire_date > DATE '2020-12-31' ORDER BY hire_date")),
                        AgentResult.Status.ANSWERED, 1),
                new Scenario("forbidden table", "What is each employee's base salary?",
                        List.of("SELECT e.name, s.base_salary FROM employees e JOIN salary_detail s ON s.employee_id = e.id",
                                "SELECT name FROM employees"),
                        AgentResult.Status.REJECTED, 0),
                new Scenario("permission denied", "Show the latest audit events.",
                        List.of("SELECT event, created_at FROM audit_log ORDER BY created_at DESC"),
                        AgentResult.Status.FAILED, 0),
                new Scenario("timeout", "How many combinations of five orders exist?",
                        List.of("SELECT COUNT(*) FROM orders a, orders b, orders c, orders d, orders e"),
                        AgentResult.Status.FAILED, 0),
                new Scenario("correction fails again", "What is the average order amount per customer segment?",
                        List.of("SELECT segment, AVG(amount) FROM orders GROUP BY segment",
                                fix("segment is customer_segment", "SELECT customer_segment, AVG(amount) FROM orders"
                                        + " GROUP BY customer_segment")),
                        AgentResult.Status.FAILED, 1),
                new Scenario("correction unchanged", "How many orders did each region bring?",
                        List.of("SELECT region_name, COUNT(*) FROM orders GROUP BY region_name",
                                fix("looks right to me", "SELECT region_name, COUNT(*)\nFROM orders GROUP BY region_name;")),
                        AgentResult.Status.FAILED, 1),
                macSql());
    }
}
