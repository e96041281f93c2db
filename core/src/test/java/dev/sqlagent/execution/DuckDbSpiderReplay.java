package dev.sqlagent.execution;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Spider dev databases in DuckDB ({@code shared/data/spider-dev/postgres/*.sql}, which DuckDB reads as
 * they are, foreign keys aside), and the gold SQL and the three shared prediction sets replayed on DuckDB and
 * on SQLite: how many run, how many give the gold answer on each engine, and every DuckDB error message,
 * written to a file for the error classifier's held-out check.
 *
 * <pre>
 * java -cp core/target/test-classes:core/target/classes:&lt;test class path&gt; \
 *     dev.sqlagent.execution.DuckDbSpiderReplay /work/shared/data/spider-dev /tmp/spider.duckdb /tmp/duckdb-errors.tsv
 * </pre>
 */
public final class DuckDbSpiderReplay {

    private DuckDbSpiderReplay() {
    }

    /**
     * Runs the replay.
     *
     * @param args the spider-dev folder, the DuckDB file to build (rebuilt when missing), the errors file
     * @throws Exception when the data cannot be read
     */
    public static void main(String[] args) throws Exception {
        Path spider = Paths.get(args[0]);
        Path duckFile = Paths.get(args[1]);
        Path errorsFile = Paths.get(args[2]);
        if (!Files.exists(duckFile)) {
            load(spider, duckFile);
        }
        Map<Integer, String[]> gold = new TreeMap<>();
        for (Map<String, String> row : jsonl(spider.resolve("dev.jsonl"))) {
            gold.put(Integer.parseInt(row.get("id")), new String[] {row.get("db_id"), row.get("gold_sql")});
        }
        StringBuilder errors = new StringBuilder("set\tid\tdb\tmessage\tsql\n");
        Map<String, Connection> sqlite = new HashMap<>();
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:" + duckFile)) {
            Map<String, List<Map<String, String>>> sets = new LinkedHashMap<>();
            List<Map<String, String>> goldRows = new ArrayList<>();
            for (Map.Entry<Integer, String[]> g : gold.entrySet()) {
                goldRows.add(Map.of("id", String.valueOf(g.getKey()), "db_id", g.getValue()[0],
                        "predicted_sql", g.getValue()[1]));
            }
            sets.put("gold", goldRows);
            for (String set : List.of("codex-few-shot", "codex-din-sql", "gpt4-few-shot")) {
                sets.put(set, jsonl(spider.resolve("predictions/" + set + ".jsonl")));
            }
            for (Map.Entry<String, List<Map<String, String>>> set : sets.entrySet()) {
                int n = 0;
                int duckRan = 0;
                int liteRan = 0;
                int duckCorrect = 0;
                int liteCorrect = 0;
                int differ = 0;
                for (Map<String, String> p : set.getValue()) {
                    int id = Integer.parseInt(p.get("id"));
                    String db = p.get("db_id");
                    String sql = p.get("predicted_sql");
                    if (!gold.containsKey(id)) {
                        continue;
                    }
                    n++;
                    Connection lite = sqlite.computeIfAbsent(db, d -> open("jdbc:sqlite:" + spider.resolve("sqlite/" + d + ".sqlite")));
                    Object goldLite = run(lite, gold.get(id)[1]);
                    try (Statement s = duck.createStatement()) {
                        s.execute("SET search_path = '" + db + "'");
                    }
                    Object d = run(duck, sql);
                    Object l = run(lite, sql);
                    if (d instanceof String msg) {
                        errors.append(set.getKey()).append('\t').append(id).append('\t').append(db).append('\t')
                                .append(msg.replace('\n', ' ').replace('\t', ' ')).append('\t')
                                .append(sql.replace('\n', ' ').replace('\t', ' ')).append('\n');
                    } else {
                        duckRan++;
                        if (d.equals(goldLite)) {
                            duckCorrect++;
                        }
                    }
                    if (!(l instanceof String)) {
                        liteRan++;
                        if (l.equals(goldLite)) {
                            liteCorrect++;
                        }
                    }
                    if (!(l instanceof String) && !(d instanceof String) && l.equals(goldLite) != d.equals(goldLite)) {
                        differ++;
                        System.out.println("DIFFERS " + set.getKey() + " " + id + " sqlite-correct=" + l.equals(goldLite)
                                + ": " + sql);
                    }
                }
                System.out.printf("%s: %d statements; ran DuckDB %d, SQLite %d; gold answer DuckDB %d, SQLite %d; "
                        + "correctness differs on %d%n", set.getKey(), n, duckRan, liteRan, duckCorrect, liteCorrect, differ);
            }
        } finally {
            for (Connection c : sqlite.values()) {
                c.close();
            }
        }
        Files.writeString(errorsFile, errors.toString(), StandardCharsets.UTF_8);
    }

    private static Connection open(String url) {
        try {
            return DriverManager.getConnection(url);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The result as a sorted list of normalised rows, or the error message. */
    private static Object run(Connection c, String sql) {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            int n = r.getMetaData().getColumnCount();
            List<String> rows = new ArrayList<>();
            while (r.next() && rows.size() < 100_000) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    Object v = r.getObject(i);
                    if (v instanceof Number num) {
                        double x = num.doubleValue();
                        v = x == Math.rint(x) && Math.abs(x) < 1e15 ? String.valueOf((long) x)
                                : String.format(Locale.ROOT, "%.4f", x);
                    }
                    b.append(v).append('|');
                }
                rows.add(b.toString());
            }
            java.util.Collections.sort(rows);
            return rows;
        } catch (SQLException e) {
            return String.valueOf(e.getMessage());
        }
    }

    private static void load(Path spider, Path duckFile) throws IOException, SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + duckFile); Statement s = c.createStatement()) {
            try (var files = Files.list(spider.resolve("postgres"))) {
                for (Path f : files.sorted().toList()) {
                    StringBuilder stmt = new StringBuilder();
                    int ran = 0;
                    for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                        if (line.startsWith("--") || line.isBlank() && stmt.length() == 0) {
                            continue;
                        }
                        stmt.append(line).append('\n');
                        if (line.stripTrailing().endsWith(";")) {
                            String sql = stmt.toString();
                            stmt.setLength(0);
                            if (sql.startsWith("ALTER TABLE")) {
                                continue; // foreign keys: DuckDB cannot add them to an existing table
                            }
                            try {
                                s.execute(sql);
                                ran++;
                            } catch (SQLException e) {
                                System.out.println("LOAD " + f.getFileName() + ": " + e.getMessage().lines().findFirst()
                                        .orElse("") + " :: " + sql.lines().findFirst().orElse(""));
                            }
                        }
                    }
                    System.out.println("LOADED " + f.getFileName() + ": " + ran + " statements");
                }
            }
        }
    }

    private static List<Map<String, String>> jsonl(Path file) throws IOException {
        List<Map<String, String>> out = new ArrayList<>();
        JsonFactory f = new JsonFactory();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, String> row = new HashMap<>();
            try (JsonParser p = f.createParser(line)) {
                p.nextToken();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String k = p.currentName();
                    p.nextToken();
                    row.put(k, p.getValueAsString());
                }
            }
            out.add(row);
        }
        return out;
    }
}
