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
 * Trino's {@code JSON_QUERY(x, 'path')} and {@code JSON_VALUE(x, 'path')}, read by the guard alone (no cluster) in
 * that plain form only: the input is analysed as any expression, the path is a string literal; every other clause
 * ({@code PASSING}, a wrapper, {@code RETURNING}, {@code ON EMPTY}/{@code ON ERROR} with its default) is refused.
 */
class TrinoJsonQueryGuardTest {

    private static final SqlGuard GUARD = SqlGuard.create();

    private static GuardVerdict check(String sql, GuardPolicy policy) {
        return GUARD.check(sql, policy, Dialect.TRINO);
    }

    @Test
    void thePlainFormIsReadAndPrintedAsWritten() {
        for (String sql : List.of("SELECT JSON_QUERY('{\"a\": [1]}', 'lax $.a')",
                "SELECT JSON_VALUE('{\"a\": 1}', 'lax $.a')",
                "SELECT JSON_VALUE(json_format(CAST(MAP(ARRAY['n'], ARRAY[name]) AS JSON)), 'lax $.n') FROM people")) {
            for (GuardPolicy policy : List.of(TrinoUnnestGuardTest.OPEN, TrinoUnnestGuardTest.CLOSED)) {
                GuardVerdict v = check(sql, policy);
                assertThat(v).as(sql).isInstanceOf(GuardVerdict.Accepted.class);
                assertThat(((GuardVerdict.Accepted) v).statement().sql()).isEqualTo(sql + " LIMIT 1000");
            }
        }
    }

    @Test
    void itsInputIsCheckedAsAnyExpression() {
        for (String sql : List.of("SELECT JSON_QUERY(json_format(CAST(ARRAY[ssn] AS JSON)), 'lax $') FROM people",
                "SELECT name FROM people WHERE JSON_VALUE(json_format(CAST(ARRAY[salary] AS JSON)), 'lax $[0]') > '8'")) {
            GuardVerdict v = check(sql, TrinoUnnestGuardTest.CLOSED);
            assertThat(v).as(sql).isInstanceOf(GuardVerdict.Rejected.class);
            assertThat(((GuardVerdict.Rejected) v).violations()).extracting(Violation::type)
                    .contains(ViolationType.COLUMN_DENIED);
        }
    }

    @Test
    void anyOtherClauseIsRefused() {
        for (String sql : List.of("SELECT JSON_QUERY('{\"a\": 1}', 'lax $.a' WITH ARRAY WRAPPER)",
                "SELECT JSON_VALUE('{\"a\": 1}', 'lax $.a' DEFAULT ssn ON ERROR) FROM people",
                "SELECT JSON_VALUE('{\"a\": 1}', 'lax $.a' PASSING ssn AS s) FROM people",
                "SELECT JSON_VALUE('{\"a\": 1}', 'lax $.a' RETURNING integer)",
                "SELECT JSON_QUERY(name, name) FROM people",
                "SELECT JSON_EXISTS('{\"a\": 1}', 'lax $.a')")) {
            assertThat(check(sql, TrinoUnnestGuardTest.CLOSED)).as(sql).isNotInstanceOf(GuardVerdict.Accepted.class);
        }
    }

    @Test
    void otherEnginesStillRefuseIt() {
        for (Dialect d : List.of(Dialect.POSTGRESQL, Dialect.DUCKDB, Dialect.H2, Dialect.MARIADB)) {
            assertThat(GUARD.check("SELECT JSON_VALUE('{\"a\": 1}', 'lax $.a')", TrinoUnnestGuardTest.OPEN, d))
                    .as(d.toString()).isNotInstanceOf(GuardVerdict.Accepted.class);
        }
    }
}
