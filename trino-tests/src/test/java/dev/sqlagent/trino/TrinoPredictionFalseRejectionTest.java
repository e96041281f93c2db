package dev.sqlagent.trino;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.guard.engine.EngineCheck;
import dev.sqlagent.guard.engine.EngineVerdict;
import dev.sqlagent.internal.JsonTree;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * False rejections on real model predictions, on Trino: every Spider prediction of {@code gpt4-few-shot.jsonl} that
 * Trino itself runs over the database loaded into {@code memory.<db>} is valid SQL over tables the policy allows
 * (every table of its database), so any refusal of it, by the guard or by the engine check, is a false rejection.
 * Predictions that do not run on Trino (SQLite's dialect: double-quoted strings, bare columns under GROUP BY) are
 * left out, not counted. Every other prediction by default; {@code -Dsqlagent.trino.allPredictions=true} for all.
 */
class TrinoPredictionFalseRejectionTest {

    @Test
    void fewValidPredictionsAreRefused() throws Exception {
        SqlGuard guard = SqlGuard.create();
        List<String> lines = Files.readAllLines(TrinoSpider.spiderDir().resolve("predictions/gpt4-few-shot.jsonl"),
                StandardCharsets.UTF_8);
        Map<String, GuardPolicy> policies = new HashMap<>();
        Map<String, EngineCheck> checks = new HashMap<>();
        int valid = 0;
        Map<String, List<String>> refused = new TreeMap<>();
        int asked = 0;
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> m = JsonTree.parseObject(line);
            if (((Number) m.get("id")).intValue() % 2 != 0 && !Boolean.getBoolean("sqlagent.trino.allPredictions")) {
                continue; // every other prediction, unless asked for all
            }
            asked++;
            String db = (String) m.get("db_id");
            String sql = ((String) m.get("predicted_sql")).strip();
            TrinoSpider.load(db);
            String schema = db.toLowerCase(Locale.ROOT);
            try (Connection c = TrinoFixture.admin("memory", schema)) {
                TrinoCorpus.run(c, sql);
            } catch (Exception e) {
                continue; // not valid on Trino: not counted
            }
            valid++;
            GuardPolicy policy = policies.computeIfAbsent(db, TrinoPredictionFalseRejectionTest::policy);
            GuardVerdict v = guard.check(sql, policy, Dialect.TRINO);
            if (v instanceof GuardVerdict.Rejected r) {
                refused.computeIfAbsent("guard: " + r.violations().get(0).type(), k -> new ArrayList<>())
                        .add(sql + "  [" + r.violations().get(0).message() + "]");
                continue;
            }
            EngineCheck check = checks.computeIfAbsent(schema, s -> EngineCheck.create(new UrlDataSource(
                    TrinoFixture.cluster().jdbcUrl("memory", s), TrinoFixture.ADMIN, null), Dialect.TRINO));
            GuardVerdict.Accepted a = (GuardVerdict.Accepted) v;
            EngineVerdict e = check.check(a, policy);
            if (!(e instanceof EngineVerdict.Confirmed)) {
                refused.computeIfAbsent("engine check", k -> new ArrayList<>()).add(sql + "  [" + e + "]");
            }
        }
        int n = refused.values().stream().mapToInt(List::size).sum();
        StringBuilder report = new StringBuilder();
        refused.forEach((k, list) -> {
            report.append("  ").append(k).append(": ").append(list.size()).append('\n');
            list.stream().limit(5).forEach(s -> report.append("    ").append(s.length() > 300 ? s.substring(0, 300) : s)
                    .append('\n'));
        });
        System.out.printf(Locale.ROOT, "trino predictions (gpt4-few-shot): %d of %d run on Trino; refused %d (%.2f%%)%n%s",
                valid, asked, n, 100.0 * n / Math.max(1, valid), report);
        assertThat(valid).as("predictions Trino runs").isGreaterThan(350);
        assertThat(100.0 * n / valid).as("false-rejection rate on Trino, percent").isLessThanOrEqualTo(MAX_PERCENT);
    }

    /**
     * The bound: the project's false-rejection target (0.25 %). Measured 2026-12-03 over all 972 predictions: 821 run
     * on Trino, 0 refused (0.00 %); the suite runs every other one (the build's time: about two minutes).
     */
    private static final double MAX_PERCENT = 0.25;

    private static GuardPolicy policy(String db) {
        List<String> tables = new ArrayList<>();
        try (Connection c = TrinoSpider.sqlite(db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                     + "'sqlite_%'")) {
            while (rs.next()) {
                tables.add(rs.getString(1).toLowerCase(Locale.ROOT));
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        return GuardPolicy.builder().allowTables(tables).allowSelectStar(true).build();
    }
}
