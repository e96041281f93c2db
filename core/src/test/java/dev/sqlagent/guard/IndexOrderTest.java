package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.engine.EngineCheck;
import dev.sqlagent.guard.engine.EngineVerdict;
import dev.sqlagent.schema.SchemaCatalog;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Row order from an index on a denied column (issue 29), each layer alone: the catalog's indexes in the
 * policy, the guard's refusal of hints and its rewrite (no database), and PostgreSQL's engine check with the
 * guard bypassed. The full path is judged by the twins in {@code hostile-heldout/access-paths/}
 * ({@link HostileHeldOutTest}).
 */
class IndexOrderTest {

    private static final GuardPolicy POLICY = GuardPolicy.builder().allowTables("people", "orders")
            .denyColumn("people", "ssn").denyColumn("people", "salary").denyColumn("orders", "card")
            .rowFilter("orders", "tenant", "t1")
            .tableColumns("people", List.of("id", "name", "dept", "ssn", "salary"))
            .tableColumns("orders", List.of("id", "tenant", "card", "amount"))
            .tableIndex("people", "PRIMARY", List.of("id")).tableIndex("people", "idx_people_ssn", List.of("ssn"))
            .tableIndex("people", "idx_people_dept", List.of("dept"))
            .tableIndex("people", "idx_people_dept_salary", List.of("dept", "salary"))
            .tableIndex("people", "idx_people_lower", List.of(""))
            .tableIndex("orders", "PRIMARY", List.of("id")).tableIndex("orders", "idx_orders_tenant_card",
                    List.of("tenant", "card"))
            .build();

    private static String run(String sql, Dialect d) {
        GuardVerdict v = SqlGuard.create().check(sql, POLICY, d);
        assertThat(v).as("%s on %s", sql, d).isInstanceOf(GuardVerdict.Accepted.class);
        return ((GuardVerdict.Accepted) v).statement().sql();
    }

    private static void refused(String sql, Dialect d) {
        GuardVerdict v = SqlGuard.create().check(sql, POLICY, d);
        assertThat(v).as("%s on %s", sql, d).isInstanceOf(GuardVerdict.Rejected.class);
    }

    @Test
    void anIndexWhoseKeyHoldsADeniedColumnOrAnExpressionIsOrdering() {
        assertThat(POLICY.orderingIndexes("people")).containsExactlyInAnyOrder("idx_people_ssn",
                "idx_people_dept_salary", "idx_people_lower");
        assertThat(POLICY.orderingIndexes("orders")).containsExactly("idx_orders_tenant_card");
        assertThat(GuardPolicy.builder().allowTables("people").denyColumn("people", "ssn").build()
                .orderingIndexes("people")).isEmpty();
    }

    @Test
    void everyReferenceIsKeptOffTheOrderingIndexes() {
        String sql = "SELECT o.id FROM orders o WHERE o.id IN (SELECT id FROM people WHERE dept = 'x') LIMIT 5";
        assertThat(run(sql, Dialect.MARIADB)).isEqualTo("SELECT o.id FROM (SELECT orders.id FROM orders "
                + "IGNORE INDEX (`idx_orders_tenant_card`) WHERE orders.tenant = ? LIMIT 9223372036854775807) AS o "
                + "WHERE o.id IN (SELECT id FROM people IGNORE INDEX (`idx_people_ssn`, `idx_people_dept_salary`, "
                + "`idx_people_lower`) WHERE dept = 'x') LIMIT 5");
        assertThat(run(sql, Dialect.H2)).isEqualTo("SELECT o.id FROM (SELECT orders.id FROM orders "
                + "USE INDEX (\"PRIMARY\") WHERE orders.tenant = ?) AS o WHERE o.id IN (SELECT id FROM people "
                + "USE INDEX (\"PRIMARY\", \"idx_people_dept\") WHERE dept = 'x') LIMIT 5");
        assertThat(run(sql, Dialect.SQLITE)).isEqualTo("SELECT o.id FROM (SELECT orders.id FROM orders NOT INDEXED "
                + "WHERE orders.tenant = ?) AS o WHERE o.id IN (SELECT id FROM people NOT INDEXED WHERE dept = 'x') "
                + "LIMIT 5");
        // no hint on PostgreSQL: the statement is marked to run with ordered index scans off
        GuardVerdict.Accepted pg = (GuardVerdict.Accepted) SqlGuard.create().check(sql, POLICY, Dialect.POSTGRESQL);
        assertThat(pg.statement().sql()).doesNotContain("INDEX");
        assertThat(pg.statement().physicalOrder()).isTrue();
        assertThat(((GuardVerdict.Accepted) SqlGuard.create().check("SELECT id FROM people", POLICY, Dialect.MARIADB))
                .statement().physicalOrder()).isFalse();
        assertThat(((GuardVerdict.Accepted) SqlGuard.create().check("SELECT 1", POLICY, Dialect.POSTGRESQL))
                .statement().physicalOrder()).isFalse();
        // CTE bodies and joins too
        assertThat(run("WITH c AS (SELECT id FROM people) SELECT c.id FROM c JOIN people p ON p.id = c.id",
                Dialect.MARIADB)).containsSubsequence("FROM people IGNORE INDEX", "JOIN people p IGNORE INDEX");
    }

    @Test
    void aHintOfTheStatementIsKeptOnlyWhenItNamesAllowedIndexes() {
        assertThat(run("SELECT p.id FROM people p USE INDEX FOR ORDER BY (idx_people_dept) ORDER BY p.dept",
                Dialect.MARIADB)).contains("p USE INDEX FOR ORDER BY (idx_people_dept) IGNORE INDEX (`idx_people_ssn`");
        assertThat(run("SELECT id FROM people USE INDEX (idx_people_dept) WHERE dept = 'x'", Dialect.H2))
                .contains("USE INDEX (idx_people_dept)").doesNotContain("PRIMARY");
        for (Dialect d : List.of(Dialect.MARIADB, Dialect.H2)) {
            refused("SELECT id FROM people USE INDEX (idx_people_ssn)", d);
            refused("SELECT id FROM people USE INDEX (IDX_PEOPLE_DEPT_SALARY) WHERE dept > ''", d);
            refused("SELECT id FROM people USE INDEX (no_such_index)", d);
            refused("SELECT o.id FROM orders o USE INDEX (idx_orders_tenant_card)", d);
        }
        refused("SELECT id FROM people FORCE INDEX FOR ORDER BY (idx_people_ssn) LIMIT 1", Dialect.MARIADB);
        refused("SELECT id FROM people IGNORE KEY FOR GROUP BY (idx_people_dept_salary)", Dialect.MARIADB);
        // indexes not known, denied columns: no named hint at all
        GuardPolicy unknown = GuardPolicy.builder().allowTables("people").denyColumn("people", "ssn").build();
        assertThat(SqlGuard.create().check("SELECT id FROM people USE INDEX (PRIMARY)", unknown, Dialect.MARIADB))
                .isInstanceOf(GuardVerdict.Rejected.class);
        assertThat(SqlGuard.create().check("SELECT id FROM people USE INDEX ()", unknown, Dialect.MARIADB))
                .isInstanceOf(GuardVerdict.Accepted.class);
    }

    @Test
    void theCatalogGivesThePolicyTheOrderingIndexesOfEachEngine() throws Exception {
        for (Dialect d : List.of(Dialect.H2, Dialect.SQLITE, Dialect.POSTGRESQL, Dialect.MARIADB)) {
            HostileFixture.Twins twins = HostileFixture.twins(d);
            GuardPolicy base = HostileFixture.policy(d, FunctionPolicy.standard());
            GuardPolicy complete = SchemaCatalog.introspect(twins.a(), base).completePolicy(base);
            Set<String> people = complete.orderingIndexes("people");
            assertThat(people.stream().map(String::toLowerCase)).as("%s people", d)
                    .contains("idx_people_ssn", "idx_people_dept_salary").doesNotContain("idx_people_dept");
            assertThat(complete.orderingIndexes("orders").stream().map(String::toLowerCase)).as("%s orders", d)
                    .contains("idx_orders_tenant_card").doesNotContain("idx_orders_person");
            assertThat(complete.orderingIndexes("pets")).as("%s pets", d).isEmpty();
        }
    }

    @Test
    void postgresEngineCheckAloneRefusesAScanOfAnOrderingIndex() throws Exception {
        HostileFixture.Twins twins = HostileFixture.twins(Dialect.POSTGRESQL);
        GuardPolicy policy = HostileFixture.policy(Dialect.POSTGRESQL, FunctionPolicy.standard());
        EngineCheck check = EngineCheck.create(twins.a(), Dialect.POSTGRESQL);
        // the guard bypassed: statements it accepts, whose plans (on the twins' small tables) scan an index
        for (String sql : List.of("SELECT p.id FROM people p WHERE p.dept = 'eng' LIMIT 1",
                "SELECT string_agg(o.id::text, ',') FROM orders o WHERE o.tenant = 't1'")) {
            EngineVerdict v = check.check(pretend(sql), policy);
            assertThat(v).as(sql).isInstanceOf(EngineVerdict.Disagreement.class);
            assertThat(String.join(" ", ((EngineVerdict.Disagreement) v).reasons())).as(sql)
                    .containsAnyOf("salary", "card");
            // planned as it runs, with ordered index scans off (the guard's mark): no index order, confirmed
            EngineVerdict physical = check.check(new GuardVerdict.Accepted(sql, new SqlStatement(sql, List.of(), true),
                    Set.of(), Set.of()), policy);
            assertThat(physical).as(sql).isInstanceOf(EngineVerdict.Confirmed.class);
        }
        // a scan of an index ordered by allowed columns passes
        EngineVerdict ok = check.check(pretend("SELECT p.name FROM people p WHERE p.id = 3"), policy);
        assertThat(ok).isInstanceOf(EngineVerdict.Confirmed.class);
    }

    private static GuardVerdict.Accepted pretend(String sql) {
        return new GuardVerdict.Accepted(sql, new SqlStatement(sql, List.of()), Set.of(), Set.of());
    }
}
