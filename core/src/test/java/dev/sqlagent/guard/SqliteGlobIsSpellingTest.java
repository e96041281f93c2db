package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.engine.EngineCheck;
import dev.sqlagent.guard.engine.EngineVerdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
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
import org.sqlite.SQLiteDataSource;

/**
 * SQLite's {@code GLOB} and {@code IS [NOT] expr} ({@code SqliteSpelling}): respelled for the parser and back (GLOB)
 * or printed as SQLite's own {@code IS [NOT] DISTINCT FROM}. Accepted statements give, run as the guard prints
 * them, exactly what the original gives; the engine check confirms them; misfits are refused with a reason; a
 * denied column or a forbidden table inside either operand is refused.
 */
class SqliteGlobIsSpellingTest {

    private static final SqlGuard GUARD = SqlGuard.create();
    private static Path dir;
    private static SQLiteDataSource ds;
    private static Connection connection;
    private static GuardPolicy policy;

    @BeforeAll
    static void open() throws Exception {
        dir = Files.createTempDirectory("sqlite-glob");
        ds = new SQLiteDataSource();
        ds.setUrl("jdbc:sqlite:" + dir.resolve("g.db"));
        connection = ds.getConnection();
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, city TEXT, ssn TEXT)");
            s.execute("INSERT INTO people VALUES (1, 'ann', 'Oslo', 'Z1'), (2, 'bob', NULL, 'Z2'), "
                    + "(3, 'eve', 'Rome', 'Z3'), (4, 'Ida', 'oslo', 'Z4')");
            s.execute("CREATE TABLE secrets (x TEXT)");
            s.execute("INSERT INTO secrets VALUES ('s')");
        }
        policy = GuardPolicy.builder().allowTables("people").tableColumns("people", List.of("id", "name", "city",
                "ssn")).denyColumn("people", "ssn").build();
    }

    @AfterAll
    static void close() throws Exception {
        connection.close();
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }

    /** Accepted, the SQL the guard prints answers as the statement does, and the engine check confirms it. */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT name FROM people WHERE name GLOB '[aeiou]*' ORDER BY name",
            "SELECT name FROM people WHERE name NOT GLOB '[aeiou]*' ORDER BY name",
            "SELECT name FROM people WHERE NOT name GLOB 'a*' ORDER BY name",
            "SELECT name FROM people WHERE lower(name) GLOB 'i*' OR city GLOB '[OR]*' ORDER BY name",
            "SELECT name FROM people WHERE (name || city) GLOB '*O*' ORDER BY name",
            "SELECT name FROM people p WHERE p.city GLOB (SELECT 'R' || '*') ORDER BY name",
            "SELECT name, city GLOB 'O*' AS o FROM people ORDER BY id",
            "SELECT name, CASE WHEN city GLOB 'o*' THEN 1 ELSE 0 END AS lo FROM people ORDER BY id",
            "SELECT name FROM people WHERE glob('[ab]*', name) ORDER BY name",
            "SELECT name FROM people WHERE id BETWEEN 1 AND 3 AND (name GLOB '*e*') ORDER BY name",
            "SELECT name, city FROM people WHERE city IS NOT 'Oslo' ORDER BY id",
            "SELECT name, city FROM people WHERE city IS 'Oslo' ORDER BY id",
            "SELECT name FROM people WHERE city IS NOT upper(city) ORDER BY id",
            "SELECT name, (city IS NOT NULL) AS known, city IS lower(city) AS low, city GLOB 'O*' FROM people ORDER BY id",
            "SELECT name FROM people WHERE city IS NOT (SELECT 'Rome') AND city IS NOT NULL ORDER BY id",
            "SELECT name FROM people WHERE city IS DISTINCT FROM 'Oslo' ORDER BY id",
            "SELECT name FROM people WHERE NOT city IS 'Rome' ORDER BY id"})
    void acceptedAndRunsAsTheStatementItselfDoes(String sql) throws SQLException {
        GuardVerdict v = GUARD.check(sql, policy, Dialect.SQLITE);
        assertThat(v).as("%s", v).isInstanceOf(GuardVerdict.Accepted.class);
        GuardVerdict.Accepted a = (GuardVerdict.Accepted) v;
        String run = a.statement().sql();
        assertThat(run).doesNotContainIgnoringCase("match_all");
        assertThat(rows(run)).as("%s run as %s", sql, run).isEqualTo(rows(sql)).isNotEmpty();
        assertThat(EngineCheck.create(ds, Dialect.SQLITE).check(a, policy)).as("the engine's reading of %s", run)
                .isInstanceOf(EngineVerdict.Confirmed.class);
        GuardVerdict again = GUARD.check(run, policy, Dialect.SQLITE);
        assertThat(again).as("%s", again).isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(((GuardVerdict.Accepted) again).statement().sql()).isEqualTo(run);
    }

    /** Outside the grammar, or reading what the policy denies inside an operand: refused, saying why. */
    @Test
    void misfitsAndDeniedReadsAreRefused() {
        List<String> why = new ArrayList<>();
        for (String sql : List.of(
                "SELECT name FROM people WHERE ssn GLOB 'Z*'",
                "SELECT name FROM people WHERE name GLOB ssn",
                "SELECT name FROM people WHERE name GLOB (SELECT x FROM secrets)",
                "SELECT name FROM people WHERE upper(ssn) GLOB 'Z*'",
                "SELECT name FROM people WHERE city IS NOT ssn",
                "SELECT name FROM people WHERE ssn IS 'Z1'",
                "SELECT name FROM people WHERE city IS (SELECT x FROM secrets)",
                "SELECT name FROM people WHERE name || city GLOB '*O*'",
                "SELECT name FROM people WHERE name GLOB 'a' || '*'",
                "SELECT name FROM people WHERE id = 1 GLOB '1'",
                "SELECT name FROM people WHERE name GLOB 'a*' ESCAPE 'x'",
                "SELECT name FROM people WHERE id IS NOT 1 + 1",
                "SELECT name FROM people WHERE id + 0 IS 1",
                "SELECT name FROM people WHERE id = 1 IS 1",
                "SELECT name FROM people WHERE id BETWEEN 0 AND id GLOB '1'",
                "SELECT name MATCH_ALL 'x' FROM people",
                "SELECT match_all FROM people")) {
            GuardVerdict v = GUARD.check(sql, policy, Dialect.SQLITE);
            assertThat(v).as(sql).isInstanceOf(GuardVerdict.Rejected.class);
            why.add(sql + " -> " + ((GuardVerdict.Rejected) v).violations().get(0));
        }
        why.forEach(w -> System.out.println("REFUSED " + w));
    }

    /** Other dialects keep their reading: GLOB and IS expr are SQLite's (and GLOB DuckDB's). */
    @Test
    void otherDialectsDoNotRespell() {
        for (Dialect d : List.of(Dialect.POSTGRESQL, Dialect.H2, Dialect.MARIADB)) {
            GuardVerdict v = GUARD.check("SELECT name FROM people WHERE name GLOB 'a*'", policy, d);
            if (v instanceof GuardVerdict.Accepted a) {
                assertThat(a.statement().sql()).as("%s", d).doesNotContainIgnoringCase("match_all");
            }
        }
    }

    private static List<String> rows(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery(sql)) {
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
