package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * False rejections on real model predictions: every Spider prediction that SQLite runs without error is
 * valid SQL over tables the policy allows, so any refusal of it is a false rejection. The predictions are
 * SQLite SQL; they are also read as PostgreSQL, MySQL and H2 SQL (most of it is portable), as the error
 * classification replay does. The rates are reported in {@code docs/security.md}.
 */
class PredictionFalseRejectionTest {

    private static final List<Dialect> DIALECTS = List.of(Dialect.SQLITE, Dialect.POSTGRESQL, Dialect.MYSQL,
            Dialect.MARIADB, Dialect.H2);

    @Test
    void validPredictionsAreAcceptedInEveryDialect() throws Exception {
        SqlGuard guard = SqlGuard.create();
        Map<String, GuardPolicy> policies = SpiderData.closedWorldPolicies();
        Map<String, Connection> connections = new HashMap<>();
        Map<Dialect, Integer> refused = new EnumMap<>(Dialect.class);
        Map<Dialect, Integer> caseOnly = new EnumMap<>(Dialect.class);
        Map<Dialect, List<String>> examples = new EnumMap<>(Dialect.class);
        int valid = 0;
        try {
            for (String file : List.of("codex-few-shot.jsonl", "codex-din-sql.jsonl", "gpt4-few-shot.jsonl")) {
                for (SpiderData.Query q : SpiderData.predictions(file)) {
                    Connection c = connections.computeIfAbsent(q.db(), PredictionFalseRejectionTest::open);
                    if (!runs(c, q.sql())) {
                        continue;
                    }
                    valid++;
                    for (Dialect d : DIALECTS) {
                        GuardVerdict v = guard.check(q.sql(), policies.get(q.db()), d);
                        if (d.isMySqlFamily() && caseOfTableNamesOnly(v)) {
                            // MySQL on Linux refuses the table too: its table names are case-sensitive
                            caseOnly.merge(d, 1, Integer::sum);
                        } else if (!(v instanceof GuardVerdict.Accepted)) {
                            refused.merge(d, 1, Integer::sum);
                            examples.computeIfAbsent(d, x -> new ArrayList<>()).add(file + " " + q.id() + " " + v);
                        }
                    }
                }
            }
        } finally {
            for (Connection c : connections.values()) {
                c.close();
            }
        }
        for (Dialect d : DIALECTS) {
            int n = refused.getOrDefault(d, 0);
            System.out.printf("PREDICTIONS %s: %d valid, %d refused (%.2f %%), %d more naming a table in another "
                    + "case than the schema (refused by the engine too)%n", d, valid, n, 100.0 * n / valid,
                    caseOnly.getOrDefault(d, 0));
            examples.getOrDefault(d, List.of()).stream().limit(15).forEach(e -> System.out.println("  " + e));
        }
        assertThat(valid).isGreaterThan(2000);
        for (Dialect d : DIALECTS) {
            assertThat(refused.getOrDefault(d, 0)).as("false rejections in %s", d).isLessThanOrEqualTo(valid / 400);
        }
    }

    private static boolean caseOfTableNamesOnly(GuardVerdict v) {
        return v instanceof GuardVerdict.Rejected && ((GuardVerdict.Rejected) v).violations().stream()
                .allMatch(x -> x.type() == ViolationType.TABLE_NOT_ALLOWED);
    }

    private static boolean runs(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            s.setMaxRows(1);
            try (ResultSet rs = s.executeQuery(sql)) {
                rs.next();
            }
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    private static Connection open(String db) {
        try {
            return DriverManager.getConnection("jdbc:sqlite:file:" + SpiderData.sqlite(db) + "?mode=ro");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
