package dev.sqlagent.engine.trino;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.guard.ViolationType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Trino's {@code (VALUES …) AS v(c1, …)} in {@code FROM}, read by the guard alone (no cluster): its rows are
 * expressions analysed like any other, seeing the queries around the statement but not the items beside it; its
 * columns are the names its alias list gives (Trino names none otherwise). Anywhere else a {@code VALUES} list
 * stays refused, and so it does on every other engine.
 */
class TrinoValuesGuardTest {

    private static final SqlGuard GUARD = SqlGuard.create();

    private static List<GuardPolicy> policies() {
        return List.of(TrinoUnnestGuardTest.OPEN, TrinoUnnestGuardTest.CLOSED);
    }

    private static GuardVerdict check(String sql, GuardPolicy policy) {
        return GUARD.check(sql, policy, Dialect.TRINO);
    }

    private static List<ViolationType> refused(String sql, GuardPolicy policy) {
        GuardVerdict v = check(sql, policy);
        assertThat(v).as(sql).isInstanceOf(GuardVerdict.Rejected.class);
        return ((GuardVerdict.Rejected) v).violations().stream().map(Violation::type).toList();
    }

    @Test
    void aValuesListInFromIsReadAndPrintedAsWritten() {
        for (String sql : List.of("SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(id, label)",
                "SELECT label FROM (VALUES (1, 'a'), (2, 'b')) AS v(id, label) WHERE id > 1",
                "SELECT id FROM (VALUES 1, 2) AS v(id)",
                "SELECT p.name, v.label FROM people p JOIN (VALUES (1, 'one'), (2, 'two')) AS v(id, label)"
                        + " ON v.id = p.id",
                "SELECT x FROM (VALUES (SELECT count(*) FROM people)) AS v(x)")) {
            for (GuardPolicy policy : policies()) {
                GuardVerdict v = check(sql, policy);
                assertThat(v).as(sql).isInstanceOf(GuardVerdict.Accepted.class);
                assertThat(((GuardVerdict.Accepted) v).statement().sql()).isEqualTo(sql + " LIMIT 1000");
            }
        }
    }

    @Test
    void itsRowsAreCheckedAsAnyExpression() {
        for (GuardPolicy policy : policies()) {
            assertThat(refused("SELECT x FROM (VALUES (SELECT max(ssn) FROM people)) AS v(x)", policy))
                    .contains(ViolationType.COLUMN_DENIED);
            assertThat(refused("SELECT x FROM (VALUES (SELECT max(code) FROM secrets)) AS v(x)", policy))
                    .contains(ViolationType.TABLE_NOT_ALLOWED);
            assertThat(refused("SELECT x FROM (VALUES (repeat('x', 100000000))) AS v(x)", policy))
                    .contains(ViolationType.RESOURCE_LIMIT);
            assertThat(refused("SELECT p.name FROM people p JOIN (VALUES ('ZQXA-SSN-1001')) AS v(s) ON v.s = p.ssn",
                    policy)).contains(ViolationType.COLUMN_DENIED);
        }
    }

    @Test
    void itsColumnsAreTheAliasListsOnly() {
        // Trino names no column of an unaliased list: no name binds to one
        assertThat(refused("SELECT _col0 FROM (VALUES 1) AS v", TrinoUnnestGuardTest.CLOSED))
                .containsExactly(ViolationType.UNKNOWN_COLUMN);
        assertThat(refused("SELECT column1 FROM (VALUES 1) AS v", TrinoUnnestGuardTest.CLOSED))
                .containsExactly(ViolationType.UNKNOWN_COLUMN);
        assertThat(refused("SELECT v.y FROM (VALUES 1) AS v(x)", TrinoUnnestGuardTest.CLOSED))
                .containsExactly(ViolationType.UNKNOWN_COLUMN);
        // its rows do not see the items beside it
        assertThat(refused("SELECT x FROM people p, (VALUES (p.name)) AS v(x)", TrinoUnnestGuardTest.CLOSED))
                .containsExactly(ViolationType.UNKNOWN_COLUMN);
    }

    @Test
    void aValuesListAnywhereElseOrOnAnotherEngineStaysRefused() {
        for (GuardPolicy policy : policies()) {
            for (String sql : List.of("VALUES (1, 2)", "SELECT name FROM people WHERE id IN (VALUES 1, 2)",
                    "SELECT x FROM (VALUES 1, 2 ORDER BY 1 LIMIT 1) AS v(x)",
                    "SELECT x FROM (SELECT y FROM (VALUES 1) AS w(y) UNION ALL VALUES 2) AS v(x)")) {
                assertThat(check(sql, policy)).as(sql).isNotInstanceOf(GuardVerdict.Accepted.class);
            }
        }
        for (Dialect d : List.of(Dialect.POSTGRESQL, Dialect.DUCKDB, Dialect.H2, Dialect.MARIADB)) {
            assertThat(GUARD.check("SELECT * FROM (VALUES (1, 'a')) AS v(id, label)", TrinoUnnestGuardTest.OPEN, d))
                    .as(d.toString()).isInstanceOf(GuardVerdict.Rejected.class);
        }
    }
}
