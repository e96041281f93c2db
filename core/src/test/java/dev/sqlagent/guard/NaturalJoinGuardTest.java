package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The guard alone ({@link SqlGuard#check}) on NATURAL joins in a statement that reads tables with denied columns:
 * the columns the two sides share are computed (an allowed table's from the policy, a derived table's from its
 * exact output names) and read, so a join that shares no denied column is accepted and one that shares one, on
 * either side, is refused; a side whose columns cannot be known exactly (a star inside, an unnamed expression, a
 * CTE, a table the policy knows no columns of) keeps the join refused, as does a star over it, and DuckDB (whose
 * engine check reads a natural join as a star over both sides).
 */
class NaturalJoinGuardTest {

    private static final SqlGuard GUARD = SqlGuard.create();
    private static final List<Dialect> COMPUTED = List.of(Dialect.POSTGRESQL, Dialect.SQLITE, Dialect.MARIADB,
            Dialect.H2);

    private static GuardPolicy.Builder closed() {
        return GuardPolicy.builder().allowTables("people", "pets", "orders")
                .tableColumns("people", List.of("id", "name", "dept", "city", "score", "ssn", "salary"))
                .tableColumns("pets", List.of("id", "owner", "kind", "age"))
                .tableColumns("orders", List.of("id", "person_id", "tenant", "amount", "status", "card"))
                .denyColumn("people", "ssn").denyColumn("people", "salary").denyColumn("orders", "card");
    }

    private static void accepted(GuardPolicy policy, Dialect d, String sql) {
        GuardVerdict v = GUARD.check(sql, policy, d);
        assertThat(v).as("%s: %s", d, v).isInstanceOf(GuardVerdict.Accepted.class);
    }

    private static void refused(GuardPolicy policy, Dialect d, String sql) {
        GuardVerdict v = GUARD.check(sql, policy, d);
        assertThat(v).as("%s: %s", d, v).isNotInstanceOf(GuardVerdict.Accepted.class);
        if (v instanceof GuardVerdict.Rejected r) {
            assertThat(r.violations()).extracting(Violation::type).as("%s: %s", d, sql)
                    .containsAnyOf(ViolationType.COLUMN_DENIED, ViolationType.SELECT_STAR);
        }
    }

    private static final List<String> SHARING_NO_DENIED_COLUMN = List.of(
            "SELECT o.status, p.city, count(*) AS n FROM orders o NATURAL JOIN (SELECT id AS person_id, city "
                    + "FROM people) p GROUP BY o.status, p.city ORDER BY 1, 2",
            "SELECT k.kind FROM pets k NATURAL JOIN (SELECT id, name AS owner FROM people) p",
            "SELECT p.name, k.kind FROM people p NATURAL JOIN pets k",
            "SELECT p.name FROM people p NATURAL LEFT JOIN (SELECT kind AS zz FROM pets) k",
            "SELECT p.name, x.n FROM people p NATURAL JOIN (SELECT id, count(*) AS n FROM pets GROUP BY id) x",
            "SELECT k.kind FROM pets k JOIN people p ON p.id = k.id NATURAL JOIN (SELECT status AS dept FROM orders) z");

    @Test
    void aJoinSharingNoDeniedColumnIsAccepted() {
        for (Dialect d : COMPUTED) {
            for (String sql : SHARING_NO_DENIED_COLUMN) {
                accepted(closed().build(), d, sql);
            }
        }
    }

    @Test
    void aJoinSharingADeniedColumnOnEitherSideIsRefused() {
        for (Dialect d : List.of(Dialect.POSTGRESQL, Dialect.SQLITE, Dialect.MARIADB, Dialect.H2, Dialect.DUCKDB)) {
            for (String sql : List.of(
                    // orders.card, denied, is compared with the derived table's card (left side)
                    "SELECT o.status FROM orders o NATURAL JOIN (SELECT name AS card FROM people) p",
                    // people.ssn, denied, on the right side
                    "SELECT k.kind FROM (SELECT kind AS ssn FROM pets) k NATURAL JOIN people p",
                    // people.salary on the left, among several items joined so far
                    "SELECT k.kind FROM pets k JOIN people p ON p.id = k.id NATURAL JOIN (SELECT kind AS salary "
                            + "FROM pets) z",
                    "SELECT k.kind FROM pets k NATURAL RIGHT JOIN (SELECT kind AS salary FROM pets) z NATURAL JOIN people",
                    // a star over a natural join reads every column of both sides
                    "SELECT * FROM orders o NATURAL JOIN (SELECT id AS person_id FROM people) p",
                    "SELECT o.* FROM orders o NATURAL JOIN (SELECT id AS person_id FROM people) p",
                    // a denied column read inside a side is refused there
                    "SELECT o.status FROM orders o NATURAL JOIN (SELECT id AS person_id, salary FROM people) p")) {
                refused(closed().build(), d, sql);
                refused(closed().allowSelectStar(true).build(), d, sql);
            }
        }
    }

    @Test
    void aSideWhoseColumnsAreNotKnownExactlyKeepsTheJoinRefused() {
        GuardPolicy stars = closed().allowSelectStar(true).build();
        for (Dialect d : COMPUTED) {
            // a star inside a side
            refused(stars, d, "SELECT o.status FROM orders o NATURAL JOIN (SELECT * FROM pets) k");
            // an unnamed expression: its name is the engine's (PostgreSQL names CAST(name AS text) "name")
            refused(stars, d, "SELECT o.status FROM orders o NATURAL JOIN (SELECT CAST(kind AS char(10)) FROM pets) k");
            // a CTE side
            refused(stars, d, "WITH c AS (SELECT kind AS k FROM pets) SELECT o.status FROM orders o NATURAL JOIN c");
            // a parenthesised join as a side
            refused(stars, d, "SELECT o.status FROM orders o NATURAL JOIN (pets k JOIN people p ON p.id = k.id)");
        }
        // a table whose columns the policy does not know
        GuardPolicy open = GuardPolicy.builder().allowTables("people", "pets", "orders")
                .tableColumns("people", List.of("id", "name", "dept", "city", "score", "ssn", "salary"))
                .tableColumns("orders", List.of("id", "person_id", "tenant", "amount", "status", "card"))
                .denyColumn("people", "ssn").denyColumn("people", "salary").denyColumn("orders", "card").build();
        for (Dialect d : COMPUTED) {
            refused(open, d, "SELECT o.status FROM orders o NATURAL JOIN pets k");
        }
    }

    @Test
    void onDuckDbANaturalJoinNextToADeniedColumnStaysRefused() {
        refused(closed().build(), Dialect.DUCKDB, SHARING_NO_DENIED_COLUMN.get(0));
        // next to no table with denied columns it is accepted there as before
        accepted(closed().build(), Dialect.DUCKDB, "SELECT k.kind FROM pets k NATURAL JOIN (SELECT id, kind AS x FROM "
                + "pets) z");
    }

    /**
     * The accepted joins on the full default path of each engine that computes them (guard, engine check, the
     * twins' same rows, the restricted login), through {@link LegitimateDialectSqlTest}'s judge; the fixture's
     * row filter on orders keeps the compared column.
     */
    @Test
    void theAcceptedJoinsPassTheFullPath() throws Exception {
        List<String> statements = List.of(
                SHARING_NO_DENIED_COLUMN.get(0),
                "SELECT k.kind, p.name FROM pets k NATURAL JOIN (SELECT id, name, dept AS kind2 FROM people) p ORDER BY 1, 2",
                "SELECT p.name, k.kind FROM people p NATURAL JOIN pets k ORDER BY 1, 2",
                "SELECT o.status, p.name FROM orders o NATURAL JOIN (SELECT id AS person_id, name FROM people) p "
                        + "NATURAL JOIN (SELECT status, count(*) AS n FROM orders GROUP BY status) s ORDER BY 1, 2");
        for (Dialect d : COMPUTED) {
            LegitimateDialectSqlTest.run(d, statements, "NATURAL-JOIN", statements.size(), java.util.Map.of());
        }
    }

    @Test
    void theSharedColumnsAreReadThroughARowFilter() {
        GuardPolicy filtered = closed().rowFilter("orders", "tenant", "t1").build();
        for (Dialect d : COMPUTED) {
            GuardVerdict v = GUARD.check(SHARING_NO_DENIED_COLUMN.get(0), filtered, d);
            assertThat(v).as("%s: %s", d, v).isInstanceOf(GuardVerdict.Accepted.class);
            String sql = ((GuardVerdict.Accepted) v).statement().sql();
            // the filter's derived table keeps the column the join compares, and only what is read
            assertThat(sql).as(sql).containsIgnoringCase("person_id").doesNotContainIgnoringCase("card")
                    .doesNotContain("SELECT *");
            assertThat(((GuardVerdict.Accepted) v).columns()).contains("orders.person_id", "orders.status")
                    .doesNotContain("orders.card", "people.salary", "people.ssn");
        }
    }
}
