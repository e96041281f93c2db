package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MySQL's and MariaDB's two-argument {@code CONVERT(expr, type)} ({@code MySqlSpelling}): read and printed as the
 * {@code CAST(expr AS type)} it is. The printing is checked here; the rows and the engine check on a live MariaDB
 * are {@link LegitimateHeldOutTest}'s and {@link MySqlSpellingTest}'s.
 */
class MySqlConvertSpellingTest {

    private static final SqlGuard GUARD = SqlGuard.create();

    private static final GuardPolicy POLICY = GuardPolicy.builder().allowTables("orders")
            .tableColumns("orders", List.of("id", "amount", "secret")).denyColumn("orders", "secret").build();

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT CONVERT(amount, DECIMAL(8,2)) AS c FROM orders|CAST(amount AS DECIMAL (8, 2))",
            "SELECT CONVERT(amount, DECIMAL) AS c FROM orders|CAST(amount AS DECIMAL)",
            "SELECT CONVERT(amount + 1, DECIMAL(10)) AS c FROM orders|CAST(amount + 1 AS DECIMAL (10))",
            "SELECT CONVERT(amount, SIGNED INTEGER) AS c FROM orders|CAST(amount AS SIGNED INTEGER)",
            "SELECT CONVERT(id, CHAR(5)) AS c FROM orders|CAST(id AS CHAR (5))",
            "SELECT CONVERT(CONVERT(amount, DECIMAL(8,1)), CHAR) AS c FROM orders|CAST(CAST(amount AS DECIMAL (8, 1)) AS CHAR)",
            "SELECT CONVERT(concat('1', ',', '2'), DATE) AS c FROM orders|CAST(concat('1', ',', '2') AS DATE)",
            "SELECT CONVERT(amount, DOUBLE) AS c FROM orders|CAST(amount AS DOUBLE)"})
    void printedAsCast(String pair) {
        String[] p = pair.split("\\|");
        for (Dialect d : List.of(Dialect.MARIADB, Dialect.MYSQL)) {
            GuardVerdict v = GUARD.check(p[0], POLICY, d);
            assertThat(v).as("%s", v).isInstanceOf(GuardVerdict.Accepted.class);
            assertThat(((GuardVerdict.Accepted) v).statement().sql()).contains(p[1]).doesNotContainIgnoringCase("convert");
        }
    }

    @Test
    void deniedColumnsInsideAndOtherFormsAreRefusedOrLeftToTheParser() {
        for (String sql : List.of(
                "SELECT CONVERT(secret, DECIMAL(8,2)) AS c FROM orders",
                "SELECT CONVERT((SELECT max(x) FROM other), DECIMAL(8,2)) AS c FROM orders",
                "SELECT CONVERT(amount, DECIMAL(8,2,1)) AS c FROM orders",
                "SELECT CONVERT(amount, DECIMAL(8,2)) AS c, CONVERT(amount, JSON) AS j FROM orders")) {
            GuardVerdict v = GUARD.check(sql, POLICY, Dialect.MARIADB);
            assertThat(v).as(sql).isInstanceOf(GuardVerdict.Rejected.class);
            System.out.println("REFUSED " + sql + " -> " + ((GuardVerdict.Rejected) v).violations().get(0));
        }
        // USING keeps the parser's own reading
        GuardVerdict using = GUARD.check("SELECT CONVERT('a' USING utf8mb4) AS c FROM orders", POLICY, Dialect.MARIADB);
        if (using instanceof GuardVerdict.Accepted a) {
            assertThat(a.statement().sql()).containsIgnoringCase("USING").doesNotContain("CAST");
        }
    }
}
