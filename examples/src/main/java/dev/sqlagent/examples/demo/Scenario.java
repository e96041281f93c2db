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
 */
public record Scenario(String name, String question, List<String> replies, AgentResult.Status expected,
        int expectedCorrections) {

    /** Copies the replies. */
    public Scenario {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(question, "question");
        replies = List.copyOf(replies);
        Objects.requireNonNull(expected, "expected");
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
                        AgentResult.Status.FAILED, 1));
    }
}
