package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.testing.DatabaseServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * MariaDB's {@code GROUP BY x DESC} ({@code MariaDbGroupOrder}): accepted, and the guard's printing gives on MariaDB
 * exactly the rows, in the same order, that the statement gives; the forms it does not read exactly are refused,
 * and a denied column is refused through the new form.
 */
class MariaDbGroupOrderTest {

    private static final SqlGuard GUARD = SqlGuard.create();

    @Test
    void groupByWithADirectionRunsAsMariaDbReadsIt() throws Exception {
        DataSource ds = DatabaseServer.mariadb().require().scratch("legit_grouporder");
        GuardPolicy policy = GuardPolicy.builder().allowTables("t").denyColumn("t", "secret").build();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            try {
                s.execute("CREATE TABLE t (dept VARCHAR(8), kind VARCHAR(8), secret INT)");
                s.execute("INSERT INTO t VALUES ('a', 'x', 1), ('b', 'y', 2), ('c', 'x', 3), ('b', 'x', 4), "
                        + "('a', 'y', 5), ('d', 'y', 6)");
                for (String sql : List.of(
                        "SELECT dept, count(*) FROM t GROUP BY dept DESC",
                        "SELECT dept, count(*) FROM t GROUP BY dept DESC LIMIT 2",
                        "SELECT dept, kind, count(*) FROM t GROUP BY dept DESC, kind ASC",
                        "SELECT dept, count(*) AS n FROM t GROUP BY 1 DESC",
                        "SELECT dept, count(*) AS n FROM t GROUP BY dept DESC HAVING count(*) > 1",
                        "SELECT x FROM (SELECT dept AS x FROM t GROUP BY dept DESC LIMIT 3) AS q",
                        "SELECT dept, count(*) AS n FROM t GROUP BY dept DESC ORDER BY n, dept")) {
                    GuardVerdict v = GUARD.check(sql, policy, Dialect.MARIADB);
                    assertThat(v).as(sql).isInstanceOf(GuardVerdict.Accepted.class);
                    String run = ((GuardVerdict.Accepted) v).statement().sql();
                    assertThat(rows(c, run)).as("%s run as %s", sql, run).isEqualTo(rows(c, sql)).isNotEmpty();
                }
                for (String sql : List.of(
                        "SELECT dept AS kind, count(*) FROM t GROUP BY kind DESC",
                        "SELECT dept, count(*) FROM t GROUP BY dept DESC WITH ROLLUP",
                        "SELECT dept FROM t GROUP BY dept DESC UNION SELECT 'z'",
                        "SELECT secret, count(*) FROM t GROUP BY secret DESC",
                        "SELECT dept, count(*) FROM t GROUP BY secret DESC",
                        "SELECT dept, count(*) FROM t GROUP BY dept DESC, secret")) {
                    assertThat(GUARD.check(sql, policy, Dialect.MARIADB)).as(sql)
                            .isNotInstanceOf(GuardVerdict.Accepted.class);
                }
            } finally {
                s.execute("DROP DATABASE legit_grouporder");
            }
        }
    }

    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int k = 1; k <= n; k++) {
                    row.append(rs.getString(k)).append('|');
                }
                out.add(row.toString());
            }
        }
        return out;
    }
}
