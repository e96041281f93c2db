package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The guard alone, closed world: every name resolves, by the engine's own scoping rules, to a column of a
 * table, CTE or derived table in scope, a select-list alias or a keyword, and what it resolves to is checked;
 * anything else is refused with its name. The policy knows each table's columns, as {@code SqlAgent} gives
 * them.
 */
class ClosedWorldGuardTest {

    private static final SqlGuard GUARD = SqlGuard.create();

    private static final GuardPolicy POLICY = GuardPolicy.builder()
            .allowTables("emp", "dept", "orders")
            .tableColumns("emp", List.of("id", "name", "dept_id", "salary"))
            .tableColumns("dept", List.of("id", "title"))
            .tableColumns("orders", List.of("id", "emp_id", "amount", "region"))
            .denyColumn("emp", "salary")
            // its indexes, as SqlAgent reads them: a hint naming one is vetted (unknown ones are refused)
            .tableIndex("emp", "PRIMARY", List.of("id"))
            .rowFilter("orders", "region", "north")
            .knownTables(List.of("emp", "dept", "orders", "secrets"))
            .build();

    private static GuardVerdict check(String sql, Dialect dialect) {
        return GUARD.check(sql, POLICY, dialect);
    }

    private static Set<ViolationType> types(GuardVerdict v) {
        assertThat(v).as("%s", v).isInstanceOf(GuardVerdict.Rejected.class);
        return ((GuardVerdict.Rejected) v).violations().stream().map(Violation::type).collect(Collectors.toSet());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT * FROM (SELECT name, dept_id FROM emp) x",
            "SELECT x.* FROM (SELECT name, dept_id FROM emp) x WHERE x.dept_id > 1",
            "WITH c AS (SELECT name FROM emp) SELECT * FROM c",
            "WITH c(n) AS (SELECT name FROM emp) SELECT * FROM c ORDER BY n",
            "SELECT * FROM (SELECT name, rank() OVER (ORDER BY id) AS r FROM emp) ranked WHERE r <= 2",
            "SELECT * FROM (SELECT id FROM emp) a, (SELECT title FROM dept) b",
            "SELECT * FROM (SELECT amount FROM orders) o"})
    void aStarOverQueriesThatNameTheirColumnsIsAcceptedWhereSelectStarIsNot(String sql) {
        for (Dialect d : List.of(Dialect.POSTGRESQL, Dialect.SQLITE, Dialect.H2, Dialect.MARIADB, Dialect.DUCKDB)) {
            assertThat(check(sql, d)).as("%s on %s", sql, d).isInstanceOf(GuardVerdict.Accepted.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT * FROM emp",
            "SELECT * FROM (SELECT * FROM dept) x",
            "SELECT * FROM (SELECT name FROM emp) x JOIN dept d ON d.id = 1",
            "WITH c AS (SELECT * FROM dept) SELECT * FROM c",
            "SELECT x.*, d.* FROM (SELECT name FROM emp) x, dept d"})
    void aStarOverATableOrOverAStarIsStillRefused(String sql) {
        assertThat(types(check(sql, Dialect.POSTGRESQL))).contains(ViolationType.SELECT_STAR);
    }

    @Test
    void aStarOverAQueryThatReadsADeniedColumnIsRefusedForTheColumn() {
        assertThat(types(check("SELECT * FROM (SELECT name, salary FROM emp) x", Dialect.POSTGRESQL)))
                .containsExactly(ViolationType.COLUMN_DENIED);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT e.text FROM emp e",
            "SELECT e.row_to_json FROM emp e",
            "SELECT e.json FROM emp e",
            "SELECT name FROM emp e WHERE e.text LIKE '%9%'",
            "WITH x AS (SELECT e.text AS t FROM emp e) SELECT t FROM x",
            "SELECT d.title FROM dept d, LATERAL (SELECT e.text AS t FROM emp e) s"})
    void attributeNotationOverATableWithDeniedColumnsReadsTheWholeRow(String sql) {
        assertThat(types(check(sql, Dialect.POSTGRESQL))).contains(ViolationType.WHOLE_ROW);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT row_to_json(e) FROM emp e",
            "SELECT e FROM emp e",
            "SELECT name FROM emp e WHERE CAST(e AS text) LIKE '%9%'",
            "SELECT to_json(emp) FROM emp",
            "SELECT array_agg(e) FROM emp e",
            "SELECT row_to_json(e.*) FROM emp e",
            "SELECT count(e.*) FROM emp e",
            "SELECT d.title FROM dept d WHERE EXISTS (SELECT 1 FROM emp e WHERE e::text LIKE '%9%')",
            "WITH x AS (SELECT to_jsonb(e) AS j FROM emp e) SELECT j FROM x"})
    void wholeRowValuesOfATableWithDeniedColumnsAreRefused(String sql) {
        assertThat(types(check(sql, Dialect.POSTGRESQL))).containsAnyOf(ViolationType.WHOLE_ROW,
                ViolationType.COLUMN_DENIED);
    }

    @Test
    void aWholeRowOfATableWithoutDeniedColumnsReadsOnlyAllowedData() {
        assertThat(check("SELECT to_json(d) FROM dept d", Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Accepted.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tableoid", "ctid", "xmin", "xmax", "cmin", "cmax"})
    void postgresSystemColumnsAreRefusedUnlessNamed(String column) {
        String sql = "SELECT d." + column + ", d.title FROM dept d";
        assertThat(types(check(sql, Dialect.POSTGRESQL))).contains(ViolationType.SYSTEM_COLUMN);
        assertThat(types(check("SELECT " + column + " FROM dept", Dialect.POSTGRESQL)))
                .contains(ViolationType.SYSTEM_COLUMN);
        GuardPolicy allowing = POLICY.toBuilder().allowSystemColumns(column).build();
        assertThat(GUARD.check(sql, allowing, Dialect.POSTGRESQL)).isInstanceOf(GuardVerdict.Accepted.class);
    }

    @ParameterizedTest
    @EnumSource(value = Dialect.class, names = {"SQLITE", "H2", "MARIADB"})
    void rowIdsAreSystemColumns(Dialect dialect) {
        String rowid = dialect == Dialect.SQLITE ? "rowid" : dialect == Dialect.H2 ? "_rowid_" : "_rowid";
        assertThat(types(check("SELECT " + rowid + " FROM dept", dialect))).contains(ViolationType.SYSTEM_COLUMN);
        GuardPolicy allowing = POLICY.toBuilder().allowSystemColumns(rowid).build();
        assertThat(GUARD.check("SELECT " + rowid + " FROM dept", allowing, dialect))
                .isInstanceOf(GuardVerdict.Accepted.class);
        // on a table with denied columns the row id may be the denied column: refused even when named
        assertThat(types(GUARD.check("SELECT " + rowid + " FROM emp", allowing, dialect)))
                .contains(ViolationType.COLUMN_DENIED);
    }

    @ParameterizedTest
    @EnumSource(value = Dialect.class, names = {"POSTGRESQL", "SQLITE", "H2", "MARIADB"})
    void namesThatResolveToNothingAreRefusedAsUnknownNotGuessed(Dialect dialect) {
        for (String sql : List.of("SELECT nme FROM emp", "SELECT d.nme FROM dept d", "SELECT x.name FROM emp e",
                "SELECT name FROM emp WHERE title = 'x'", "SELECT t FROM (SELECT name AS n FROM emp) s")) {
            GuardVerdict v = check(sql, dialect);
            assertThat(types(v)).as(sql).containsExactly(ViolationType.UNKNOWN_COLUMN);
            assertThat(((GuardVerdict.Rejected) v).violations().get(0).type().inventedName()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Dialect.class, names = {"POSTGRESQL", "SQLITE", "H2", "MARIADB"})
    void deniedColumnsAreFoundWhereverTheEngineResolvesThem(Dialect dialect) {
        for (String sql : List.of(
                "SELECT salary FROM emp",
                "SELECT d.title FROM dept d WHERE d.id IN (SELECT dept_id FROM emp WHERE salary > 10)",
                // a derived table cannot see its siblings: salary is the outer emp's, correlated
                "SELECT (SELECT max(salary) FROM dept) FROM emp",
                "SELECT d.title FROM emp e JOIN dept d ON d.id = e.dept_id AND salary > 5",
                "SELECT s FROM (SELECT salary AS s FROM emp) x",
                "WITH w(s) AS (SELECT salary FROM emp) SELECT s FROM w",
                "SELECT name FROM emp ORDER BY salary",
                "SELECT name FROM emp GROUP BY name HAVING max(salary) > 1")) {
            assertThat(types(check(sql, dialect))).as(sql).contains(ViolationType.COLUMN_DENIED);
        }
    }

    @Test
    void anOnConditionSeesOnlyTheItemsJoinedSoFarAsTheEngineDoes() {
        // PostgreSQL reads the unqualified salary in the first ON as the outer emp's, not the later dept's
        String sql = "SELECT 1 FROM emp WHERE EXISTS (SELECT 1 FROM orders o JOIN orders p ON salary > 0 "
                + "JOIN dept ON dept.id = 1)";
        assertThat(types(check(sql, Dialect.POSTGRESQL))).contains(ViolationType.COLUMN_DENIED);
    }

    @ParameterizedTest
    @EnumSource(value = Dialect.class, names = {"POSTGRESQL", "SQLITE", "H2", "MARIADB"})
    void legitimateScopingIsAccepted(Dialect dialect) {
        for (String sql : List.of(
                "SELECT e.name, d.title FROM emp e JOIN dept d ON d.id = e.dept_id",
                "SELECT name AS n FROM emp ORDER BY n",
                "SELECT dept_id AS d, count(*) AS c FROM emp GROUP BY dept_id ORDER BY c DESC",
                "SELECT name FROM emp e WHERE EXISTS (SELECT 1 FROM dept d WHERE d.id = e.dept_id)",
                "SELECT t.n FROM (SELECT name AS n, id FROM emp) t WHERE t.id > 2",
                "WITH c AS (SELECT dept_id, count(*) AS n FROM emp GROUP BY dept_id) SELECT d.title, c.n "
                        + "FROM c JOIN dept d ON d.id = c.dept_id",
                "WITH RECURSIVE r(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM r WHERE k < 5) SELECT k FROM r",
                "SELECT name FROM emp UNION SELECT title FROM dept ORDER BY name",
                "SELECT e.name FROM emp e JOIN dept USING (id)",
                "SELECT count(*) FROM emp",
                "SELECT id FROM dept d WHERE id IN (SELECT dept_id FROM emp)")) {
            assertThat(check(sql, dialect)).as(sql).isInstanceOf(GuardVerdict.Accepted.class);
        }
    }

    @Test
    void filteredAggregatesAndOrderedSetAggregatesAreNotStars() {
        assertThat(check("SELECT count(*) FILTER (WHERE dept_id = 1) FROM emp", Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(check("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY id) FROM emp", Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Accepted.class);
    }

    @Test
    void sqliteAndMariaDbReadADoubleQuotedNameNoColumnHasAsAString() {
        assertThat(check("SELECT name FROM emp WHERE name = \"Alice\"", Dialect.SQLITE))
                .isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(check("SELECT name FROM emp WHERE name = \"Alice\"", Dialect.MARIADB))
                .isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(types(check("SELECT name FROM emp WHERE name = \"Alice\"", Dialect.POSTGRESQL)))
                .containsExactly(ViolationType.UNKNOWN_COLUMN);
        // and a double-quoted name a column has is that column, checked as one
        assertThat(types(check("SELECT \"salary\" FROM emp", Dialect.SQLITE))).contains(ViolationType.COLUMN_DENIED);
    }

    @Test
    void theRowFilterNamesOnlyTheColumnsTheStatementReads() {
        GuardVerdict v = check("SELECT o.amount FROM orders o WHERE o.emp_id = 3", Dialect.POSTGRESQL);
        assertThat(v).isInstanceOf(GuardVerdict.Accepted.class);
        String sql = ((GuardVerdict.Accepted) v).statement().sql();
        assertThat(sql).contains("(SELECT orders.amount, orders.emp_id FROM orders WHERE orders.region = ?) AS o")
                .doesNotContain("*");
        GuardVerdict count = check("SELECT count(*) FROM orders", Dialect.POSTGRESQL);
        assertThat(((GuardVerdict.Accepted) count).statement().sql()).contains("SELECT orders.region FROM orders");
    }

    @Test
    void theAcceptedVerdictSaysWhichColumnsEachTableIsReadFor() {
        GuardVerdict v = check("SELECT e.name, d.title FROM emp e JOIN dept d ON d.id = e.dept_id", Dialect.H2);
        assertThat(((GuardVerdict.Accepted) v).columns())
                .containsExactlyInAnyOrder("emp.name", "emp.dept_id", "dept.title", "dept.id");
    }

    @Test
    void mariaDbHintsAndOperatorsAreAccepted() {
        for (String sql : List.of(
                "SELECT STRAIGHT_JOIN e.name FROM emp e JOIN dept d ON d.id = e.dept_id",
                "SELECT SQL_NO_CACHE name FROM emp",
                "SELECT name FROM emp USE INDEX (PRIMARY) WHERE id > 1",
                "SELECT name FROM emp FORCE INDEX (PRIMARY) WHERE id > 1",
                "SELECT name FROM emp WHERE id = 1 || id = 2",
                "WITH c (n) AS (SELECT name FROM emp) SELECT n FROM c",
                "WITH RECURSIVE r (k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM r WHERE k < 5) SELECT k FROM r")) {
            assertThat(check(sql, Dialect.MARIADB)).as(sql).isInstanceOf(GuardVerdict.Accepted.class);
        }
    }

    @Test
    void aFunctionTheEngineLacksIsAnInventedNameWithTheEnginesEquivalent() {
        GuardVerdict v = check("SELECT year(name) FROM emp", Dialect.SQLITE);
        assertThat(types(v)).containsExactly(ViolationType.UNKNOWN_FUNCTION);
        Violation x = ((GuardVerdict.Rejected) v).violations().get(0);
        assertThat(x.type().inventedName()).isTrue();
        assertThat(x.message()).contains("; use ").contains("strftime");
        // a function the engine has and the policy refuses stays a violation
        assertThat(types(check("SELECT query_to_xml('select 1', true, true, '') FROM dept", Dialect.POSTGRESQL)))
                .containsExactly(ViolationType.FUNCTION_NOT_ALLOWED);
        assertThat(types(check("SELECT GROUP_CONCAT(name) FROM emp", Dialect.POSTGRESQL)))
                .containsExactly(ViolationType.UNKNOWN_FUNCTION);
        assertThat(check("SELECT GROUP_CONCAT(name SEPARATOR ',') FROM emp", Dialect.MARIADB))
                .isInstanceOf(GuardVerdict.Accepted.class);
    }
}
