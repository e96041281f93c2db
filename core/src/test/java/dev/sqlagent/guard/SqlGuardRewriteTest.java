package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.SqlStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The row cap, the row filters and what an accepted verdict carries. */
class SqlGuardRewriteTest {

    private final SqlGuard guard = SqlGuard.create();

    private static GuardPolicy.Builder base() {
        return GuardPolicy.builder().allowTables("orders", "customers").maxRows(100);
    }

    private SqlStatement accepted(String sql, GuardPolicy policy, Dialect dialect) {
        GuardVerdict v = guard.check(sql, policy, dialect);
        assertThat(v).as("%s", v).isInstanceOf(GuardVerdict.Accepted.class);
        return ((GuardVerdict.Accepted) v).statement();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SELECT id FROM orders|SQLITE|SELECT id FROM orders LIMIT 100",
        "SELECT id FROM orders LIMIT 5|SQLITE|SELECT id FROM orders LIMIT 5",
        "SELECT id FROM orders LIMIT 5000|POSTGRESQL|SELECT id FROM orders LIMIT 100",
        "SELECT id FROM orders LIMIT -1|SQLITE|SELECT id FROM orders LIMIT 100",
        "SELECT id FROM orders LIMIT ALL|POSTGRESQL|SELECT id FROM orders LIMIT 100",
        "SELECT id FROM orders LIMIT 10 OFFSET 20|H2|SELECT id FROM orders LIMIT 10 OFFSET 20",
        "SELECT id FROM orders LIMIT 20, 5000|MYSQL|SELECT id FROM orders LIMIT 20, 100",
        "SELECT id FROM orders LIMIT (SELECT count(*) FROM customers)|POSTGRESQL|SELECT id FROM orders LIMIT 100",
        "SELECT id FROM orders UNION SELECT id FROM customers|SQLITE|SELECT id FROM orders UNION SELECT id FROM customers LIMIT 100",
        "SELECT id FROM orders|ORACLE|SELECT id FROM orders FETCH FIRST 100 ROWS ONLY",
        "SELECT id FROM orders FETCH FIRST 500 ROWS ONLY|ORACLE|SELECT id FROM orders FETCH FIRST 100 ROWS ONLY",
        "SELECT id FROM orders FETCH FIRST 5 ROWS WITH TIES|POSTGRESQL|SELECT id FROM orders FETCH FIRST 5 ROWS ONLY",
        "SELECT id FROM orders|SQLSERVER|SELECT TOP 100 id FROM orders",
        "SELECT TOP 5000 id FROM orders|SQLSERVER|SELECT TOP 100 id FROM orders",
        "SELECT TOP 50 PERCENT id FROM orders|SQLSERVER|SELECT TOP 100 id FROM orders",
        "SELECT TOP 5 WITH TIES id FROM orders ORDER BY id|SQLSERVER|SELECT TOP 5 id FROM orders ORDER BY id",
        "SELECT id FROM orders UNION SELECT id FROM customers|SQLSERVER|SELECT TOP 100 * FROM (SELECT id FROM orders UNION SELECT id FROM customers) AS sqlagent_rows",
        "SELECT id FROM orders UNION SELECT id FROM customers ORDER BY id|SQLSERVER|SELECT id FROM orders UNION SELECT id FROM customers ORDER BY id OFFSET 0 ROWS FETCH NEXT 100 ROWS ONLY"})
    void theRowCapIsAddedOrLoweredInTheDialectsOwnForm(String sql, Dialect dialect, String expected) {
        assertThat(accepted(sql, base().build(), dialect).sql()).isEqualTo(expected);
    }

    @Test
    void rowFiltersAreAppliedAtEveryReferenceWithBoundParameters() {
        GuardPolicy policy = base().rowFilter("orders", "tenant_id", 42).rowFilter("customers", "tenant_id", "t-7").build();
        SqlStatement s = accepted("WITH recent AS (SELECT o.id, o.customer_id FROM orders o WHERE o.id > 10) "
                + "SELECT c.name, r.id FROM customers c JOIN recent r ON r.customer_id = c.id "
                + "WHERE c.id IN (SELECT customer_id FROM orders) UNION SELECT name, id FROM customers",
                policy, Dialect.SQLITE);
        assertThat(s.sql()).isEqualTo("WITH recent AS (SELECT o.id, o.customer_id FROM "
                + "(SELECT * FROM orders WHERE orders.tenant_id = ?) AS o WHERE o.id > 10) "
                + "SELECT c.name, r.id FROM (SELECT * FROM customers WHERE customers.tenant_id = ?) AS c "
                + "JOIN recent r ON r.customer_id = c.id WHERE c.id IN (SELECT customer_id FROM "
                + "(SELECT * FROM orders WHERE orders.tenant_id = ?) AS orders) UNION SELECT name, id FROM "
                + "(SELECT * FROM customers WHERE customers.tenant_id = ?) AS customers LIMIT 100");
        assertThat(s.parameters()).containsExactly(42, "t-7", 42, "t-7");
    }

    @Test
    void rowFiltersHideOtherTenantsRowsOnARealDatabase() throws Exception {
        GuardPolicy policy = base().rowFilter("orders", "tenant_id", 1).build();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE orders (id INTEGER, tenant_id INTEGER, amount INTEGER)");
                st.execute("CREATE TABLE customers (id INTEGER, name TEXT)");
                st.execute("INSERT INTO orders VALUES (1, 1, 10), (2, 2, 20), (3, 1, 30), (4, 2, 40)");
            }
            SqlStatement s = accepted("SELECT sum(o.amount) FROM orders o LEFT JOIN orders p ON p.id = o.id + 1",
                    policy, Dialect.SQLITE);
            assertThat(SpiderGoldTest.run(c, s.sql(), s.parameters())).containsExactly(List.of(40));
            SqlStatement t = accepted("SELECT count(*) FROM orders WHERE id IN (SELECT id FROM orders)",
                    policy, Dialect.SQLITE);
            assertThat(SpiderGoldTest.run(c, t.sql(), t.parameters())).containsExactly(List.of(2));
        }
    }

    @Test
    void anAcceptedVerdictListsTheTablesAndColumnsRead() {
        GuardVerdict v = guard.check("SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.customer_id",
                base().build(), Dialect.POSTGRESQL);
        GuardVerdict.Accepted a = (GuardVerdict.Accepted) v;
        assertThat(a.tables()).containsExactlyInAnyOrder("orders", "customers");
        assertThat(a.columns()).containsExactlyInAnyOrder("orders.id", "customers.name", "customers.id",
                "orders.customer_id");
        assertThat(a.sql()).isEqualTo("SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.customer_id");
    }

    @Test
    void aSyntaxErrorIsUnparseableNotRejected() {
        GuardVerdict v = guard.check("SELECT id FROM orders WHERE", base().build(), Dialect.POSTGRESQL);
        assertThat(v).isInstanceOf(GuardVerdict.Unparseable.class);
        assertThat(((GuardVerdict.Unparseable) v).message()).isNotBlank();
    }

    @Test
    void aTrailingSemicolonIsOneStatement() {
        assertThat(guard.check("SELECT id FROM orders;", base().build(), Dialect.SQLITE))
                .isInstanceOf(GuardVerdict.Accepted.class);
    }
}
