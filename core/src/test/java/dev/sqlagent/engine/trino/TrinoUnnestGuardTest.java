package dev.sqlagent.engine.trino;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.guard.ViolationType;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Trino's {@code UNNEST} in {@code FROM}, read by the guard alone (no cluster): its arguments are expressions
 * analysed like any other, seeing the items before it; its columns are the names its alias lists and no others.
 * The same tables as the Trino suites' twins ({@code TrinoHr}), once with the columns unknown to the policy (as the
 * governance suites run it) and once with them known (closed world: a name nothing binds is refused).
 */
class TrinoUnnestGuardTest {

    private static final SqlGuard GUARD = SqlGuard.create();

    private static GuardPolicy.Builder base() {
        return GuardPolicy.builder().allowTables("people", "pets", "orders")
                .denyColumn("people", "ssn").denyColumn("people", "salary").denyColumn("orders", "card")
                .rowFilter("pets", "owner", "alice").rowFilter("orders", "tenant", "t1");
    }

    /** The policy of the governance suites: no table's columns known. */
    static final GuardPolicy OPEN = base().build();

    /** The same with every table's columns known. */
    static final GuardPolicy CLOSED = base()
            .tableColumns("people", List.of("id", "name", "dept", "city", "born", "score", "ssn", "salary", "tags",
                    "attrs"))
            .tableColumns("pets", List.of("id", "owner", "kind", "age"))
            .tableColumns("orders", List.of("id", "person_id", "tenant", "amount", "placed", "status", "card"))
            .build();

    private static GuardVerdict check(String sql, GuardPolicy policy) {
        return GUARD.check(sql, policy, Dialect.TRINO);
    }

    private static String accepted(String sql, GuardPolicy policy) {
        GuardVerdict v = check(sql, policy);
        assertThat(v).as(sql).isInstanceOf(GuardVerdict.Accepted.class);
        return ((GuardVerdict.Accepted) v).statement().sql();
    }

    private static List<Violation> refused(String sql, GuardPolicy policy) {
        GuardVerdict v = check(sql, policy);
        assertThat(v).as(sql).isInstanceOf(GuardVerdict.Rejected.class);
        return ((GuardVerdict.Rejected) v).violations();
    }

    private static void refusedAs(String sql, ViolationType type) {
        for (GuardPolicy policy : List.of(OPEN, CLOSED)) {
            assertThat(refused(sql, policy)).as(sql).extracting(Violation::type).contains(type);
        }
    }

    @Nested
    class Read {

        @Test
        void theLegitimateFormsAreReadAndPrintedAsWritten() {
            for (String sql : List.of("SELECT name, t FROM people CROSS JOIN UNNEST(tags) AS u(t)",
                    "SELECT name, t, n FROM people CROSS JOIN UNNEST(tags) WITH ORDINALITY AS u(t, n)",
                    "SELECT k, v FROM people CROSS JOIN UNNEST(attrs) AS u(k, v) WHERE id = 2",
                    "SELECT x FROM UNNEST(ARRAY[3, 1, 2]) AS u(x) ORDER BY x",
                    "SELECT name, u.t FROM people, UNNEST(tags) u(t)",
                    "SELECT x, y FROM UNNEST(ARRAY[1, 2], ARRAY['a', 'b']) AS u(x, y)",
                    "SELECT x FROM people CROSS JOIN UNNEST(transform(tags, t -> upper(t))) AS u(x)",
                    "SELECT x FROM UNNEST((SELECT array_agg(name) FROM people)) AS u(x)",
                    "SELECT name FROM people p WHERE EXISTS (SELECT 1 FROM UNNEST(p.tags) AS u(t) WHERE t = 'eng')",
                    "SELECT name, x FROM people LEFT JOIN UNNEST(tags) AS u(x) ON true")) {
                for (GuardPolicy policy : List.of(OPEN, CLOSED)) {
                    assertThat(accepted(sql, policy)).isEqualTo(sql + " LIMIT 1000");
                }
            }
        }

        @Test
        void aStarOverUnnestsOnlyNamesWhatTheStatementSpells() {
            assertThat(accepted("SELECT * FROM UNNEST(ARRAY[1, 2]) AS u(x)", CLOSED))
                    .isEqualTo("SELECT * FROM UNNEST(ARRAY[1, 2]) AS u(x) LIMIT 1000");
            refusedAs("SELECT * FROM people CROSS JOIN UNNEST(tags) AS u(x)", ViolationType.COLUMN_DENIED);
        }

        @Test
        void aRowFilteredTableIsFilteredUnderTheUnnestThatReadsIt() {
            GuardVerdict v = check("SELECT x FROM pets CROSS JOIN UNNEST(ARRAY[kind]) AS u(x)", CLOSED);
            assertThat(v).isInstanceOf(GuardVerdict.Accepted.class);
            GuardVerdict.Accepted a = (GuardVerdict.Accepted) v;
            assertThat(a.statement().sql()).isEqualTo("SELECT x FROM (SELECT pets.kind FROM pets WHERE pets.owner = ?) AS"
                    + " pets CROSS JOIN UNNEST(ARRAY[kind]) AS u(x) LIMIT 1000");
            assertThat(a.statement().parameters()).containsExactly("alice");
            assertThat(accepted("SELECT x FROM pets p CROSS JOIN UNNEST(ARRAY[p.kind]) AS u(x)", OPEN))
                    .contains("(SELECT * FROM pets WHERE pets.owner = ?) AS p CROSS JOIN UNNEST(ARRAY[p.kind])");
        }
    }

    @Nested
    class ClosedWorld {

        @Test
        void aDeniedColumnInsideTheArgumentsIsRefusedAsAnywhereElse() {
            for (String sql : List.of("SELECT x FROM people CROSS JOIN UNNEST(ARRAY[ssn, name]) AS u(x)",
                    "SELECT x, n FROM people CROSS JOIN UNNEST(ARRAY[salary]) WITH ORDINALITY AS u(x, n)",
                    "SELECT k, v FROM people CROSS JOIN UNNEST(MAP(ARRAY['s'], ARRAY[ssn])) AS u(k, v)",
                    "SELECT t.x FROM orders, UNNEST(ARRAY[card]) AS t(x)",
                    "SELECT u.x FROM people p CROSS JOIN UNNEST(ARRAY[p.salary]) u(x)",
                    "SELECT s FROM people CROSS JOIN UNNEST(tags, ARRAY[ssn]) AS u(t, s)",
                    "SELECT x FROM people LEFT JOIN UNNEST(ARRAY[ssn]) AS u(x) ON true",
                    // a lambda's body, a correlated reference, a scalar sub-query of the outer row
                    "SELECT x FROM people CROSS JOIN UNNEST(transform(tags, t -> ssn)) AS u(x)",
                    "SELECT name FROM people p WHERE EXISTS (SELECT 1 FROM UNNEST(ARRAY[p.ssn]) AS u(x)"
                            + " WHERE x LIKE 'ZQXA%')",
                    "SELECT (SELECT max(x) FROM UNNEST(ARRAY[salary]) AS u(x)) FROM people")) {
                refusedAs(sql, ViolationType.COLUMN_DENIED);
            }
        }

        @Test
        void aSubQueryInsideTheArgumentsIsCheckedAsAnyOther() {
            refusedAs("SELECT x FROM UNNEST((SELECT array_agg(code) FROM secrets)) AS u(x)",
                    ViolationType.TABLE_NOT_ALLOWED);
            refusedAs("SELECT x FROM UNNEST(ARRAY[(SELECT max(ssn) FROM people)]) AS u(x)",
                    ViolationType.COLUMN_DENIED);
        }

        @Test
        void theAliasColumnsAreTheOnlyNamesTheUnnestBinds() {
            // unaliased, its columns have no name: a name is some other item's or nothing's
            assertThat(refused("SELECT t FROM people CROSS JOIN UNNEST(tags)", CLOSED)).extracting(Violation::type)
                    .containsExactly(ViolationType.UNKNOWN_COLUMN);
            refusedAs("SELECT ssn FROM people CROSS JOIN UNNEST(tags)", ViolationType.COLUMN_DENIED);
            assertThat(refused("SELECT u.ssn FROM people CROSS JOIN UNNEST(tags) AS u(t)", CLOSED))
                    .extracting(Violation::type).containsExactly(ViolationType.UNKNOWN_COLUMN);
            assertThat(refused("SELECT u.t FROM people CROSS JOIN UNNEST(tags) AS u", CLOSED))
                    .extracting(Violation::type).containsExactly(ViolationType.UNKNOWN_COLUMN);
            // an alias column named like a denied column: the name is the table's too (Trino: ambiguous)
            refusedAs("SELECT ssn FROM people CROSS JOIN UNNEST(tags) AS u(ssn)", ViolationType.COLUMN_DENIED);
            // the ordinality column is named by the list only
            assertThat(refused("SELECT ordinality FROM UNNEST(ARRAY[1]) WITH ORDINALITY AS u(x)", CLOSED))
                    .extracting(Violation::type).containsExactly(ViolationType.UNKNOWN_COLUMN);
        }

        @Test
        void theArgumentsSeeOnlyTheItemsBeforeIt() {
            assertThat(refused("SELECT x FROM UNNEST(tags) AS u(x) CROSS JOIN people", OPEN))
                    .extracting(Violation::type).containsExactly(ViolationType.UNKNOWN_COLUMN);
            // in a parenthesised join, only that join's items before it (and the queries around the statement)
            assertThat(refused("SELECT x FROM people q, (pets CROSS JOIN UNNEST(ARRAY[q.name]) AS u(x))", CLOSED))
                    .extracting(Violation::type).containsExactly(ViolationType.UNKNOWN_COLUMN);
        }

        @Test
        void anUnboundedSeriesIsRefused() {
            refusedAs("SELECT x FROM UNNEST(sequence(1, 100000000)) AS u(x)", ViolationType.RESOURCE_LIMIT);
        }

        @Test
        void anyOtherFormIsRefused() {
            for (String sql : List.of("SELECT x FROM people CROSS JOIN UNNEST(DISTINCT tags) AS u(x)",
                    "SELECT x FROM people CROSS JOIN \"unnest\"(tags) AS u(x)",
                    "SELECT x FROM people CROSS JOIN UNNEST(tags) AS u(x varchar)",
                    "SELECT x FROM people CROSS JOIN LATERAL UNNEST(tags) AS u(x)",
                    "SELECT x FROM people CROSS JOIN sys.unnest(tags) AS u(x)",
                    "SELECT x FROM generate_series(1, 3) AS g(x)",
                    "SELECT x FROM sequence(1, 3) AS g(x)")) {
                refusedAs(sql, ViolationType.TABLE_FUNCTION);
            }
        }

        @Test
        void otherEnginesStillRefuseItInFrom() {
            for (Dialect d : List.of(Dialect.POSTGRESQL, Dialect.DUCKDB, Dialect.H2)) {
                GuardVerdict v = GUARD.check("SELECT x FROM people CROSS JOIN UNNEST(tags) AS u(x)", OPEN, d);
                assertThat(v).as(d.toString()).isInstanceOf(GuardVerdict.Rejected.class);
            }
        }
    }
}
