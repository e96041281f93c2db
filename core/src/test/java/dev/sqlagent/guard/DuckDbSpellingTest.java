package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * DuckDB syntax the parser does not read ({@code DuckDbSpelling}): integer division {@code //}, lambdas
 * {@code lambda x: …}, {@code USING SAMPLE} and struct literals. Accepted statements must give, run as the
 * guard prints them, exactly what the original gives on a real DuckDB; names inside them are checked like any
 * other (a lambda's parameter is not a column, a column in a lambda's body is); what does not fit the grammar
 * is refused with its reason.
 */
class DuckDbSpellingTest {

    private static final SqlGuard GUARD = SqlGuard.create();

    private static final GuardPolicy POLICY = GuardPolicy.builder()
            .allowTables("people")
            .tableColumns("people", List.of("id", "name", "dept", "score", "salary", "tags"))
            .denyColumn("people", "salary")
            .build();

    private static DuckDbMemory db;

    @BeforeAll
    static void open() throws SQLException {
        db = DuckDbMemory.open("CREATE TABLE people (id INTEGER, name VARCHAR, dept VARCHAR, score INTEGER, "
                        + "salary INTEGER, tags VARCHAR[])",
                "INSERT INTO people VALUES (1, 'Ann', 'ops', 73, 9000, ['a', 'b']), "
                        + "(2, 'Bo', 'dev', 58, 7000, ['c']), (3, 'Cy', 'dev', 91, 8000, [])");
    }

    @AfterAll
    static void close() throws SQLException {
        db.close();
    }

    /** Accepted, and the SQL the guard would run answers exactly as the statement itself does. */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT name, score // 10 AS tens FROM people ORDER BY id",
            "SELECT name FROM people WHERE score // 10 = 7 OR -score // 3 < -25 ORDER BY id",
            "SELECT {'name': name, 'dept': dept} AS s FROM people ORDER BY id",
            "SELECT {name: name, 'the score': score // 2} AS s FROM people ORDER BY id",
            "SELECT {'outer': {'inner': id}} AS s FROM people ORDER BY id",
            "SELECT list_transform([1, 2, 3], lambda x: x + 1) AS l FROM people ORDER BY id",
            "SELECT list_transform([1, 2, 3], lambda x: x // 2) AS l",
            "SELECT list_sum(list_transform(list(score), lambda s: s // 10)) AS tens FROM people",
            "SELECT list_filter([1, 2, 3, 4], lambda x: x % 2 = 0) AS evens, name FROM people ORDER BY id",
            "SELECT name, list_transform([score, id], lambda x: x * 2) AS doubled FROM people ORDER BY id",
            "SELECT list_transform([10, 20], lambda x, i: x + i + score) AS l FROM people ORDER BY id",
            "SELECT list_transform(tags, lambda t: upper(t)) AS l FROM people ORDER BY id",
            "SELECT list_transform([1], lambda x: list_transform([2], lambda y: x + y + id)) AS l FROM people ORDER BY id",
            "SELECT list_reduce([1, 2, 3], lambda a, b: a + b) AS s, name FROM people ORDER BY id",
            "SELECT list_transform([1, 2], lambda salary: salary * 2) AS l FROM people ORDER BY id",
            "SELECT list_transform([{'k': 1}], lambda r: r.k) AS l FROM people ORDER BY id",
            "SELECT name FROM people USING SAMPLE 100%",
            "SELECT count(*) AS n FROM people USING SAMPLE 10 ROWS",
            "SELECT count(*) AS n FROM people USING SAMPLE 3",
            "SELECT count(*) AS n FROM people USING SAMPLE 100 PERCENT (bernoulli, 42)",
            "SELECT count(*) AS n FROM people USING SAMPLE reservoir(2 ROWS) REPEATABLE (7)",
            "SELECT dept, count(*) AS n FROM people WHERE score > 0 GROUP BY dept USING SAMPLE 100% ORDER BY dept",
            "SELECT n FROM (SELECT count(*) AS n FROM people USING SAMPLE 2 ROWS) t",
            "SELECT name FROM people WHERE id = 1 UNION ALL SELECT name FROM people WHERE id = 2 USING SAMPLE 100% "
                    + "ORDER BY 1",
            "SELECT list_transform([score], lambda x: x // 10) AS l, {'n': name} AS s FROM people USING SAMPLE 100% "
                    + "ORDER BY id"})
    void acceptedAndRunsAsTheStatementItselfDoes(String sql) throws SQLException {
        GuardVerdict v = GUARD.check(sql, POLICY, Dialect.DUCKDB);
        assertThat(v).as("%s", v).isInstanceOf(GuardVerdict.Accepted.class);
        String run = ((GuardVerdict.Accepted) v).statement().sql();
        assertThat(rows(run)).as("%s run as %s", sql, run).isEqualTo(rows(sql));
        // the engine check reads the same statement within the policy (a lambda's parameter is no column)
        assertThat(db.disagreements(((GuardVerdict.Accepted) v).statement(), POLICY)).as("the engine's reading of %s",
                run).isEmpty();
    }

    /** The engine check alone (the guard bypassed) refuses a denied column read through the same forms. */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT list_transform([1], lambda x: x + salary) AS l FROM people",
            "SELECT list_transform([1], lambda people: people.salary) AS l FROM people",
            "SELECT list_transform([1], lambda x: list_transform([2], lambda y: y + salary)) AS l FROM people",
            "SELECT {'s': salary} AS s FROM people",
            "SELECT salary // 1000 AS k FROM people",
            "SELECT name FROM people WHERE salary > 8000 USING SAMPLE 100%",
            "SELECT r.range FROM range(3) r JOIN people p ON p.salary // 1000 = r.range",
            "SELECT salary FROM range(3) r(salary), people"})
    void theEngineCheckAloneRefusesADeniedColumnInTheseForms(String sql) throws SQLException {
        assertThat(String.join(" | ", db.disagreements(new dev.sqlagent.execution.SqlStatement(sql, List.of()),
                POLICY))).as(sql).contains("salary");
    }

    /** Names inside the new syntax are checked like any other; a misfit is refused, saying why. */
    @Test
    void namesInsideAreCheckedAndMisfitsRefused() {
        List<String> why = new ArrayList<>();
        for (String sql : List.of(
                // a denied column in a lambda's body, in a struct, beside a sample, in a division
                "SELECT list_transform([1], lambda x: x + salary) AS l FROM people",
                "SELECT list_transform([1], lambda people: people.salary) AS l FROM people",
                "SELECT {'s': salary} AS s FROM people",
                "SELECT salary // 1000 AS k FROM people",
                "SELECT name FROM people WHERE salary > 8000 USING SAMPLE 100%",
                "SELECT list_transform([1], lambda x: y) AS l FROM people",
                // the arrow: DuckDB may read it as JSON extraction over a column
                "SELECT list_transform([1], x -> x + 1) AS l FROM people",
                "SELECT length(salary -> '$') FROM people",
                "SELECT list_transform([1], lambda x: x) AS l, name -> '$' FROM people",
                // div as a name beside //
                "SELECT score // 2 AS div FROM people",
                // braces that are no struct literal (JDBC escapes)
                "SELECT {fn abs(score)} FROM people",
                "SELECT {d '2024-01-01'} FROM people",
                "SELECT {} FROM people",
                // comment openers next to //
                "SELECT score ///* x */ 2 FROM people",
                // samples outside the grammar or its bounds
                "SELECT name FROM people USING SAMPLE 2000000 ROWS",
                "SELECT name FROM people USING SAMPLE 101%",
                "SELECT name FROM people USING SAMPLE 1e3 ROWS",
                "SELECT name FROM people USING SAMPLE 10% (everything)",
                "SELECT name FROM people USING SAMPLE reservoir(10%) REPEATABLE ('x')",
                "SELECT name FROM people USING SAMPLE (SELECT 1)",
                "SELECT name FROM people USING SAMPLE 10 JOIN people q ON q.id = people.id",
                // the guard's own marker
                "SELECT name FROM people INTO TEMP sqlagent_sample_0",
                "SELECT sqlagent_sample_0 FROM people")) {
            GuardVerdict v = GUARD.check(sql, POLICY, Dialect.DUCKDB);
            assertThat(v).as("%s", sql).isNotInstanceOf(GuardVerdict.Accepted.class);
            why.add(v instanceof GuardVerdict.Rejected r ? r.violations().get(0).type() + ": " + sql
                    : "UNPARSEABLE: " + sql);
        }
        assertThat(why).containsExactly(
                "COLUMN_DENIED: SELECT list_transform([1], lambda x: x + salary) AS l FROM people",
                "COLUMN_DENIED: SELECT list_transform([1], lambda people: people.salary) AS l FROM people",
                "COLUMN_DENIED: SELECT {'s': salary} AS s FROM people",
                "COLUMN_DENIED: SELECT salary // 1000 AS k FROM people",
                "COLUMN_DENIED: SELECT name FROM people WHERE salary > 8000 USING SAMPLE 100%",
                "UNKNOWN_COLUMN: SELECT list_transform([1], lambda x: y) AS l FROM people",
                "UNSUPPORTED_CONSTRUCT: SELECT list_transform([1], x -> x + 1) AS l FROM people",
                "COLUMN_DENIED: SELECT length(salary -> '$') FROM people",
                "UNSUPPORTED_CONSTRUCT: SELECT list_transform([1], lambda x: x) AS l, name -> '$' FROM people",
                "UNSUPPORTED_CONSTRUCT: SELECT score // 2 AS div FROM people",
                "SUSPICIOUS_CHARACTER: SELECT {fn abs(score)} FROM people",
                "SUSPICIOUS_CHARACTER: SELECT {d '2024-01-01'} FROM people",
                "SUSPICIOUS_CHARACTER: SELECT {} FROM people",
                "COMMENT: SELECT score ///* x */ 2 FROM people",
                "UNSUPPORTED_CONSTRUCT: SELECT name FROM people USING SAMPLE 2000000 ROWS",
                "UNSUPPORTED_CONSTRUCT: SELECT name FROM people USING SAMPLE 101%",
                "UNSUPPORTED_CONSTRUCT: SELECT name FROM people USING SAMPLE 1e3 ROWS",
                "UNSUPPORTED_CONSTRUCT: SELECT name FROM people USING SAMPLE 10% (everything)",
                "UNSUPPORTED_CONSTRUCT: SELECT name FROM people USING SAMPLE reservoir(10%) REPEATABLE ('x')",
                "UNSUPPORTED_CONSTRUCT: SELECT name FROM people USING SAMPLE (SELECT 1)",
                "UNPARSEABLE: SELECT name FROM people USING SAMPLE 10 JOIN people q ON q.id = people.id",
                "UNSUPPORTED_CONSTRUCT: SELECT name FROM people INTO TEMP sqlagent_sample_0",
                "UNSUPPORTED_CONSTRUCT: SELECT sqlagent_sample_0 FROM people");
    }

    /** The spellings are DuckDB's alone: on the other engines nothing changes. */
    @Test
    void otherDialectsKeepTheirReading() {
        GuardPolicy pg = GuardPolicy.builder().allowTables("people")
                .tableColumns("people", List.of("id", "name", "score")).build();
        assertThat(GUARD.check("SELECT score // 2 FROM people", pg, Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Rejected.class);
        assertThat(GUARD.check("SELECT {'a': name} FROM people", pg, Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Rejected.class);
        assertThat(GUARD.check("SELECT list_transform(ARRAY[1], lambda x: x) FROM people", pg, Dialect.POSTGRESQL))
                .isNotInstanceOf(GuardVerdict.Accepted.class);
        assertThat(GUARD.check("SELECT name FROM people USING SAMPLE 10%", pg, Dialect.POSTGRESQL))
                .isNotInstanceOf(GuardVerdict.Accepted.class);
    }

    /** Every row as text, in order; a sample of 100 % or of more rows than there are is the whole input. */
    private static List<String> rows(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = db.connection().createStatement(); ResultSet r = s.executeQuery(sql)) {
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(r.getString(i)).append('|');
                }
                out.add(row.toString());
            }
        }
        if (sql.contains("USING SAMPLE") && !sql.contains("ORDER BY")) {
            java.util.Collections.sort(out);
        }
        return out;
    }
}
