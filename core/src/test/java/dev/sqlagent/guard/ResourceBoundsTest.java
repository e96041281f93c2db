package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Resource-expanding functions bounded by the guard, through {@link SqlGuard#check}. */
class ResourceBoundsTest {

    private final SqlGuard guard = SqlGuard.create();
    private final GuardPolicy policy = GuardPolicy.builder().allowTables("t").knownTables(List.of("t")).build();

    private GuardVerdict check(String sql, Dialect dialect) {
        return guard.check(sql, policy, dialect);
    }

    private static List<ViolationType> types(GuardVerdict v) {
        assertThat(v).as("verdict for %s", v.sql()).isInstanceOf(GuardVerdict.Rejected.class);
        return ((GuardVerdict.Rejected) v).violations().stream().map(Violation::type).toList();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "POSTGRESQL | SELECT repeat('x', 2000000) FROM t",
        "POSTGRESQL | SELECT repeat(repeat('x', 1100), 1000) FROM t",
        "POSTGRESQL | SELECT lpad('x', 5000000) FROM t",
        "POSTGRESQL | SELECT repeat('x', a) FROM t",
        "POSTGRESQL | SELECT format('%2000000s', 'x') FROM t",
        "POSTGRESQL | SELECT format('%*s', 2000000, 'x') FROM t",
        "POSTGRESQL | SELECT generate_series(1, 100000000) FROM t",
        "POSTGRESQL | SELECT generate_series(1, a) FROM t",
        "POSTGRESQL | SELECT array_fill(0, ARRAY[100000, 100000]) FROM t",
        "POSTGRESQL | SELECT replace(replace(replace(repeat('a', 5000), 'a', 'aaaaaaaaaa'), 'a', 'aaaaaaaaaa'), 'a', 'aaaaaaaaaa') FROM t",
        "SQLITE | SELECT zeroblob(2000000000) FROM t",
        "SQLITE | SELECT randomblob(5000000) FROM t",
        "SQLITE | SELECT printf('%.*c', 999999999, 'x') FROM t",
        "SQLITE | SELECT printf('%.2000000c', 'x') FROM t",
        "SQLITE | SELECT printf('%*d', a, 1) FROM t",
        "SQLITE | SELECT printf(a, 1) FROM t",
        "SQLITE | SELECT replicate('x', 10000000) FROM t",
        "SQLITE | SELECT hex(hex(hex(hex(hex(hex(hex(hex(hex(hex(hex(hex(hex(hex(a)))))))))))))) FROM t",
        "MARIADB | SELECT space(100000000) FROM t",
        "MARIADB | SELECT repeat('x', 1e9) FROM t",
        "MARIADB | SELECT rpad('x', 2000000, 'y') FROM t",
        "H2 | SELECT REPEAT('x', 100000000) FROM t",
        "H2 | SELECT SPACE(a) FROM t",
        "H2 | SELECT LISTAGG(x.a, ',') FROM t x, t y",
        "H2 | SELECT STRING_AGG(x.a, ',') FROM t x JOIN t y ON x.a = y.a",
        "H2 | SELECT ARRAY_AGG(a) FROM (SELECT x.a FROM t x, t y) d",
        "H2 | WITH c AS (SELECT a FROM t) SELECT LISTAGG(a, ',') FROM c",
        "H2 | SELECT EXPAND(a) FROM t",
        "H2 | SELECT REPEAT('x', MOD(a, 2000000000)) FROM t",
        "H2 | SELECT REPEAT('x', MOD(a, b)) FROM t",
        "H2 | SELECT REPEAT('x', MOD(a, 5) * 1000000) FROM t",
        "H2 | SELECT REPEAT('x', MOD(a, 5) + a) FROM t",
        "H2 | SELECT REPEAT('x', MOD(a, 0)) FROM t",
        "H2 | SELECT REPEAT('x', MOD(a, 2.5)) FROM t",
        "H2 | SELECT REPEAT('x', ABS(MOD(a, 5)) * a) FROM t",
        "H2 | SELECT REPEAT('x', MOD(5, a)) FROM t",
        "POSTGRESQL | SELECT repeat('x', a % 2000000) FROM t",
        "POSTGRESQL | SELECT repeat('x', mod(a, -2000000)) FROM t",
        "SQLITE | SELECT printf('%*d', a % 2000000, 1) FROM t",
        "SQLITE | SELECT printf('%*d', -2000000, 1) FROM t",
        "MARIADB | SELECT lpad(a, MOD(b, 2000000), '0') FROM t",
    })
    void expansionsOverTheCapOrOfUnboundedSizeAreRefused(Dialect dialect, String sql) {
        assertThat(types(check(sql, dialect))).contains(ViolationType.RESOURCE_LIMIT);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "POSTGRESQL | SELECT repeat('-', 20) FROM t",
        "POSTGRESQL | SELECT lpad(a, 10, '0') FROM t",
        "POSTGRESQL | SELECT format('%s-%s', a, b) FROM t",
        "POSTGRESQL | SELECT replace(a, 'x', 'y') FROM t",
        "POSTGRESQL | SELECT generate_series(1, 12) FROM t",
        "SQLITE | SELECT printf('%.2f', a) FROM t",
        "SQLITE | SELECT printf('%5d %-10s', a, b) FROM t",
        "SQLITE | SELECT replace(a, ' ', '') FROM t",
        "SQLITE | SELECT hex(a) FROM t",
        "SQLITE | SELECT group_concat(a, ',') FROM t",
        "MARIADB | SELECT lpad(a, 8, '0') FROM t",
        "MARIADB | SELECT group_concat(a) FROM t",
        "H2 | SELECT REPEAT('ab', 3) FROM t",
        "H2 | SELECT LPAD(a, 6, '0') FROM t",
        "H2 | SELECT LISTAGG(a, ', ') WITHIN GROUP (ORDER BY a) FROM t",
        "H2 | SELECT STRING_AGG(a, ',') FROM t WHERE a IN (SELECT a FROM t)",
        "H2 | SELECT REPEAT('*', MOD(a, 5)) FROM t",
        "H2 | SELECT REPEAT('*', CAST(MOD(a, 5) AS INT)) FROM t",
        "H2 | SELECT REPEAT(REPEAT('*', MOD(a, 1000)), 1000) FROM t",
        "POSTGRESQL | SELECT repeat('*', a % 5) FROM t",
        "POSTGRESQL | SELECT repeat('*', mod(a, -5)) FROM t",
        "SQLITE | SELECT printf('%*d', a % 10, 1) FROM t",
        "MARIADB | SELECT lpad(a, MOD(b, 8), '0') FROM t",
        "DUCKDB | SELECT repeat('*', a % 5) FROM t",
    })
    void boundedExpansionsAreAccepted(Dialect dialect, String sql) {
        assertThat(check(sql, dialect)).as(sql).isInstanceOf(GuardVerdict.Accepted.class);
    }

    @Test
    void onH2ARecursiveCteThatGrowsAValueIsRefusedAndOneThatCountsIsNot() {
        String growing = "WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' FROM t UNION ALL SELECT n + 1, s || s FROM r "
                + "WHERE n < 40) SELECT max(length(s)) FROM r";
        assertThat(types(check(growing, Dialect.H2))).contains(ViolationType.RESOURCE_LIMIT);
        String counting = "WITH RECURSIVE r(n) AS (SELECT 1 FROM t UNION ALL SELECT n + 1 FROM r WHERE n < 10) "
                + "SELECT max(n) FROM r";
        assertThat(check(counting, Dialect.H2)).isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(check(growing, Dialect.SQLITE)).as("SQLite caps a value itself")
                .isInstanceOf(GuardVerdict.Accepted.class);
    }

    @Test
    void theCapIsAPolicyOptionAndLongMaxValueTurnsTheChecksOff() {
        GuardPolicy small = policy.toBuilder().maxExpandedBytes(100).build();
        assertThat(types(guard.check("SELECT repeat('x', 200) FROM t", small, Dialect.POSTGRESQL)))
                .contains(ViolationType.RESOURCE_LIMIT);
        GuardPolicy off = policy.toBuilder().maxExpandedBytes(Long.MAX_VALUE).build();
        assertThat(guard.check("SELECT repeat('x', a) FROM t", off, Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(GuardPolicy.builder().allowTables("t").build().maxExpandedBytes())
                .isEqualTo(GuardPolicy.DEFAULT_MAX_EXPANDED_BYTES).isEqualTo(1024 * 1024);
    }
}
