package dev.sqlagent.guard.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The engine check alone, as if the guard had accepted every statement: what the engine's plan reads beyond
 * the policy must be refused on every engine, and so must anything in the plan the check cannot map. Each
 * statement names what the refusal must mention. The fixture ({@link PlanFixture}) denies
 * {@code staff.salary} and {@code doubled.salary} and forbids {@code secret}.
 */
class EnginePlanClosedWorldTest {

    /** Refused on every engine, with what the refusal names. */
    private static Map<String, String> everywhere() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("SELECT salary FROM staff", "salary");
        m.put("SELECT name FROM staff ORDER BY salary", "salary");
        m.put("SELECT id, name, code FROM pay_view", "secret");
        m.put("SELECT n FROM pay_sum", "secret");
        m.put("SELECT p.name FROM pay_view p WHERE p.id = 1", "secret");
        m.put("SELECT twice FROM doubled", "salary");
        m.put("SELECT name FROM staff WHERE id IN (SELECT id FROM secret)", "secret");
        m.put("SELECT name FROM staff WHERE id = (SELECT max(id) FROM secret)", "secret");
        m.put("SELECT name FROM staff WHERE id = 1 AND salary > 150", "salary");
        m.put("SELECT salary FROM staff WHERE id = 1", "salary");
        m.put("WITH c AS (SELECT salary AS s FROM staff) SELECT count(*) FROM c WHERE s > 0", "salary");
        m.put("DELETE FROM staff WHERE id = -1", "writes");
        return m;
    }

    private static void refusesAll(DataSource ds, Dialect dialect, Map<String, String> statements) {
        EngineCheck check = EngineCheck.create(ds, dialect);
        List<String> missed = new ArrayList<>();
        statements.forEach((sql, named) -> {
            EngineVerdict v = check.check(PlanFixture.pretend(sql), PlanFixture.POLICY);
            if (!(v instanceof EngineVerdict.Disagreement d)
                    || !String.join(" ", d.reasons()).toLowerCase(java.util.Locale.ROOT).contains(named)) {
                missed.add(sql + " -> " + v);
            }
        });
        assertThat(missed).as("statements %s let through or refused for the wrong reason", dialect).isEmpty();
    }

    @Test
    void postgresRefusesWholeRowsAttributeNotationSystemColumnsAndViewsOverForbiddenTables() {
        Map<String, String> m = everywhere();
        // a whole row reads every column: functions over row variables, in every clause and nesting
        m.put("SELECT row_to_json(s) FROM staff s", "salary");
        m.put("SELECT s.row_to_json FROM staff s", "salary"); // attribute notation: row_to_json(s)
        m.put("SELECT s::text FROM staff s", "salary");
        m.put("SELECT array_agg(s) FROM staff s", "salary");
        m.put("SELECT to_jsonb(s.*) FROM staff s", "salary");
        m.put("SELECT format('%s', s) FROM staff s", "salary");
        m.put("SELECT name FROM staff s WHERE row_to_json(s)::text LIKE '%300%'", "salary");
        m.put("WITH c AS (SELECT row_to_json(s) AS j FROM staff s) SELECT j FROM c", "salary");
        m.put("WITH c AS MATERIALIZED (SELECT * FROM staff) SELECT c.name FROM c", "salary");
        m.put("SELECT l.x FROM staff s, LATERAL (SELECT s::text AS x) l", "salary");
        m.put("SELECT (SELECT array_agg(x) FROM secret x)", "secret");
        m.put("SELECT name FROM staff s WHERE EXISTS (SELECT 1 FROM dept d WHERE d.title = s::text)", "salary");
        // system columns
        m.put("SELECT s.tableoid, s.name FROM staff s", "system column");
        m.put("SELECT ctid FROM staff", "system column");
        m.put("SELECT name FROM staff WHERE xmin::text <> ''", "system column");
        // a sub-plan's comparison is not printed: the column it compares counts as read
        m.put("SELECT name FROM staff WHERE salary NOT IN (SELECT id FROM dept)", "salary");
        refusesAll(PlanFixture.postgres(), Dialect.POSTGRESQL, m);
    }

    @Test
    void mariadbRefusesFoldedConstantsViewsItKeepsAndVariables() {
        Map<String, String> m = everywhere();
        m.put("SELECT name FROM staff WHERE salary > @limit", "variable");
        m.put("SELECT half FROM doubled", "salary");
        m.put("SELECT name FROM staff WHERE salary IN (SELECT id FROM dept)", "salary");
        m.put("SELECT name FROM staff WHERE id NOT IN (SELECT x.id FROM secret x WHERE x.code = 'a')", "secret");
        refusesAll(PlanFixture.mariadb(), Dialect.MARIADB, m);
    }

    @Test
    void h2RefusesViewsOverForbiddenTablesAndTheRowId() {
        Map<String, String> m = everywhere();
        m.put("SELECT _ROWID_, name FROM staff", "system column");
        m.put("SELECT s._ROWID_ FROM staff s", "system column");
        refusesAll(PlanFixture.h2(), Dialect.H2, m);
    }

    @Test
    void sqliteRefusesTheRowIdOfATableWithoutIntegerKeyAndTableFunctions() {
        Map<String, String> m = everywhere();
        m.put("SELECT half FROM doubled", "salary");
        m.put("SELECT rowid, a FROM norow", "system column");
        m.put("SELECT _rowid_ FROM norow", "system column");
        m.put("SELECT key FROM json_each('[1, 2]')", "cannot read");
        m.put("SELECT name FROM pragma_table_info('secret')", "cannot read");
        refusesAll(PlanFixture.sqlite(), Dialect.SQLITE, m);
    }

    @Test
    void aPlanTheReaderCannotMapIsRefusedNamingWhatItCouldNotRead() {
        EngineReading reading = new EngineReading(java.util.Set.of(), java.util.Set.of(), java.util.Set.of(),
                java.util.Set.of(), true, java.util.Set.of(), java.util.Set.of(), java.util.Set.of("the plan node Frobnicate"));
        assertThat(EngineCheck.disagreements(reading, PlanFixture.POLICY, Dialect.POSTGRESQL))
                .singleElement().asString().contains("the plan node Frobnicate");
    }
}
