package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.engine.EngineCheck;
import dev.sqlagent.guard.engine.EngineReading;
import dev.sqlagent.schema.SchemaCatalog;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The engine check on DuckDB reads columns (issue 24): with the guard bypassed, {@link EngineCheck#read} and
 * {@link EngineCheck#disagreements} alone refuse every statement that reads a denied column of the hostile
 * fixture ({@code people.ssn}, {@code people.salary}, the generated {@code people.ssn_key},
 * {@code orders.card}) however it names it: plainly, qualified or not, in any clause, in a subquery, a CTE or
 * a lambda, through a star, {@code t.*}, an {@code EXCLUDE} that leaves it in, {@code COLUMNS(…)} or a
 * whole-row value. Each attack is a control as well: under the same policy without denied columns the check
 * finds nothing in it, so the refusal is the denied column's. Statements over allowed columns only,
 * {@code * EXCLUDE} of every denied column among them, are not refused.
 */
class DuckDbColumnCheckTest {

    /** Statements that read a denied column; each must be refused by the engine check alone. */
    static final List<String> ATTACKS = List.of(
            "SELECT salary FROM people",
            "SELECT ssn FROM people",
            "SELECT ssn_key FROM people",
            "SELECT p.salary FROM people p",
            "SELECT people.salary FROM people",
            "SELECT main.people.salary FROM people",
            "SELECT SALARY FROM people",
            "SELECT \"Salary\" FROM people",
            "SELECT name FROM people WHERE salary > 2",
            "SELECT name FROM people p WHERE p.ssn LIKE 'Z%'",
            "SELECT count(*) FROM people WHERE length(ssn) > 0",
            "SELECT name FROM people ORDER BY salary",
            "SELECT name FROM people p ORDER BY p.salary DESC LIMIT 1",
            "SELECT dept, max(salary) FROM people GROUP BY dept",
            "SELECT dept FROM people GROUP BY dept HAVING sum(salary) > 0",
            "SELECT name FROM people QUALIFY row_number() OVER (ORDER BY salary) = 1",
            "SELECT row_number() OVER w AS r FROM people WINDOW w AS (ORDER BY salary)",
            "SELECT count(*) FILTER (WHERE salary > 1) FROM people",
            "SELECT string_agg(name ORDER BY ssn) FROM people",
            "SELECT o.amount FROM orders o JOIN people p ON p.salary = o.amount",
            "SELECT o.amount FROM orders o JOIN people p ON o.person_id = p.id AND o.card IS NOT NULL",
            "SELECT name FROM people WHERE id IN (SELECT person_id FROM orders WHERE card LIKE 'Z%')",
            "SELECT name FROM people p WHERE EXISTS (SELECT 1 FROM orders o WHERE o.card = p.name)",
            "SELECT (SELECT max(salary) FROM people) AS m FROM orders",
            "SELECT x FROM (SELECT salary AS x FROM people) s",
            "SELECT s.x FROM (SELECT p.ssn AS x FROM people p) AS s",
            "WITH c AS (SELECT salary FROM people) SELECT * FROM c",
            "WITH c AS (SELECT id FROM people WHERE ssn > '') SELECT id FROM c",
            "WITH c AS (SELECT * FROM people) SELECT name FROM c",
            "SELECT list_transform([1], lambda x: x + salary) AS l FROM people",
            "SELECT list_filter([1, 2], lambda x: x < p.salary) AS l FROM people p",
            "SELECT [x.ssn FOR x IN [p]] AS l FROM people p",
            "SELECT * FROM people",
            "FROM people",
            "SELECT p.* FROM people p",
            "SELECT people.* FROM people",
            "SELECT o.* FROM orders o",
            "SELECT * EXCLUDE (id) FROM people",
            "SELECT * EXCLUDE (ssn, ssn_key) FROM people",
            "SELECT p.* EXCLUDE (salary) FROM people p",
            "SELECT * REPLACE (upper(name) AS name) FROM people",
            "SELECT p FROM people p",
            "SELECT people FROM people",
            "SELECT to_json(p) AS j FROM people p",
            "SELECT struct_extract(p, 'ssn') AS s FROM people p",
            "SELECT main.people FROM people",
            "SELECT COLUMNS(*) FROM people",
            "SELECT COLUMNS('sal.*') FROM people",
            "SELECT COLUMNS('card') FROM orders",
            "SELECT COLUMNS(['ssn']) FROM people",
            "SELECT max(COLUMNS(*)) FROM people",
            "SELECT COLUMNS(p.*) FROM people p",
            "SELECT name FROM people ORDER BY COLUMNS('sal.*')",
            "SELECT name FROM people ORDER BY *",
            "SELECT DISTINCT ON (*) name FROM people",
            "SELECT string_agg(name ORDER BY ALL) FROM people",
            "SELECT * EXCLUDE (a.ssn, a.salary, a.ssn_key) FROM people a, people b",
            "SELECT * EXCLUDE (ssn, salary) FROM people a, people b",
            "SELECT #3 FROM people",
            "SELECT x.* EXCLUDE (name) FROM (SELECT * FROM people) x",
            "SELECT a FROM people p(a, b, c)",
            "SELECT name FROM people NATURAL JOIN orders",
            "SELECT name FROM people p, LATERAL (SELECT p.salary AS z) l",
            "SELECT * FROM people UNION BY NAME SELECT * FROM people");

    /** Statements over allowed columns only: the engine check must not refuse them. */
    static final List<String> LEGITIMATE = List.of(
            "SELECT name, dept FROM people ORDER BY name",
            "SELECT p.name, o.amount FROM people p JOIN orders o ON o.person_id = p.id",
            "SELECT * EXCLUDE (ssn, salary, ssn_key) FROM people",
            "SELECT p.* EXCLUDE (ssn, salary, ssn_key) FROM people p",
            "SELECT * EXCLUDE (card) FROM orders",
            "SELECT * EXCLUDE (p.ssn, p.salary, p.ssn_key) FROM people p",
            "SELECT * EXCLUDE (ssn, salary, ssn_key) FROM people a, people b",
            "SELECT name, dept FROM people ORDER BY ALL",
            "SELECT name FROM people UNION SELECT dept FROM people ORDER BY ALL",
            "SELECT dept, count(*) AS n FROM people GROUP BY ALL",
            "SELECT name FROM people WHERE id IN (SELECT person_id FROM orders WHERE amount > 10)",
            "WITH d AS (SELECT dept, count(*) AS n FROM people GROUP BY dept) SELECT * FROM d",
            "WITH d AS (SELECT name FROM people) SELECT d.* FROM d",
            "SELECT x.* FROM (SELECT name, dept FROM people) x",
            "SELECT name, list_transform([score, id], lambda x: x * 2) AS doubled FROM people",
            "SELECT name, row_number() OVER (PARTITION BY dept ORDER BY score) AS r FROM people",
            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT n FROM r",
            "SELECT * FROM (VALUES (1, 2)) v(a, b)",
            "SELECT count(*) FROM people",
            "SELECT o.amount FROM orders o JOIN pets USING (id)");

    @Test
    void theEngineCheckAloneRefusesEveryDeniedColumnReadAndNoLegitimateStatement() throws Exception {
        HostileFixture.Twins twins = HostileFixture.twins(Dialect.DUCKDB);
        GuardPolicy base = HostileFixture.policy(Dialect.DUCKDB, FunctionPolicy.standard());
        // as SqlAgent gives it: the generated column computed from the denied ssn is denied too
        GuardPolicy policy = SchemaCatalog.introspect(twins.a(), base).completePolicy(base);
        assertThat(policy.deniedColumns().get("people")).contains("ssn", "salary", "ssn_key");
        GuardPolicy open = GuardPolicy.builder().allowTables("people", "pets", "orders")
                .functionPolicy(FunctionPolicy.standard()).build();
        EngineCheck check = EngineCheck.create(twins.a(), Dialect.DUCKDB);
        List<String> escapes = new ArrayList<>();
        List<String> falseRejections = new ArrayList<>();
        try (Connection c = twins.a().getConnection()) {
            for (String sql : ATTACKS) {
                EngineReading reading = read(check, c, sql);
                List<String> control = EngineCheck.disagreements(reading, open, Dialect.DUCKDB);
                List<String> found = EngineCheck.disagreements(reading, policy, Dialect.DUCKDB);
                boolean column = found.stream().anyMatch(r -> r.toLowerCase(Locale.ROOT)
                        .matches(".*\\b(ssn|salary|ssn_key|card)\\b.*which the policy denies.*"));
                if (!control.isEmpty() || !column) {
                    escapes.add(sql + "\n    control (nothing denied): " + control + "\n    denied: " + found
                            + "\n    reading: " + reading.describe());
                }
            }
            for (String sql : LEGITIMATE) {
                EngineReading reading = read(check, c, sql);
                List<String> found = EngineCheck.disagreements(reading, policy, Dialect.DUCKDB);
                if (!found.isEmpty()) {
                    falseRejections.add(sql + "\n    " + found + "\n    reading: " + reading.describe());
                }
            }
        }
        escapes.forEach(e -> System.out.println("ESCAPE duckdb " + e));
        falseRejections.forEach(e -> System.out.println("FALSE-REJECTION duckdb " + e));
        System.out.printf("DUCKDB-COLUMNS: %d attacks, %d not refused for their denied column; %d legitimate, "
                + "%d refused%n",
                ATTACKS.size(), escapes.size(), LEGITIMATE.size(), falseRejections.size());
        assertThat(escapes).as("attacks the engine check does not refuse for a denied column").isEmpty();
        assertThat(falseRejections).as("legitimate statements the engine check refuses").isEmpty();
    }

    @Test
    void whatTheReaderCannotPlaceIsRefusedByName() throws Exception {
        HostileFixture.Twins twins = HostileFixture.twins(Dialect.DUCKDB);
        GuardPolicy open = GuardPolicy.builder().allowTables("people", "pets", "orders")
                .functionPolicy(FunctionPolicy.standard()).build();
        EngineCheck check = EngineCheck.create(twins.a(), Dialect.DUCKDB);
        try (Connection c = twins.a().getConnection()) {
            for (String sql : List.of("PIVOT people ON dept USING count(*)",
                    "UNPIVOT people ON COLUMNS(*) INTO NAME k VALUE v", "DESCRIBE people", "SUMMARIZE people")) {
                List<String> found = EngineCheck.disagreements(read(check, c, sql), open, Dialect.DUCKDB);
                assertThat(found).as(sql).anyMatch(r -> r.contains("cannot read"));
            }
        }
    }

    @Test
    void aCteNamedAfterATableHidesItOnlyWhereDuckDbSeesTheCte() throws Exception {
        HostileFixture.Twins twins = HostileFixture.twins(Dialect.DUCKDB);
        EngineCheck check = EngineCheck.create(twins.a(), Dialect.DUCKDB);
        try (Connection c = twins.a().getConnection()) {
            // a CTE's body sees only the CTEs before it: 'secrets' there is the table, as DuckDB runs it
            EngineReading r = read(check, c,
                    "WITH a AS (SELECT * FROM secrets), secrets AS (SELECT 1 AS x) SELECT * FROM a");
            assertThat(r.tables()).extracting(EngineReading.Table::name).contains("secrets");
            EngineReading own = read(check, c, "WITH secrets AS (SELECT 1 AS x) SELECT * FROM secrets");
            assertThat(own.tables()).isEmpty();
        }
    }

    /**
     * The hostile DuckDB corpus ({@link HostileAttacks}) with the guard bypassed: every statement over the
     * table with denied columns alone ({@code people}, no row filter, which is the guard's rewrite) that
     * returns forbidden data when run raw on the twins (a marker, or answers that differ) must be refused by
     * the engine check alone.
     */
    @Test
    void withTheGuardBypassedNoHostileStatementOverPeopleLeaksPastTheEngineCheck() throws Exception {
        HostileFixture.Twins twins = HostileFixture.twins(Dialect.DUCKDB);
        GuardPolicy base = HostileFixture.policy(Dialect.DUCKDB, FunctionPolicy.standard());
        GuardPolicy policy = SchemaCatalog.introspect(twins.a(), base).completePolicy(base);
        EngineCheck check = EngineCheck.create(twins.a(), Dialect.DUCKDB);
        int tried = 0;
        int refused = 0;
        int filtered = 0;
        int harmless = 0;
        List<String> escapes = new ArrayList<>();
        try (Connection a = twins.a().getConnection(); Connection b = twins.b().getConnection()) {
            for (HostileAttacks.Attack attack : HostileAttacks.generate(Dialect.DUCKDB, twins.scratch())) {
                if (attack.judge() != HostileAttacks.Judge.DATA) {
                    continue;
                }
                EngineReading reading;
                try {
                    reading = read(check, a, attack.sql());
                } catch (SQLException realError) {
                    continue; // does not parse: cannot run
                }
                tried++;
                if (!EngineCheck.disagreements(reading, policy, Dialect.DUCKDB).isEmpty()) {
                    refused++;
                    continue;
                }
                if (!reading.tables().stream().allMatch(t -> t.name().equals("people"))) {
                    filtered++; // a row-filtered table: its rows are the guard's rewrite, not a column read
                    continue;
                }
                HostileFullPath.Raw ra = HostileFullPath.raw(a, attack.sql(), List.of());
                HostileFullPath.Raw rb = HostileFullPath.raw(b, attack.sql(), List.of());
                List<String> markers = new ArrayList<>();
                ra.rows().forEach(r -> markers.addAll(HostileFixture.markers(r)));
                markers.addAll(HostileFixture.markers(ra.error()));
                if (!markers.isEmpty() || ra.ran() != rb.ran() || !ra.rows().equals(rb.rows())) {
                    escapes.add(attack + "\n    " + (markers.isEmpty() ? "answers differ: A="
                            + HostileFullPath.preview(ra.rows()) + " B=" + HostileFullPath.preview(rb.rows())
                            : "marker " + markers.get(0)) + "\n    reading: " + reading.describe());
                } else {
                    harmless++;
                }
            }
        }
        escapes.forEach(e -> System.out.println("ESCAPE duckdb engine check alone: " + e));
        System.out.printf("DUCKDB-ENGINE-ALONE: %d hostile statements planned, %d refused by the engine check, "
                + "%d over row-filtered tables left to the guard, %d passed and read nothing forbidden, %d escapes%n",
                tried, refused, filtered, harmless, escapes.size());
        assertThat(escapes).as("hostile statements over people that leak with only the engine check").isEmpty();
    }

    private static EngineReading read(EngineCheck check, Connection c, String sql) throws SQLException {
        return check.read(c, SqlStatement.of(sql));
    }
}
