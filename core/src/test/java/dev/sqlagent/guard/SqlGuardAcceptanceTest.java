package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Ordinary analytic SQL that the guard must not refuse. */
class SqlGuardAcceptanceTest {

    private final SqlGuard guard = SqlGuard.create();
    private final GuardPolicy policy = GuardPolicy.allowingTables("orders", "customers");

    @ParameterizedTest
    @CsvSource(delimiterString = " ~ ", value = {
        "SELECT CAST(amount AS INTEGER) FROM orders ~ POSTGRESQL",
        "SELECT amount::numeric FROM orders ~ POSTGRESQL",
        "SELECT EXTRACT(YEAR FROM ordered_at) FROM orders ~ POSTGRESQL",
        "SELECT ordered_at + INTERVAL '1 day' FROM orders ~ POSTGRESQL",
        "SELECT id FROM orders WHERE ordered_at > DATE '2024-01-01' ~ POSTGRESQL",
        "SELECT CASE WHEN amount > 10 THEN 'big' ELSE 'small' END FROM orders ~ POSTGRESQL",
        "SELECT coalesce(note, '') || ' ' || upper(status) FROM orders ~ POSTGRESQL",
        "SELECT id FROM orders WHERE amount BETWEEN 1 AND 5 AND note IS NOT NULL AND status NOT IN ('a', 'b') ~ POSTGRESQL",
        "SELECT DISTINCT status FROM orders ORDER BY status DESC NULLS LAST ~ POSTGRESQL",
        "SELECT customer_id, sum(amount) OVER (PARTITION BY customer_id ORDER BY ordered_at ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM orders ~ POSTGRESQL",
        "SELECT count(DISTINCT customer_id) FILTER (WHERE amount > 5) FROM orders ~ POSTGRESQL",
        "SELECT status, count(*) FROM orders GROUP BY ROLLUP (status) ~ POSTGRESQL",
        "SELECT id FROM orders WHERE amount > ALL (SELECT amount FROM orders WHERE status = 'x') ~ POSTGRESQL",
        "SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.id IS NULL ~ POSTGRESQL",
        "SELECT c.name FROM customers c FULL OUTER JOIN orders o USING (id) ~ POSTGRESQL",
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 5) SELECT x FROM n ~ POSTGRESQL",
        "SELECT name FROM customers WHERE name LIKE 'A%' ESCAPE '!' ~ POSTGRESQL",
        "SELECT round(avg(amount), 2), min(amount), max(amount) FROM orders ~ POSTGRESQL",
        "SELECT strftime('%Y', ordered_at), ifnull(note, 'x'), group_concat(status) FROM orders GROUP BY 1 ~ SQLITE",
        "SELECT date_format(ordered_at, '%Y'), if(amount > 1, 1, 0) FROM orders ~ MYSQL",
        "SELECT `status` FROM `orders` ~ MYSQL",
        "SELECT TOP 10 [status] FROM [orders] ORDER BY isnull(amount, 0) ~ SQLSERVER",
        "SELECT nvl(note, 'x') FROM orders FETCH FIRST 5 ROWS ONLY ~ ORACLE",
        "SELECT status FROM ORDERS ~ H2"})
    void ordinaryAnalyticSqlIsAccepted(String sql, Dialect dialect) {
        assertThat(guard.check(sql, policy, dialect)).isInstanceOf(GuardVerdict.Accepted.class);
    }
}
