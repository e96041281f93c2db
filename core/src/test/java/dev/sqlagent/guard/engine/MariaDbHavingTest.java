package dev.sqlagent.guard.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testing.DatabaseServer;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * MariaDB prints an aggregate {@code HAVING} as {@code having 1} in its rewritten query: what the clause reads is
 * only in the optimizer trace, which the engine check reads for it. A denied column in a {@code HAVING}, or in a
 * sub-query there over the same alias, is caught by the engine check alone; a legitimate {@code HAVING count(*) =
 * (SELECT max(c) FROM (SELECT count(*) AS c …) x)} is not refused.
 */
class MariaDbHavingTest {

    @Test
    void theEngineCheckReadsWhatAnAggregateHavingReads() throws Exception {
        DataSource ds = DatabaseServer.mariadb().require().scratch("legit_having");
        GuardPolicy policy = GuardPolicy.builder().allowTables("t").denyColumn("t", "secret").build();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            try {
                s.execute("CREATE TABLE t (k INT, v INT, secret INT)");
                s.execute("INSERT INTO t VALUES (1, 1, 10), (1, 2, 20), (2, 3, 30)");
                EngineCheck check = EngineCheck.create(ds, Dialect.MARIADB);
                assertThat(disagreements(check, policy, "SELECT k, count(*) FROM t GROUP BY k HAVING count(*) = "
                        + "(SELECT max(c) FROM (SELECT count(*) AS c FROM t GROUP BY k) AS x)")).isEmpty();
                assertThat(disagreements(check, policy, "SELECT k, count(*) FROM t GROUP BY k HAVING count(*) > 1"))
                        .isEmpty();
                assertThat(disagreements(check, policy, "SELECT k, count(*) FROM t GROUP BY k HAVING max(secret) > 15"))
                        .anyMatch(d -> d.contains("secret"));
                assertThat(disagreements(check, policy, "SELECT k, count(*) FROM t GROUP BY k HAVING count(*) < "
                        + "(SELECT max(secret) FROM t)")).anyMatch(d -> d.contains("secret"));
            } finally {
                s.execute("DROP DATABASE legit_having");
            }
        }
    }

    private static List<String> disagreements(EngineCheck check, GuardPolicy policy, String sql) throws Exception {
        return EngineCheck.disagreements(check.read(new SqlStatement(sql, List.of())), policy, Dialect.MARIADB);
    }
}
