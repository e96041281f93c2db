package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.engine.EngineCheck;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * What the DuckDB engine check's over-approximation of columns costs (issue 24): for every Spider gold query
 * the guard accepts, over every Spider database as a locked DuckDB file, and every column of every table it
 * reads, the column is denied; where the guard still accepts the query (it does not read that column), the
 * engine check must not refuse it either. An unqualified column counted as read from every table, a name
 * that may be a column, a star: none may turn a statement that does not read the denied column into a
 * refusal on this corpus. The control: where the guard refuses the query once the column is denied (it reads
 * it), the engine check alone, on the statement the guard ran before, refuses it as well.
 */
class DuckDbColumnFalseRejectionTest {

    @Test
    void denyingAColumnTheGuardSeesUnreadRefusesNoGoldQueryOnTheEngineCheck() throws Exception {
        SqlGuard guard = SqlGuard.create();
        Map<String, GuardPolicy> policies = EngineDifferentialTest.policies();
        int pairs = 0;
        int readByTheGuard = 0;
        List<String> missed = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (SpiderData.Query q : SpiderData.gold()) {
            if (!seen.add(q.db() + "\n" + q.sql())) {
                continue;
            }
            GuardPolicy policy = policies.get(q.db());
            if (!(guard.check(q.sql(), policy, Dialect.DUCKDB) instanceof GuardVerdict.Accepted accepted)) {
                continue;
            }
            DataSource ds = dev.sqlagent.testing.DuckDbSpider.of(q.db());
            EngineCheck check = EngineCheck.create(ds, Dialect.DUCKDB);
            try (Connection c = ds.getConnection()) {
                dev.sqlagent.guard.engine.EngineReading reading;
                try {
                    reading = check.read(c, accepted.statement());
                } catch (SQLException realError) {
                    continue; // does not run on DuckDB
                }
                for (String table : accepted.tables()) {
                    for (String column : columns(c, table)) {
                        GuardPolicy denying = policy.toBuilder().denyColumn(table, column).build();
                        if (!(guard.check(q.sql(), denying, Dialect.DUCKDB) instanceof GuardVerdict.Accepted again)) {
                            readByTheGuard++;
                            // the control: the engine check alone refuses the statement the guard accepted
                            // before the column was denied
                            if (EngineCheck.disagreements(reading, denying, Dialect.DUCKDB).isEmpty()) {
                                missed.add(q.db() + " " + table + "." + column + " denied: " + q.sql());
                            }
                            continue;
                        }
                        pairs++;
                        List<String> found = EngineCheck.disagreements(check.read(c, again.statement()), denying,
                                Dialect.DUCKDB);
                        if (!found.isEmpty()) {
                            refused.add(q.db() + " " + table + "." + column + " denied: " + q.sql() + "\n    " + found);
                        }
                    }
                }
            }
        }
        System.out.printf("DUCKDB-COLUMN-COST gold: %d (query, denied column) pairs the guard accepts, %d the engine "
                + "check refuses; %d pairs the guard refuses (the query reads the column), %d of them the engine "
                + "check alone does not%n", pairs, refused.size(), readByTheGuard, missed.size());
        refused.forEach(r -> System.out.println("FALSE-REJECTION duckdb engine check: " + r));
        missed.forEach(r -> System.out.println("MISSED duckdb engine check: " + r));
        assertThat(pairs).isGreaterThan(3000);
        assertThat(missed).as("denied columns the guard sees read and the engine check alone does not").isEmpty();
        assertThat(refused).as("gold queries the engine check refuses for a column the guard says they do not read")
                .isEmpty();
    }

    private static List<String> columns(Connection c, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT column_name FROM information_schema.columns WHERE lower(table_name) = ?")) {
            ps.setString(1, table.toLowerCase(Locale.ROOT));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        return out;
    }
}
