package dev.sqlagent.engine.trino;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.guard.ViolationType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Trino's casts to a {@code ROW} type with field names, read by the guard alone (no cluster): a field's name names
 * the field only (never a column), its type is a cast's type; what is cast is analysed as any expression. A form
 * the parser reads but cannot print back (one field) or does not read (nested types) stays refused.
 */
class TrinoRowTypeGuardTest {

    private static final SqlGuard GUARD = SqlGuard.create();

    private static List<GuardPolicy> policies() {
        return List.of(TrinoUnnestGuardTest.OPEN, TrinoUnnestGuardTest.CLOSED);
    }

    private static GuardVerdict check(String sql, GuardPolicy policy) {
        return GUARD.check(sql, policy, Dialect.TRINO);
    }

    @Test
    void aCastToANamedRowTypeIsReadAndPrintedAsWritten() {
        for (String sql : List.of("SELECT CAST(ROW(name, score) AS ROW(n varchar, s integer)).n FROM people",
                "SELECT json_format(CAST(CAST(ROW(name, city) AS ROW(n varchar, c varchar)) AS JSON)) FROM people",
                "SELECT TRY_CAST(ROW(city, dept) AS ROW(c varchar, d varchar)).d FROM people WHERE id < 4",
                // field names are no columns: named like a denied column, they read nothing of it
                "SELECT CAST(ROW(name, score) AS ROW(ssn varchar, salary integer)).ssn FROM people")) {
            for (GuardPolicy policy : policies()) {
                GuardVerdict v = check(sql, policy);
                assertThat(v).as(sql).isInstanceOf(GuardVerdict.Accepted.class);
                assertThat(((GuardVerdict.Accepted) v).statement().sql()).isEqualTo(sql + " LIMIT 1000");
            }
        }
        // the parser prints a type's parameters after a space, which Trino reads alike
        assertThat(((GuardVerdict.Accepted) check("SELECT CAST(ROW(name, score) AS ROW(n varchar(10),"
                + " s decimal(10, 2))).s FROM people", TrinoUnnestGuardTest.CLOSED)).statement().sql())
                .isEqualTo("SELECT CAST(ROW(name, score) AS ROW(n varchar (10), s decimal (10, 2))).s FROM people"
                        + " LIMIT 1000");
    }

    @Test
    void whatIsCastIsCheckedAsAnyExpression() {
        for (GuardPolicy policy : policies()) {
            for (String sql : List.of("SELECT CAST(ROW(name, ssn) AS ROW(n varchar, s varchar)).s FROM people",
                    "SELECT CAST(ROW(ssn, salary) AS ROW(a varchar, b integer)) FROM people",
                    "SELECT name FROM people WHERE CAST(ROW(ssn, 1) AS ROW(s varchar, i integer)).s LIKE 'Z%'")) {
                GuardVerdict v = check(sql, policy);
                assertThat(v).as(sql).isInstanceOf(GuardVerdict.Rejected.class);
                assertThat(((GuardVerdict.Rejected) v).violations()).extracting(Violation::type)
                        .contains(ViolationType.COLUMN_DENIED);
            }
        }
    }

    @Test
    void aFormThatCannotBeReadOrPrintedExactlyIsRefused() {
        for (String sql : List.of("SELECT CAST(ROW(name) AS ROW(n varchar)) FROM people",
                "SELECT CAST(ROW(name, score) AS ROW(n varchar NOT NULL, s integer)) FROM people",
                "SELECT CAST(ROW(1, 2) AS ROW(a ROW(b integer, c integer), d integer)) FROM people",
                "SELECT CAST(ROW(name, tags) AS ROW(n varchar, t array(varchar))) FROM people")) {
            assertThat(check(sql, TrinoUnnestGuardTest.CLOSED)).as(sql)
                    .isNotInstanceOf(GuardVerdict.Accepted.class);
        }
    }

    @Test
    void otherEnginesStillRefuseFieldDefinitionsInACast() {
        for (Dialect d : List.of(Dialect.POSTGRESQL, Dialect.DUCKDB, Dialect.H2, Dialect.MARIADB)) {
            assertThat(GUARD.check("SELECT CAST(ROW(name, score) AS ROW(n varchar, s integer)) FROM people",
                    TrinoUnnestGuardTest.OPEN, d)).as(d.toString()).isNotInstanceOf(GuardVerdict.Accepted.class);
        }
    }
}
