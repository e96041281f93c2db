package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.engine.EngineCheck;
import dev.sqlagent.guard.engine.EngineVerdict;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every spelling against every spelling (issue 29): a derived column, a derived table's column list, a CTE's
 * column list or a table alias spelled bare or quoted in three cases, referred to from a scalar sub-query by
 * each of those spellings, on each engine's twins ({@link HostileFixture}). The twins' raw answers say what
 * the engine binds the name to: a statement whose answer carries forbidden data (or differs between the twins)
 * reads {@code people.salary}, and must be refused both by the guard alone and by the engine check alone
 * (the guard out of the way); any other that runs must be confirmed by the engine check (DuckDB's reader,
 * which counts an unqualified column as a possible read of every table in scope, excepted).
 */
class IdentifierCaseMatrixTest {

    /** The rest of a derived table's body: one row of an allowed table (MariaDB's check reads no FROM-less body). */
    private static final String ONE = " FROM pets ORDER BY id LIMIT 1";

    @ParameterizedTest
    @EnumSource(value = Dialect.class, names = {"H2", "POSTGRESQL", "MARIADB", "SQLITE", "DUCKDB"})
    void eachBindingIsTheEngines(Dialect d) throws Exception {
        HostileFixture.Twins twins = HostileFixture.twins(d);
        GuardPolicy policy = HostileFixture.policy(d, FunctionPolicy.standard());
        // the guard as the agent runs it: the policy completed from the catalog (columns, indexes, objects)
        GuardPolicy complete = dev.sqlagent.schema.SchemaCatalog.introspect(twins.a(), policy).completePolicy(policy);
        EngineCheck check = EngineCheck.create(twins.a(), d);
        SqlGuard guard = SqlGuard.create();
        String q = d.isMySqlFamily() ? "`" : "\"";
        List<String> columns = List.of("salary", q + "salary" + q, q + "SALARY" + q, q + "Salary" + q);
        List<String> references = List.of("salary", "SALARY", q + "salary" + q, q + "SALARY" + q, q + "Salary" + q);
        List<String> aliases = List.of("p", "P", q + "p" + q, q + "P" + q);
        Set<String> statements = new LinkedHashSet<>();
        for (String c : columns) {
            for (String r : references) {
                statements.add("SELECT (SELECT " + r + " FROM (SELECT id AS " + c + ONE + ") t) FROM people");
                statements.add("SELECT (SELECT t." + r + " FROM (SELECT id AS " + c + ONE + ") t) FROM people");
                statements.add("SELECT (WITH w AS (SELECT id AS " + c + ONE + ") SELECT " + r + " FROM w) FROM people");
                if (d != Dialect.MARIADB) {
                    statements.add("SELECT (SELECT " + r + " FROM (SELECT id" + ONE + ") AS t(" + c + ")) FROM people");
                    statements.add("SELECT (WITH w(" + c + ") AS (SELECT id" + ONE + ") SELECT " + r + " FROM w) "
                            + "FROM people");
                }
            }
        }
        for (String inner : aliases) {
            for (String outer : aliases) {
                for (String r : aliases) {
                    statements.add("SELECT (SELECT " + r + ".salary FROM (SELECT id AS salary" + ONE + ") AS " + inner
                            + ") FROM people " + outer);
                }
            }
        }
        int harmful = 0;
        int ran = 0;
        int guardRefusedHarmless = 0;
        List<String> wrong = new ArrayList<>();
        try (Connection a = twins.a().getConnection(); Connection b = twins.b().getConnection()) {
            for (String sql : statements) {
                HostileAttacks.Attack attack = new HostileAttacks.Attack("case-matrix", d, sql,
                        HostileAttacks.Judge.DATA, null);
                HostileFullPath.Raw raw = HostileFullPath.raw(a, sql, List.of());
                if (!raw.ran()) {
                    continue; // the engine refuses the name: it binds to nothing
                }
                ran++;
                boolean leaks = HostileFullPathTest.live(attack, a, b);
                GuardVerdict g = guard.check(sql, complete, d);
                // the engine check alone (the guard bypassed) on a statement that leaks; on a harmless one, the
                // statement as the guard renders it (routed off indexes ordered by a denied column, which a raw
                // read takes and the engine check rightly refuses), where the guard accepts it
                EngineVerdict v = !leaks && g instanceof GuardVerdict.Accepted accepted ? check.check(accepted, policy)
                        : check.check(new GuardVerdict.Accepted(sql, new SqlStatement(sql, List.of()),
                                Set.of("people"), Set.of("people.name")), policy);
                if (leaks) {
                    harmful++;
                    if (!(g instanceof GuardVerdict.Rejected)) {
                        wrong.add("GUARD MISSED " + sql);
                    }
                    if (!(v instanceof EngineVerdict.Disagreement)) {
                        wrong.add("ENGINE CHECK MISSED " + sql + "\n    " + v);
                    }
                } else {
                    if (g instanceof GuardVerdict.Rejected) {
                        guardRefusedHarmless++;
                        if (Boolean.getBoolean("sqlagent.case.verbose")) {
                            System.out.println("GUARD REFUSED HARMLESS " + sql + "\n    " + g);
                        }
                    }
                    if (g instanceof GuardVerdict.Accepted && !(v instanceof EngineVerdict.Confirmed)
                            && d != Dialect.DUCKDB) {
                        wrong.add("ENGINE CHECK REFUSED HARMLESS " + sql + "\n    " + v);
                    }
                }
            }
        }
        System.out.printf("CASE-MATRIX %s: %d statements, %d run, %d read people.salary, %d harmless refused by the "
                        + "guard, %d wrong%n", d.name().toLowerCase(Locale.ROOT), statements.size(), ran, harmful,
                guardRefusedHarmless, wrong.size());
        wrong.forEach(System.out::println);
        if (d == Dialect.SQLITE || d == Dialect.DUCKDB) {
            assertThat(harmful).as("names that ignore case, quoted or not, bind to the derived item").isZero();
        } else {
            assertThat(harmful).isPositive();
        }
        assertThat(wrong).as("%s", String.join("\n", wrong)).isEmpty();
    }
}
