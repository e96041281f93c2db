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

    /**
     * The engine check alone on H2, SQLite and MariaDB, the guard bypassed: a plan that reads through an index
     * whose key holds a denied column (the statements that escaped before the rewrite) is refused, naming
     * it; the same statements as the guard writes them, and a read through an allowed index, are confirmed.
     */
    @Test
    void engineCheckAloneRefusesAReadThroughAnOrderingIndexOnEveryHintedEngine() throws Exception {
        for (Dialect d : List.of(Dialect.H2, Dialect.SQLITE, Dialect.MARIADB)) {
            HostileFixture.Twins twins = HostileFixture.twins(d);
            GuardPolicy base = HostileFixture.policy(d, FunctionPolicy.standard());
            GuardPolicy policy = SchemaCatalog.introspect(twins.a(), base).completePolicy(base);
            EngineCheck check = EngineCheck.create(twins.a(), d);
            String people = d == Dialect.H2 ? "LISTAGG(p.id, ',')" : "GROUP_CONCAT(p.id)";
            String orders = d == Dialect.H2 ? "LISTAGG(o.id, ',')" : "GROUP_CONCAT(o.id)";
            int refused = 0;
            for (String sql : List.of("SELECT p.id FROM people p LIMIT 1",
                    "SELECT p.id FROM people p WHERE p.dept = 'eng' LIMIT 1",
                    "SELECT " + people + " FROM people p", "SELECT " + people + " FROM people p WHERE p.dept = 'eng'",
                    "SELECT o.id FROM orders o WHERE o.tenant = 't1' LIMIT 1",
                    "SELECT " + orders + " FROM orders o WHERE o.tenant = 't1'")) {
                EngineVerdict v = check.check(pretend(sql), policy);
                if (v instanceof EngineVerdict.Disagreement dis) {
                    refused++;
                    assertThat(String.join(" ", dis.reasons())).as("%s on %s", sql, d).containsAnyOf("salary", "ssn", "card");
                } else {
                    assertThat(v).as("%s on %s", sql, d).isInstanceOf(EngineVerdict.Confirmed.class);
                }
                GuardVerdict guarded = SqlGuard.create().check(sql, policy, d);
                assertThat(check.check((GuardVerdict.Accepted) guarded, policy)).as("%s guarded on %s", sql, d)
                        .isInstanceOf(EngineVerdict.Confirmed.class);
            }
            // the rows of these statements came back in salary or ssn order before the rewrite
            assertThat(refused).as("plans through an ordering index refused on %s", d).isGreaterThanOrEqualTo(2);
            assertThat(check.check(pretend("SELECT p.name FROM people p WHERE p.id = 3"), policy)).as("%s", d)
                    .isInstanceOf(EngineVerdict.Confirmed.class);
        }
    }

    /**
     * The neighbours, on each engine's real catalog: a UNIQUE constraint's and a foreign key's implicit index and
     * an expression index are kept off like any other; a table stored in the order of a denied primary key
     * (InnoDB, SQLite's rowid, H2's integer key) is refused, since no hint changes its scan order; on PostgreSQL
     * it is a heap, read with ordered index scans off. Each guarded statement that runs returns rows in id
     * order (the tables' physical order here), never in the order of the denied code.
     */
    @Test
    void implicitExpressionAndClusteringIndexesOnEveryEngine() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("access-index-order");
        java.util.Map<Dialect, javax.sql.DataSource> engines = new java.util.LinkedHashMap<>();
        engines.put(Dialect.H2, new dev.sqlagent.execution.UrlDataSource("jdbc:h2:mem:access_order;DB_CLOSE_DELAY=-1",
                "sa", ""));
        engines.put(Dialect.SQLITE, new dev.sqlagent.execution.UrlDataSource("jdbc:sqlite:" + dir.resolve("o.db"),
                null, null));
        engines.put(Dialect.MARIADB, dev.sqlagent.testing.DatabaseServer.mariadb().scratch("access_index_order"));
        engines.put(Dialect.POSTGRESQL, dev.sqlagent.testing.DatabaseServer.postgres().scratch("access_index_order"));
        for (var e : engines.entrySet()) {
            Dialect d = e.getKey();
            String text = d == Dialect.SQLITE ? "TEXT" : "VARCHAR(20)";
            try (java.sql.Connection c = e.getValue().getConnection(); java.sql.Statement s = c.createStatement()) {
                for (String t : List.of("access_fk", "access_pk", "access_uq", "access_expr")) {
                    s.execute("DROP TABLE IF EXISTS " + t);
                }
                s.execute("CREATE TABLE access_pk (secret INTEGER PRIMARY KEY, name " + text + ")");
                s.execute("CREATE TABLE access_uq (id INTEGER PRIMARY KEY, code " + text + " UNIQUE, name " + text + ")");
                s.execute("CREATE TABLE access_fk (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES access_pk (secret))");
                s.execute("CREATE TABLE access_expr (id INTEGER PRIMARY KEY, code " + text + ")");
                if (d == Dialect.SQLITE || d == Dialect.POSTGRESQL) {
                    s.execute("CREATE INDEX access_expr_lower ON access_expr (lower(code))");
                }
                for (int i = 1; i <= 12; i++) {
                    int secret = 1000 - i * 7 % 13 * 10; // not in id order
                    String code = "'c" + (100 - i * 5 % 12) + "'";
                    s.execute("INSERT INTO access_pk VALUES (" + secret + ", 'n" + i + "')");
                    s.execute("INSERT INTO access_uq VALUES (" + i + ", " + code + ", 'n" + i + "')");
                    s.execute("INSERT INTO access_fk VALUES (" + i + ", " + secret + ")");
                    s.execute("INSERT INTO access_expr VALUES (" + i + ", " + code + ")");
                }
            }
            GuardPolicy base = GuardPolicy.builder().allowTables("access_pk", "access_uq", "access_fk", "access_expr")
                    .denyColumn("access_pk", "secret").denyColumn("access_uq", "code").denyColumn("access_fk", "owner")
                    .denyColumn("access_expr", "code").build();
            GuardPolicy policy = SchemaCatalog.introspect(e.getValue(), base).completePolicy(base);
            assertThat(policy.orderingIndexes("access_uq")).as("%s unique", d).isNotEmpty();
            if (d != Dialect.SQLITE && d != Dialect.POSTGRESQL) { // neither indexes a foreign key by itself
                assertThat(policy.orderingIndexes("access_fk")).as("%s foreign key", d).isNotEmpty();
            }
            if (d == Dialect.SQLITE || d == Dialect.POSTGRESQL) {
                assertThat(policy.orderingIndexes("access_expr")).as("%s expression", d).hasSize(1);
            }
            GuardVerdict pk = SqlGuard.create().check("SELECT name FROM access_pk", policy, d);
            if (d == Dialect.POSTGRESQL) {
                assertThat(((GuardVerdict.Accepted) pk).statement().physicalOrder()).isTrue();
            } else {
                assertThat(pk).as("%s clustered by a denied key", d).isInstanceOf(GuardVerdict.Rejected.class);
            }
            for (String sql : List.of("SELECT id FROM access_uq", "SELECT id FROM access_fk",
                    "SELECT id FROM access_expr", "SELECT u.id FROM access_uq u WHERE u.name > ''")) {
                GuardVerdict v = SqlGuard.create().check(sql, policy, d);
                assertThat(v).as("%s on %s", sql, d).isInstanceOf(GuardVerdict.Accepted.class);
                SqlStatement st = ((GuardVerdict.Accepted) v).statement();
                List<Integer> ids = new java.util.ArrayList<>();
                try (java.sql.Connection c = e.getValue().getConnection()) {
                    c.setAutoCommit(false);
                    if (st.physicalOrder()) {
                        try (java.sql.Statement s = c.createStatement()) {
                            s.executeQuery("SELECT 1" + dev.sqlagent.execution.JdbcSqlExecutor.PHYSICAL_ORDER).close();
                        }
                    }
                    try (java.sql.PreparedStatement ps = c.prepareStatement(st.sql());
                         java.sql.ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            ids.add(rs.getInt(1));
                        }
                    }
                    c.rollback();
                }
                assertThat(ids).as("%s run as %s on %s", sql, st.sql(), d).isSorted().hasSize(12);
            }
            try (java.sql.Connection c = e.getValue().getConnection(); java.sql.Statement s = c.createStatement()) {
                for (String t : List.of("access_fk", "access_pk", "access_uq", "access_expr")) {
                    s.execute("DROP TABLE IF EXISTS " + t);
                }
            }
        }
        try (var files = java.nio.file.Files.list(dir)) {
            for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files::iterator) {
                java.nio.file.Files.delete(f);
            }
        }
        java.nio.file.Files.delete(dir);
    }

    private static GuardVerdict.Accepted pretend(String sql) {
        return new GuardVerdict.Accepted(sql, new SqlStatement(sql, List.of()), Set.of(), Set.of());
    }
}
