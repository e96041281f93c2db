package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code JSON_OBJECT(…)} and {@code JSON_ARRAY(…)}, which JSqlParser reads as a node of its own
 * ({@code JsonFunction}): analysed like a call of the function (the function policy decides it), every key and
 * value walked, only the forms the engine reads alike. Accepted statements run, as the guard prints them, on
 * the engines of {@link HostileFixture} and answer exactly as the statement itself does; a denied column, a
 * forbidden table, a probe or a form the guard does not read, inside one, is refused.
 */
class JsonFunctionGuardTest {

    private static final SqlGuard GUARD = SqlGuard.create();

    static Stream<Arguments> accepted() {
        List<Arguments> out = new ArrayList<>();
        for (String sql : List.of(
                "SELECT JSON_OBJECT('name', name, 'dept', dept) AS j FROM people",
                "SELECT json_object('name', name, 'dept', dept) AS j FROM people",
                "SELECT JSON_OBJECT() AS j FROM people WHERE id = 1",
                "SELECT JSON_OBJECT('n', score + 1, 'u', UPPER(name), 'c', CASE WHEN score > 50 THEN 'hi' ELSE 'lo' END)"
                        + " AS j FROM people",
                "SELECT JSON_OBJECT('inner', JSON_OBJECT('id', id), 'list', JSON_ARRAY(name, dept)) AS j FROM people",
                "SELECT JSON_ARRAY(name, score, NULL) AS a FROM people",
                "SELECT JSON_ARRAY() AS a FROM people WHERE id = 2",
                "SELECT JSON_OBJECT(name, score) AS j FROM people",
                "SELECT JSON_OBJECT('it''s', name) AS j FROM people",
                "SELECT dept, JSON_OBJECT('n', COUNT(*), 'top', MAX(score)) AS j FROM people GROUP BY dept",
                "SELECT JSON_OBJECT('k', (SELECT MAX(score) FROM people)) AS j",
                "SELECT p.name, JSON_OBJECT('kind', k.kind, 'age', k.age) AS j FROM people p JOIN pets k ON k.id = p.id",
                "SELECT name FROM people WHERE JSON_ARRAY(dept) = JSON_ARRAY('eng')")) {
            out.add(Arguments.of(Dialect.MARIADB, sql));
            out.add(Arguments.of(Dialect.SQLITE, sql));
        }
        // MariaDB reads a backslash in a string as an escape: the key is respelled for both settings
        out.add(Arguments.of(Dialect.MARIADB, "SELECT JSON_OBJECT('a\\', ssn, ', 1) AS j FROM people"));
        out.add(Arguments.of(Dialect.MARIADB, "SELECT JSON_OBJECT('tab\\there', name) AS j FROM people"));
        // H2's JSON_OBJECT is the standard's: 'k' : v, [KEY] 'k' VALUE v, ON NULL, UNIQUE KEYS
        out.add(Arguments.of(Dialect.H2, "SELECT JSON_OBJECT('name': name, 'dept': dept) AS j FROM people"));
        out.add(Arguments.of(Dialect.H2, "SELECT JSON_OBJECT(KEY 'name' VALUE name, 'city' VALUE city ABSENT ON NULL "
                + "WITH UNIQUE KEYS) AS j FROM people"));
        out.add(Arguments.of(Dialect.H2, "SELECT JSON_ARRAY(name, dept NULL ON NULL) AS a FROM people"));
        out.add(Arguments.of(Dialect.H2, "SELECT JSON_OBJECT() AS j FROM people WHERE id = 1"));
        // PostgreSQL 15's json_object is a function over text arrays
        out.add(Arguments.of(Dialect.POSTGRESQL, "SELECT json_object('{a,b}', '{1,2}') AS j FROM people WHERE id = 1"));
        out.add(Arguments.of(Dialect.POSTGRESQL, "SELECT json_object('{a,1,b,2}') AS j FROM people WHERE id = 1"));
        return out.stream();
    }

    /** Accepted, and the SQL the guard runs answers exactly as the statement itself does. */
    @ParameterizedTest
    @MethodSource("accepted")
    void acceptedAndRunsAsTheStatementItselfDoes(Dialect d, String sql) throws Exception {
        GuardVerdict v = GUARD.check(sql, HostileFixture.policy(d, FunctionPolicy.standard()), d);
        assertThat(v).as("%s: %s", d, v).isInstanceOf(GuardVerdict.Accepted.class);
        GuardVerdict.Accepted a = (GuardVerdict.Accepted) v;
        try (Connection c = HostileFixture.twins(d).a().getConnection()) {
            HostileFullPath.Raw direct = HostileFullPath.raw(c, sql, List.of());
            HostileFullPath.Raw guarded = HostileFullPath.raw(c, a.statement().sql(), a.statement().parameters());
            assertThat(direct.error()).as("%s on %s itself", sql, d).isNull();
            assertThat(guarded.error()).as("%s run as %s", sql, a.statement().sql()).isNull();
            if (!sql.contains("pets")) {
                // pets has a row filter: its rows differ by design
                assertThat(guarded.rows()).as("%s run as %s", sql, a.statement().sql()).isEqualTo(direct.rows());
            }
            assertThat(guarded.rows()).isNotEmpty();
        }
        if (d == Dialect.MARIADB) {
            assertThat(a.statement().sql()).as("read alike whatever NO_BACKSLASH_ESCAPES says").doesNotContain("\\");
        }
    }

    static Stream<Arguments> refused() {
        List<Arguments> out = new ArrayList<>();
        for (Dialect d : List.of(Dialect.MARIADB, Dialect.SQLITE, Dialect.H2, Dialect.POSTGRESQL, Dialect.DUCKDB)) {
            for (String sql : List.of(
                    "SELECT JSON_OBJECT('s', ssn) AS j FROM people",
                    "SELECT JSON_OBJECT(ssn, 1) AS j FROM people",
                    "SELECT JSON_OBJECT('s', (SELECT MAX(salary) FROM people)) AS j",
                    "SELECT JSON_OBJECT('a', 1, 'b', JSON_OBJECT('c', salary)) AS j FROM people",
                    "SELECT JSON_ARRAY(name, salary) AS a FROM people",
                    "SELECT JSON_OBJECT('c', code) AS j FROM secrets",
                    "SELECT JSON_OBJECT('c', card) AS j FROM orders",
                    "SELECT JSON_OBJECT('r', p) AS j FROM people p",
                    "SELECT JSON_OBJECT(*) AS j FROM people",
                    "SELECT JSON_OBJECT(p.*) AS j FROM people p",
                    "SELECT JSON_OBJECT('s', name FORMAT JSON) AS j FROM people",
                    "SELECT JSON_OBJECT('s', name RETURNING VARCHAR) AS j FROM people",
                    "SELECT JSON_OBJECT('s', name STRICT) AS j FROM people",
                    "SELECT JSON_OBJECT(N's', name) AS j FROM people",
                    "SELECT JSON_OBJECT('a', name) AS j FROM people WHERE ssn = 'x'")) {
                out.add(Arguments.of(d, sql));
            }
        }
        // forms the engine does not read as the parser does: refused where the engine has no such syntax
        for (Dialect d : List.of(Dialect.MARIADB, Dialect.SQLITE, Dialect.DUCKDB)) {
            out.add(Arguments.of(d, "SELECT JSON_OBJECT('s' : name) AS j FROM people"));
            out.add(Arguments.of(d, "SELECT JSON_OBJECT('s' VALUE name) AS j FROM people"));
            out.add(Arguments.of(d, "SELECT JSON_OBJECT('s', name ABSENT ON NULL) AS j FROM people"));
            out.add(Arguments.of(d, "SELECT JSON_ARRAY(name NULL ON NULL) AS a FROM people"));
            out.add(Arguments.of(d, "SELECT JSON_OBJECT('s', name WITH UNIQUE KEYS) AS j FROM people"));
        }
        out.add(Arguments.of(Dialect.POSTGRESQL, "SELECT JSON_OBJECT(KEY 's' VALUE name) AS j FROM people"));
        out.add(Arguments.of(Dialect.MARIADB, "SELECT JSON_OBJECT('u', USER()) AS j"));
        out.add(Arguments.of(Dialect.MARIADB, "SELECT JSON_OBJECT('a', name) AS j FROM people INTO OUTFILE '/tmp/j'"));
        out.add(Arguments.of(Dialect.MARIADB, "SELECT JSON_OBJECT('a', name) AS j FROM people FOR UPDATE"));
        out.add(Arguments.of(Dialect.SQLITE, "SELECT json_object('v', sqlite_version()) AS j"));
        out.add(Arguments.of(Dialect.POSTGRESQL, "SELECT JSON_OBJECT('u', current_user) AS j"));
        return out.stream();
    }

    /** Refused, or unparseable: never run. */
    @ParameterizedTest
    @MethodSource("refused")
    void deniedNamesProbesAndUnreadFormsAreRefused(Dialect d, String sql) {
        GuardVerdict v = GUARD.check(sql, HostileFixture.policy(d, FunctionPolicy.standard()), d);
        assertThat(v).as("%s: %s", d, v).isNotInstanceOf(GuardVerdict.Accepted.class);
    }

    /** With the table's columns known, a name inside is resolved like any other: an unknown one is refused. */
    @Test
    void namesInsideAreResolvedInTheClosedWorld() {
        for (Dialect d : List.of(Dialect.MARIADB, Dialect.SQLITE, Dialect.H2, Dialect.DUCKDB)) {
            GuardPolicy closed = GuardPolicy.builder().allowTables("people")
                    .tableColumns("people", List.of("id", "name", "dept", "ssn")).denyColumn("people", "ssn").build();
            assertThat(GUARD.check("SELECT JSON_ARRAY(name, dept) AS a FROM people", closed, d)).as("%s", d)
                    .isInstanceOf(GuardVerdict.Accepted.class);
            for (String sql : List.of("SELECT JSON_OBJECT('x', nosuch) AS j FROM people",
                    "SELECT JSON_OBJECT(nosuch, 1) AS j FROM people", "SELECT JSON_ARRAY(ssn) AS a FROM people")) {
                GuardVerdict v = GUARD.check(sql, closed, d);
                assertThat(v).as("%s %s: %s", d, sql, v).isInstanceOf(GuardVerdict.Rejected.class);
            }
        }
    }

    /** The function policy decides JSON_OBJECT like any call. */
    @Test
    void theFunctionPolicyDecidesIt() {
        for (Dialect d : List.of(Dialect.MARIADB, Dialect.SQLITE, Dialect.H2, Dialect.DUCKDB)) {
            GuardPolicy only = HostileFixture.policy(d, FunctionPolicy.allowOnly("upper"));
            GuardVerdict v = GUARD.check("SELECT JSON_OBJECT('n', name) AS j FROM people", only, d);
            assertThat(v).as("%s: %s", d, v).isInstanceOf(GuardVerdict.Rejected.class);
            assertThat(((GuardVerdict.Rejected) v).violations()).extracting(Violation::type)
                    .as("%s", d).contains(ViolationType.FUNCTION_NOT_ALLOWED);
            GuardVerdict arr = GUARD.check("SELECT JSON_ARRAY(name) AS a FROM people", only, d);
            assertThat(arr).as("%s: %s", d, arr).isInstanceOf(GuardVerdict.Rejected.class);
        }
        // PostgreSQL has no json_array function (its catalog says so): an invented name, corrected, never run
        GuardVerdict pg = GUARD.check("SELECT JSON_ARRAY(name) AS a FROM people",
                HostileFixture.policy(Dialect.POSTGRESQL, FunctionPolicy.standard()), Dialect.POSTGRESQL);
        assertThat(pg).isInstanceOf(GuardVerdict.Rejected.class);
        assertThat(((GuardVerdict.Rejected) pg).violations()).extracting(Violation::type)
                .contains(ViolationType.UNKNOWN_FUNCTION);
    }

    /** A JSON value is sized like the call it is when it feeds a function that multiplies its argument. */
    @Test
    void aJsonValueFeedingRepeatIsSized() {
        GuardPolicy p = HostileFixture.policy(Dialect.MARIADB, FunctionPolicy.standard());
        GuardVerdict v = GUARD.check("SELECT REPEAT(JSON_OBJECT('a', REPEAT('x', 2000)), 1000) AS r", p,
                Dialect.MARIADB);
        assertThat(v).as("%s", v).isInstanceOf(GuardVerdict.Rejected.class);
        assertThat(((GuardVerdict.Rejected) v).violations()).extracting(Violation::type)
                .contains(ViolationType.RESOURCE_LIMIT);
    }
}
