package dev.sqlagent.trino;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Spider's gold SQL, written for SQLite, run raw on SQLite and on Trino (each database loaded into
 * {@code memory.<db>} by {@link TrinoSpider}) and the results compared as multisets of rows, numbers rounded to
 * four places. Many disagree for dialect reasons (double-quoted strings, integer division, bare columns under
 * GROUP BY, text compared with numbers): they are counted, not failed on; the test holds the measured floor of
 * agreement so that a change in the loader or the cluster that loses answers shows.
 */
class TrinoSpiderDifferentialTest {

    /**
     * Measured on Trino 483 with this loader: 519 and 522 of 972 agree in two runs (17 and 14 differ: a gold whose
     * {@code LIMIT} cuts through ties returns any of the tied rows on Trino), 436 fail on Trino (189 of them a
     * double-quoted string read as a column, 75 a bare column under GROUP BY, 119 syntax). The floor leaves room
     * for the ties, no more.
     */
    static final int AGREE_FLOOR = 510;

    @Test
    void goldSqlAgreesBetweenSqliteAndTrinoOnMostQuestions() throws Exception {
        TrinoFixture.cluster();
        long start = System.nanoTime();
        for (String db : TrinoSpider.databases()) {
            TrinoSpider.load(db);
        }
        long loaded = System.nanoTime();
        List<TrinoSpider.Gold> gold = TrinoSpider.gold();
        int agree = 0;
        int differ = 0;
        int trinoFails = 0;
        int sqliteFails = 0;
        Map<String, Integer> errors = new LinkedHashMap<>();
        Map<String, Connection> trino = new HashMap<>();
        Map<String, Connection> lite = new HashMap<>();
        try {
            for (TrinoSpider.Gold g : gold) {
                Connection l = lite.computeIfAbsent(g.db(), db -> open(() -> TrinoSpider.sqlite(db)));
                Connection t = trino.computeIfAbsent(g.db(), db -> open(() -> TrinoFixture.admin("memory",
                        db.toLowerCase(java.util.Locale.ROOT))));
                List<String> expected;
                try {
                    expected = rows(l, g.sql());
                } catch (SQLException e) {
                    sqliteFails++;
                    continue;
                }
                List<String> actual;
                try {
                    actual = rows(t, g.sql());
                } catch (SQLException e) {
                    trinoFails++;
                    String m = String.valueOf(e.getMessage()).replaceAll("^Query failed \\([^)]*\\): ", "")
                            .replaceAll("line \\d+:\\d+: ", "").replaceAll("'[^']*'", "'…'");
                    errors.merge(m.length() > 60 ? m.substring(0, 60) : m, 1, Integer::sum);
                    continue;
                }
                if (expected.equals(actual)) {
                    agree++;
                } else {
                    differ++;
                }
            }
        } finally {
            for (Connection c : trino.values()) {
                c.close();
            }
            for (Connection c : lite.values()) {
                c.close();
            }
        }
        long done = System.nanoTime();
        System.out.printf("spider on trino: %d gold, %d agree, %d differ, %d fail on Trino, %d fail on SQLite"
                        + " (load %.1f s, run %.1f s)%n", gold.size(), agree, differ, trinoFails, sqliteFails,
                (loaded - start) / 1e9, (done - loaded) / 1e9);
        errors.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(12)
                .forEach(e -> System.out.printf("  %4d  %s%n", e.getValue(), e.getKey()));
        assertThat(sqliteFails).as("every gold runs on SQLite").isZero();
        assertThat(agree).as("gold answers that agree on SQLite and Trino").isGreaterThanOrEqualTo(AGREE_FLOOR);
    }

    private interface Opener {
        Connection open() throws SQLException;
    }

    private static Connection open(Opener o) {
        try {
            return o.open();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    b.append(i > 1 ? "|" : "").append(cell(rs.getObject(i)));
                }
                out.add(b.toString());
            }
        }
        Collections.sort(out);
        return out;
    }

    private static String cell(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Number n) {
            return new BigDecimal(n.toString()).setScale(4, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
        }
        String s = v.toString();
        try {
            return new BigDecimal(s.trim()).setScale(4, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
        } catch (NumberFormatException e) {
            return s;
        }
    }
}
