package dev.sqlagent.guard.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.testkit.CompanyDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * H2 prints a FROM inside EXTRACT/SUBSTRING/TRIM and a CTE's column list in its plan; neither is a table or
 * a function call. Both were read as such, so every H2 question using them was rejected.
 */
class H2PlanReadingTest {

    private static final GuardPolicy POLICY = GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES);

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT COUNT(*) FROM orders o WHERE EXTRACT(YEAR FROM o.order_date) = 2023",
        "SELECT SUBSTRING(customer FROM 1 FOR 3) FROM orders",
        "SELECT TRIM(BOTH ' ' FROM customer) FROM orders",
        "WITH big AS (SELECT employee_id, SUM(amount) AS total FROM orders GROUP BY employee_id)"
                + " SELECT e.name, b.total FROM big b JOIN employees e ON e.id = b.employee_id",
        "WITH a AS (SELECT id FROM employees), b AS (SELECT id FROM a) SELECT COUNT(*) FROM b"})
    void readsAsTheGuardDoes(String sql) {
        CompanyDatabase db = CompanyDatabase.create();
        GuardVerdict v = SqlGuard.create().check(sql, POLICY, Dialect.H2);
        assertThat(v).isInstanceOf(GuardVerdict.Accepted.class);
        EngineVerdict e = EngineCheck.create(db.analyst(), Dialect.H2).check((GuardVerdict.Accepted) v, POLICY);
        assertThat(e).as(e.toString()).isInstanceOf(EngineVerdict.Confirmed.class);
    }
}
