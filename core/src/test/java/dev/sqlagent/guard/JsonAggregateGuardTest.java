package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The guard alone ({@link SqlGuard#check}) on {@code JSON_ARRAYAGG} and {@code JSON_OBJECTAGG}, which JSqlParser
 * reads as a node of its own ({@code JsonAggregateFunction}): decided by the function policy like a call (so
 * only on the engines whose catalog has them, MariaDB and H2 here), every part walked (value, key, the
 * {@code ORDER BY} inside, {@code FILTER}, {@code OVER}), only the forms the engine reads alike.
 */
class JsonAggregateGuardTest {

    private static final SqlGuard GUARD = SqlGuard.create();

    private static GuardPolicy.Builder closed() {
        return GuardPolicy.builder().allowTables("people", "pets")
                .tableColumns("people", List.of("id", "name", "dept", "city", "score", "ssn", "salary"))
                .tableColumns("pets", List.of("id", "owner", "kind", "age"))
                .denyColumn("people", "ssn").denyColumn("people", "salary");
    }

    private static GuardVerdict check(String sql, Dialect d) {
        return GUARD.check(sql, closed().build(), d);
    }

    private static List<ViolationType> refused(String sql, Dialect d) {
        GuardVerdict v = check(sql, d);
        assertThat(v).as("%s: %s", d, v).isInstanceOf(GuardVerdict.Rejected.class);
        return ((GuardVerdict.Rejected) v).violations().stream().map(Violation::type).toList();
    }

    @Test
    void theFormsEachEngineReadsAreAccepted() {
        for (String sql : List.of(
                "SELECT dept, JSON_ARRAYAGG(name) AS names FROM people GROUP BY dept ORDER BY dept",
                "SELECT JSON_ARRAYAGG(name ORDER BY id) AS a FROM people",
                "SELECT JSON_ARRAYAGG(UPPER(name)) AS a FROM people WHERE score > 1",
                "SELECT JSON_OBJECTAGG(name, score) AS j FROM people",
                "SELECT JSON_OBJECTAGG('k', score) AS j FROM people WHERE id = 1")) {
            assertThat(check(sql, Dialect.MARIADB)).as(sql).isInstanceOf(GuardVerdict.Accepted.class);
        }
        for (String sql : List.of(
                "SELECT dept, JSON_ARRAYAGG(name) AS names FROM people GROUP BY dept ORDER BY dept",
                "SELECT JSON_ARRAYAGG(name ORDER BY id NULL ON NULL) AS a FROM people",
                "SELECT JSON_OBJECTAGG(name: score) AS j FROM people",
                "SELECT JSON_OBJECTAGG(KEY name VALUE score ABSENT ON NULL WITH UNIQUE KEYS) AS j FROM people",
                "SELECT JSON_ARRAYAGG(name) FILTER (WHERE score > 1) AS a FROM people",
                "SELECT dept, JSON_ARRAYAGG(name) OVER (PARTITION BY dept) AS a FROM people")) {
            assertThat(check(sql, Dialect.H2)).as(sql).isInstanceOf(GuardVerdict.Accepted.class);
        }
        GuardVerdict v = check("SELECT JSON_OBJECTAGG('k', score) AS j FROM people WHERE id = 1", Dialect.MARIADB);
        assertThat(((GuardVerdict.Accepted) v).statement().sql()).contains("'k'");
    }

    /** Accepted forms on the full default path (guard, engine check, twins, restricted login). */
    @Test
    void theAcceptedFormsPassTheFullPath() throws Exception {
        LegitimateDialectSqlTest.run(Dialect.MARIADB, List.of(
                "SELECT dept, JSON_ARRAYAGG(name ORDER BY id) AS names FROM people GROUP BY dept ORDER BY dept",
                "SELECT JSON_OBJECTAGG(name, score) AS j FROM people",
                "SELECT JSON_OBJECTAGG('k', score) AS j FROM people WHERE id = 1"), "JSON-AGGREGATE", 3,
                java.util.Map.of());
        LegitimateDialectSqlTest.run(Dialect.H2, List.of(
                "SELECT dept, JSON_ARRAYAGG(name ORDER BY id) AS names FROM people GROUP BY dept ORDER BY dept",
                "SELECT JSON_OBJECTAGG(KEY name VALUE score) AS j FROM people",
                "SELECT JSON_ARRAYAGG(name) FILTER (WHERE score > 1) AS a FROM people",
                "SELECT dept, JSON_ARRAYAGG(name) OVER (PARTITION BY dept) AS a FROM people ORDER BY 1, 2"),
                "JSON-AGGREGATE", 4, java.util.Map.of());
    }

    @Test
    void aDeniedColumnOrAForbiddenTableInsideIsRefused() {
        for (Dialect d : List.of(Dialect.MARIADB, Dialect.H2)) {
            for (String sql : List.of(
                    "SELECT JSON_ARRAYAGG(salary) AS a FROM people",
                    "SELECT JSON_ARRAYAGG(name ORDER BY salary) AS a FROM people",
                    "SELECT JSON_ARRAYAGG(CONCAT(name, ssn)) AS a FROM people",
                    "SELECT JSON_ARRAYAGG((SELECT MAX(salary) FROM people)) AS a FROM pets",
                    "SELECT JSON_ARRAYAGG((SELECT code FROM secrets)) AS a FROM people",
                    "SELECT JSON_ARRAYAGG(nosuch) AS a FROM people")) {
                assertThat(refused(sql, d)).as("%s: %s", d, sql).containsAnyOf(ViolationType.COLUMN_DENIED,
                        ViolationType.TABLE_NOT_ALLOWED, ViolationType.UNKNOWN_COLUMN);
            }
        }
        for (String sql : List.of("SELECT JSON_OBJECTAGG(ssn, name) AS j FROM people",
                "SELECT JSON_OBJECTAGG(name, salary) AS j FROM people")) {
            assertThat(refused(sql, Dialect.MARIADB)).as(sql).contains(ViolationType.COLUMN_DENIED);
        }
        for (String sql : List.of("SELECT JSON_OBJECTAGG(ssn: name) AS j FROM people",
                "SELECT JSON_OBJECTAGG(KEY name VALUE salary) AS j FROM people",
                "SELECT JSON_ARRAYAGG(name) FILTER (WHERE ssn = 'x') AS a FROM people",
                "SELECT JSON_ARRAYAGG(name) OVER (PARTITION BY salary) AS a FROM people")) {
            assertThat(refused(sql, Dialect.H2)).as(sql).contains(ViolationType.COLUMN_DENIED);
        }
    }

    @Test
    void formsTheEngineDoesNotReadAlikeAreRefused() {
        for (String sql : List.of("SELECT JSON_OBJECTAGG(name: score) AS j FROM people",
                "SELECT JSON_OBJECTAGG(KEY name VALUE score) AS j FROM people",
                "SELECT JSON_ARRAYAGG(name NULL ON NULL) AS a FROM people",
                "SELECT JSON_ARRAYAGG(name FORMAT JSON) AS a FROM people")) {
            assertThat(refused(sql, Dialect.MARIADB)).as(sql).contains(ViolationType.UNSUPPORTED_CONSTRUCT);
        }
        for (String sql : List.of("SELECT JSON_OBJECTAGG(name, score) AS j FROM people",
                "SELECT JSON_ARRAYAGG(name FORMAT JSON) AS a FROM people")) {
            assertThat(refused(sql, Dialect.H2)).as(sql).contains(ViolationType.UNSUPPORTED_CONSTRUCT);
        }
    }

    @Test
    void theFunctionPolicyDecidesThem() {
        for (Dialect d : List.of(Dialect.MARIADB, Dialect.H2)) {
            GuardPolicy only = closed().functionPolicy(FunctionPolicy.allowOnly("upper")).build();
            GuardVerdict v = GUARD.check("SELECT JSON_ARRAYAGG(name) AS a FROM people", only, d);
            assertThat(v).as("%s: %s", d, v).isInstanceOf(GuardVerdict.Rejected.class);
            assertThat(((GuardVerdict.Rejected) v).violations()).extracting(Violation::type)
                    .contains(ViolationType.FUNCTION_NOT_ALLOWED);
        }
        // engines whose catalog has no such function: an invented name, never run
        for (Dialect d : List.of(Dialect.POSTGRESQL, Dialect.SQLITE, Dialect.DUCKDB)) {
            GuardVerdict v = check("SELECT JSON_ARRAYAGG(name) AS a FROM people", d);
            assertThat(v).as("%s: %s", d, v).isNotInstanceOf(GuardVerdict.Accepted.class);
        }
    }

    @Test
    void onH2ItStaysBoundedToOneStoredTable() {
        assertThat(refused("SELECT LENGTH(JSON_ARRAYAGG(x.name)) AS n FROM people x, people y", Dialect.H2))
                .contains(ViolationType.RESOURCE_LIMIT);
    }
}
