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
 * DuckDB's {@code GLOB} and open slices {@code x[a:]} ({@code DuckDbSpelling}): respelled for the parser and back.
 * Accepted statements answer, as the guard prints them, exactly as the original does, and the engine check reads
 * them within the policy; misfits are refused with a reason; a denied column inside is refused.
 */
class DuckDbGlobSliceSpellingTest {

    private static final SqlGuard GUARD = SqlGuard.create();

    private static final GuardPolicy POLICY = GuardPolicy.builder()
            .allowTables("people")
            .tableColumns("people", List.of("id", "name", "salary", "tags"))
            .denyColumn("people", "salary")
            .build();

    private static DuckDbMemory db;

    @BeforeAll
    static void open() throws SQLException {
        db = DuckDbMemory.open("CREATE TABLE people (id INTEGER, name VARCHAR, salary VARCHAR, tags VARCHAR[])",
                "INSERT INTO people VALUES (1, 'ann', 's1', ['a', 'b', 'c']), (2, 'Bob', 's2', ['c']), "
                        + "(3, 'eve', 's3', [])");
    }

    @AfterAll
    static void close() throws SQLException {
        db.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT name FROM people WHERE name GLOB '[aeiou]*' ORDER BY name",
            "SELECT name FROM people WHERE name NOT GLOB '[aeiou]*' ORDER BY name",
            "SELECT name, lower(name) GLOB 'b*' AS b FROM people ORDER BY id",
            "SELECT name[1:2] AS c FROM people ORDER BY id"})
    void acceptedAndRunsAsTheStatementItselfDoes(String sql) throws SQLException {
        GuardVerdict v = GUARD.check(sql, POLICY, Dialect.DUCKDB);
        assertThat(v).as("%s", v).isInstanceOf(GuardVerdict.Accepted.class);
        String run = ((GuardVerdict.Accepted) v).statement().sql();
        assertThat(run).doesNotContainIgnoringCase("match_all").doesNotContainIgnoringCase("sqlagent_");
        assertThat(rows(run)).as("%s run as %s", sql, run).isEqualTo(rows(sql)).isNotEmpty();
        assertThat(db.disagreements(((GuardVerdict.Accepted) v).statement(), POLICY)).as("the engine's reading of %s",
                run).isEmpty();
        GuardVerdict again = GUARD.check(run, POLICY, Dialect.DUCKDB);
        assertThat(again).as("%s", again).isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(((GuardVerdict.Accepted) again).statement().sql()).isEqualTo(run);
    }

    @Test
    void misfitsAndDeniedReadsAreRefused() {
        for (String sql : List.of(
                "SELECT name FROM people WHERE salary GLOB 's*'",
                "SELECT name FROM people WHERE name GLOB (SELECT max(x) FROM other)",
                "SELECT salary[2:] AS s FROM people",
                "SELECT name[(SELECT count(*) FROM other):] AS s FROM people",
                "SELECT name[length(salary):] AS s FROM people",
                "SELECT name || 'x' GLOB 'a*' FROM people",
                "SELECT sqlagent_slice_end FROM people",
                "SELECT name MATCH_ALL 'x' FROM people",
                "SELECT [1, 2:] AS l FROM people",
                "SELECT upper(name[1]) || name[2:] AS t FROM people")) {
            GuardVerdict v = GUARD.check(sql, POLICY, Dialect.DUCKDB);
            assertThat(v).as(sql).isNotInstanceOf(GuardVerdict.Accepted.class);
            System.out.println("REFUSED " + sql + " -> " + v);
        }
    }

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
        return out;
    }
}
