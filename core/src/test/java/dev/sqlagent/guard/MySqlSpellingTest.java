package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MariaDB syntax the parser does not read ({@code MySqlSpelling}): select options in any order
 * ({@code HIGH_PRIORITY}, {@code SQL_SMALL_RESULT}, … which JSqlParser took for a column aliased by the next
 * name) and index hints for one use ({@code USE INDEX FOR JOIN (PRIMARY)}) or with an empty list. Accepted
 * statements run, as the guard prints them, on the real MariaDB of {@link HostileFixture} and answer exactly
 * as the statement itself does; the name after the options and every name around a hint are checked like any
 * other, so that a denied column, a forbidden table or a write is still refused.
 */
class MySqlSpellingTest {

    private static final SqlGuard GUARD = SqlGuard.create();

    private static GuardPolicy completed;

    /**
     * The policy as {@code SqlAgent} completes it from the MariaDB twin's catalog: with its indexes, so that
     * hints naming indexes ordered by allowed columns are accepted (without them every named hint on a table
     * with denied columns is refused).
     */
    private static synchronized GuardPolicy policy() {
        if (completed == null) {
            GuardPolicy base = HostileFixture.policy(Dialect.MARIADB, FunctionPolicy.standard());
            try {
                completed = dev.sqlagent.schema.SchemaCatalog.introspect(HostileFixture.twins(Dialect.MARIADB).a(), base)
                        .completePolicy(base);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        return completed;
    }

    /** Accepted, and the SQL the guard runs answers exactly as the statement itself does (people has no row filter). */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT HIGH_PRIORITY name FROM people WHERE id < 4",
            "SELECT SQL_BUFFER_RESULT name FROM people WHERE id < 5",
            "SELECT SQL_SMALL_RESULT dept, COUNT(*) AS n FROM people GROUP BY dept",
            "SELECT SQL_BIG_RESULT dept, COUNT(*) AS n FROM people GROUP BY dept",
            "SELECT SQL_NO_CACHE name FROM people WHERE score > 10",
            "SELECT SQL_CACHE name FROM people WHERE score > 10",
            "SELECT STRAIGHT_JOIN p.name, q.dept FROM people p JOIN people q ON q.id = p.id",
            "SELECT DISTINCT HIGH_PRIORITY dept FROM people",
            "SELECT HIGH_PRIORITY DISTINCT dept FROM people",
            "SELECT DISTINCTROW SQL_SMALL_RESULT dept FROM people",
            "SELECT ALL SQL_BUFFER_RESULT name FROM people",
            "select high_priority straight_join sql_small_result sql_big_result sql_buffer_result sql_no_cache name "
                    + "from people",
            "SELECT SQL_NO_CACHE DISTINCT STRAIGHT_JOIN dept FROM people",
            "SELECT HIGH_PRIORITY name, score FROM people ORDER BY score DESC LIMIT 3",
            "SELECT name FROM people WHERE id IN (SELECT SQL_SMALL_RESULT id FROM people WHERE score > 50)",
            "SELECT HIGH_PRIORITY name FROM people WHERE id < 3 UNION SELECT name FROM people WHERE id > 10",
            "WITH d AS (SELECT SQL_SMALL_RESULT dept FROM people) SELECT HIGH_PRIORITY dept FROM d",
            "SELECT p.name FROM people p USE INDEX FOR JOIN (PRIMARY) JOIN people q ON q.id = p.id",
            "SELECT name FROM people USE INDEX FOR ORDER BY (idx_people_dept) ORDER BY dept, name",
            "SELECT dept, COUNT(*) AS n FROM people FORCE INDEX FOR GROUP BY (idx_people_dept) GROUP BY dept",
            "SELECT name FROM people IGNORE KEY FOR JOIN (idx_people_dept, PRIMARY) WHERE dept = 'eng'",
            "SELECT name FROM people USE INDEX () WHERE dept = 'ops'",
            "SELECT name FROM people AS p use key for join () WHERE dept = 'ops'",
            "SELECT name FROM people FORCE INDEX (idx_people_dept) WHERE dept = 'sales'",
            "SELECT HIGH_PRIORITY p.name FROM people p USE INDEX FOR ORDER BY (PRIMARY) ORDER BY p.id"})
    void acceptedAndRunsAsTheStatementItselfDoes(String sql) throws Exception {
        GuardVerdict v = GUARD.check(sql, policy(), Dialect.MARIADB);
        assertThat(v).as("%s", v).isInstanceOf(GuardVerdict.Accepted.class);
        GuardVerdict.Accepted a = (GuardVerdict.Accepted) v;
        try (Connection c = HostileFixture.twins(Dialect.MARIADB).a().getConnection()) {
            HostileFullPath.Raw direct = HostileFullPath.raw(c, sql, List.of());
            HostileFullPath.Raw guarded = HostileFullPath.raw(c, a.statement().sql(), a.statement().parameters());
            assertThat(direct.error()).as("the statement itself on MariaDB").isNull();
            assertThat(guarded.error()).as("%s run as %s", sql, a.statement().sql()).isNull();
            assertThat(guarded.rows()).as("%s run as %s", sql, a.statement().sql()).isEqualTo(direct.rows())
                    .isNotEmpty();
        }
        // the options and the hint's purpose are printed back, never lost or moved to another block
        String upper = sql.toUpperCase(java.util.Locale.ROOT);
        for (String option : List.of("HIGH_PRIORITY", "SQL_SMALL_RESULT", "SQL_BIG_RESULT", "SQL_BUFFER_RESULT",
                "SQL_NO_CACHE", "SQL_CACHE ", "STRAIGHT_JOIN", "SQL_CALC_FOUND_ROWS", "FOR JOIN", "FOR ORDER BY",
                "FOR GROUP BY")) {
            assertThat(a.statement().sql().toUpperCase(java.util.Locale.ROOT).contains(option))
                    .as("%s printed as %s", option, a.statement().sql()).isEqualTo(upper.contains(option));
        }
        assertThat(a.statement().sql()).doesNotContainIgnoringCase(dev.sqlagent.engine.mariadb.MySqlSpelling.RESERVED)
                .doesNotContainIgnoringCase("SKIP");
    }

    /** A hint on a filtered table: the statement runs (the row filter's derived table carries it, checked). */
    @Test
    void aHintOnAJoinWithAFilteredTableRuns() throws Exception {
        String sql = "SELECT p.name, o.amount FROM people p USE INDEX FOR JOIN (PRIMARY) "
                + "JOIN orders o USE INDEX FOR JOIN (idx_orders_person) ON o.person_id = p.id";
        GuardVerdict v = GUARD.check(sql, policy(), Dialect.MARIADB);
        assertThat(v).as("%s", v).isInstanceOf(GuardVerdict.Accepted.class);
        GuardVerdict.Accepted a = (GuardVerdict.Accepted) v;
        assertThat(a.statement().sql()).contains("USE INDEX FOR JOIN (PRIMARY)").contains("tenant = ?");
        try (Connection c = HostileFixture.twins(Dialect.MARIADB).a().getConnection()) {
            HostileFullPath.Raw guarded = HostileFullPath.raw(c, a.statement().sql(), a.statement().parameters());
            assertThat(guarded.error()).as("%s", a.statement().sql()).isNull();
            assertThat(guarded.rows()).isNotEmpty();
        }
    }

    /** Lookalikes that would hide a denied column, a forbidden table or a write: still refused, saying why. */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT HIGH_PRIORITY ssn FROM people",
            "SELECT SQL_BUFFER_RESULT salary FROM people",
            "SELECT SQL_SMALL_RESULT DISTINCT ssn FROM people",
            "SELECT DISTINCT SQL_BIG_RESULT salary AS name FROM people",
            "SELECT SQL_CALC_FOUND_ROWS ssn FROM people",
            "SELECT SQL_CALC_FOUND_ROWS name FROM people WHERE id < 3",
            "SELECT STRAIGHT_JOIN HIGH_PRIORITY p.ssn FROM people p",
            "SELECT name FROM people WHERE id IN (SELECT HIGH_PRIORITY id FROM people WHERE salary > 0)",
            "SELECT SQL_BIG_RESULT * FROM people",
            "SELECT HIGH_PRIORITY code FROM secrets",
            "SELECT name FROM secrets USE INDEX FOR JOIN (PRIMARY)",
            "SELECT ssn FROM people USE INDEX FOR ORDER BY (idx_people_ssn) ORDER BY ssn",
            "SELECT name FROM people USE INDEX FOR JOIN (PRIMARY) WHERE salary > 100",
            "SELECT HIGH_PRIORITY name FROM people FOR UPDATE",
            "SELECT SQL_BUFFER_RESULT name FROM people INTO OUTFILE '/tmp/sqlagent_x'",
            "SELECT HIGH_PRIORITY name FROM people LOCK IN SHARE MODE",
            // the markers' names are the guard's own
            "SELECT name AS sqlagent_opts_0 FROM people",
            "SELECT name FROM people USE INDEX (sqlagent_hint_0)",
            "SELECT `sqlagent_opts_1` FROM people",
            "SELECT ALL DISTINCT HIGH_PRIORITY name FROM people"})
    void lookalikesAreRefused(String sql) {
        GuardVerdict v = GUARD.check(sql, policy(), Dialect.MARIADB);
        // rejected, or unparseable (never run)
        assertThat(v).as("%s", v).isNotInstanceOf(GuardVerdict.Accepted.class);
    }

    /** The options are read as MariaDB reads them: a run of them and nothing else does not parse. */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT HIGH_PRIORITY FROM people",
            "SELECT sql_buffer_result FROM people",
            "SELECT SQL_SMALL_RESULT, name FROM people"})
    void optionsWithoutASelectListAreASyntaxError(String sql) {
        GuardVerdict v = GUARD.check(sql, policy(), Dialect.MARIADB);
        assertThat(v).as("%s", v).isNotInstanceOf(GuardVerdict.Accepted.class);
    }

    /** Engines without these options keep their reading: on H2 HIGH_PRIORITY is a column, aliased name. */
    @Test
    void otherDialectsKeepTheirReading() {
        GuardVerdict v = GUARD.check("SELECT HIGH_PRIORITY name FROM people",
                HostileFixture.policy(Dialect.H2, FunctionPolicy.standard()), Dialect.H2);
        assertThat(v).as("%s", v).isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(((GuardVerdict.Accepted) v).columns()).contains("people.high_priority").doesNotContain("people.name");
        GuardVerdict closed = GUARD.check("SELECT HIGH_PRIORITY name FROM people", GuardPolicy.builder()
                .allowTables("people").tableColumns("people", List.of("id", "name")).build(), Dialect.H2);
        assertThat(closed).as("%s", closed).isInstanceOf(GuardVerdict.Rejected.class);
        assertThat(((GuardVerdict.Rejected) closed).violations()).extracting(Violation::type)
                .contains(ViolationType.UNKNOWN_COLUMN);
    }

    /** With the table's columns known, the name after the options is resolved like any other. */
    @Test
    void theNameAfterTheOptionsIsResolved() {
        GuardPolicy closed = GuardPolicy.builder().allowTables("people")
                .tableColumns("people", List.of("id", "name", "dept", "ssn")).denyColumn("people", "ssn").build();
        assertThat(GUARD.check("SELECT HIGH_PRIORITY SQL_SMALL_RESULT name FROM people", closed, Dialect.MARIADB))
                .isInstanceOf(GuardVerdict.Accepted.class);
        for (String sql : List.of("SELECT HIGH_PRIORITY nosuch FROM people", "SELECT SQL_BUFFER_RESULT ssn FROM people",
                "SELECT name FROM people USE INDEX FOR JOIN (PRIMARY) WHERE nosuch = 1")) {
            GuardVerdict v = GUARD.check(sql, closed, Dialect.MARIADB);
            assertThat(v).as("%s: %s", sql, v).isInstanceOf(GuardVerdict.Rejected.class);
        }
    }
}
