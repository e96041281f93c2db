package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The guard on real SQL: Spider's 972 gold queries and three models' predictions. */
class SpiderGoldTest {

    private final SqlGuard guard = SqlGuard.create();

    private static Map<String, GuardPolicy> policies() throws Exception {
        return SpiderData.closedWorldPolicies();
    }

    @Test
    void everyGoldQueryIsAcceptedWithItsDatabaseTablesAndStarAllowed() throws Exception {
        Map<String, GuardPolicy> policies = policies();
        List<String> falseRejections = new ArrayList<>();
        for (SpiderData.Query q : SpiderData.gold()) {
            GuardVerdict v = guard.check(q.sql(), policies.get(q.db()), Dialect.SQLITE);
            if (!(v instanceof GuardVerdict.Accepted)) {
                falseRejections.add(q.id() + " " + q.db() + " " + q.sql() + " -> " + v);
            }
        }
        falseRejections.forEach(System.out::println);
        assertThat(falseRejections).isEmpty();
    }

    @Test
    void rewrittenGoldQueriesReturnTheSameRowsOnSqlite() throws Exception {
        Map<String, GuardPolicy> policies = policies();
        Map<String, Connection> connections = new HashMap<>();
        List<String> differences = new ArrayList<>();
        int compared = 0;
        try {
            for (SpiderData.Query q : SpiderData.gold()) {
                GuardVerdict v = guard.check(q.sql(), policies.get(q.db()), Dialect.SQLITE);
                if (!(v instanceof GuardVerdict.Accepted)) {
                    continue;
                }
                Connection c = connections.computeIfAbsent(q.db(), SpiderGoldTest::open);
                List<List<Object>> original = run(c, q.sql(), List.of());
                GuardVerdict.Accepted a = (GuardVerdict.Accepted) v;
                List<List<Object>> rewritten = run(c, a.statement().sql(), a.statement().parameters());
                compared++;
                if (original.size() <= GuardPolicy.DEFAULT_MAX_ROWS ? !original.equals(rewritten)
                        : rewritten.size() != GuardPolicy.DEFAULT_MAX_ROWS) {
                    differences.add(q.id() + ": " + q.sql() + " => " + a.statement().sql());
                }
            }
        } finally {
            for (Connection c : connections.values()) {
                c.close();
            }
        }
        differences.forEach(System.out::println);
        assertThat(compared).isGreaterThan(960);
        assertThat(differences).isEmpty();
    }

    @Test
    void predictionRejectionRatesAreReported() throws Exception {
        Map<String, GuardPolicy> policies = policies();
        for (String file : List.of("codex-few-shot.jsonl", "codex-din-sql.jsonl", "gpt4-few-shot.jsonl")) {
            int accepted = 0;
            int rejected = 0;
            int unparseable = 0;
            Map<ViolationType, Integer> byType = new HashMap<>();
            List<SpiderData.Query> queries = SpiderData.predictions(file);
            for (SpiderData.Query q : queries) {
                GuardVerdict v = guard.check(q.sql(), policies.get(q.db()), Dialect.SQLITE);
                if (v instanceof GuardVerdict.Accepted) {
                    accepted++;
                } else if (v instanceof GuardVerdict.Rejected) {
                    rejected++;
                    for (Violation x : ((GuardVerdict.Rejected) v).violations()) {
                        byType.merge(x.type(), 1, Integer::sum);
                    }
                    System.out.println("REJECTED " + file + " " + q.id() + " " + q.sql() + " -> " + v);
                } else {
                    unparseable++;
                    System.out.println("UNPARSEABLE " + file + " " + q.id() + " " + q.sql() + " -> " + v);
                }
            }
            System.out.printf("PREDICTIONS %s: %d queries, %d accepted, %d rejected (%.1f%%), %d unparseable (%.1f%%), by type %s%n",
                    file, queries.size(), accepted, rejected, 100.0 * rejected / queries.size(), unparseable,
                    100.0 * unparseable / queries.size(), byType);
            assertThat(accepted + rejected + unparseable).isEqualTo(queries.size());
        }
    }

    private static Connection open(String db) {
        try {
            return DriverManager.getConnection("jdbc:sqlite:file:" + SpiderData.sqlite(db) + "?mode=ro");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<List<Object>> run(Connection c, String sql, List<Object> params) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.size(); i++) {
                ps.setObject(i + 1, params.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int i = 1; i <= n; i++) {
                        row.add(rs.getObject(i));
                    }
                    rows.add(row);
                }
            }
        }
        return rows;
    }
}
