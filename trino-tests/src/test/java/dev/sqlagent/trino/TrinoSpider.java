package dev.sqlagent.trino;

import dev.sqlagent.internal.JsonTree;
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
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The Spider dev databases ({@code shared/data/spider-dev/sqlite}) loaded into Trino's {@code memory} catalog,
 * one schema per database named as the database ({@code memory.concert_singer}, …). Trino folds names to lower
 * case; columns are typed from their values, as SQLite keeps them: {@code bigint} when every value is an integer,
 * {@code double} when every value is a number, else {@code varchar} (dates stay ISO text, as in SQLite).
 */
final class TrinoSpider {

    /** One gold question. */
    record Gold(int id, String db, String sql) {
    }

    private static final Set<String> LOADED = new HashSet<>();
    private static final int ROWS_PER_INSERT = 500;

    private TrinoSpider() {
    }

    /** {@return the spider-dev directory}, found as the core suites find it */
    static Path spiderDir() {
        String root = System.getProperty("sqlagent.projectRoot");
        List<Path> candidates = new ArrayList<>();
        if (root != null && !root.isBlank()) {
            candidates.add(Paths.get(root).toAbsolutePath().normalize().resolveSibling("shared").resolve("data"));
        }
        Path start = Paths.get(System.getProperty("user.dir")).toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            candidates.add(dir.resolve("shared").resolve("data"));
            candidates.add(dir.resolveSibling("shared").resolve("data"));
        }
        for (Path c : candidates) {
            if (Files.isDirectory(c.resolve("spider-dev").resolve("sqlite"))) {
                return c.resolve("spider-dev");
            }
        }
        throw new IllegalStateException("shared/data/spider-dev not found from " + System.getProperty("user.dir"));
    }

    static List<String> databases() throws IOException {
        try (Stream<Path> files = Files.list(spiderDir().resolve("sqlite"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".sqlite"))
                    .map(n -> n.substring(0, n.length() - ".sqlite".length())).sorted().toList();
        }
    }

    static Connection sqlite(String db) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:file:" + spiderDir().resolve("sqlite").resolve(db + ".sqlite")
                + "?mode=ro");
    }

    static List<Gold> gold() throws IOException {
        List<Gold> out = new ArrayList<>();
        for (String line : Files.readAllLines(spiderDir().resolve("dev.jsonl"), StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                Map<String, Object> m = JsonTree.parseObject(line);
                out.add(new Gold(((Number) m.get("id")).intValue(), (String) m.get("db_id"),
                        (String) m.get("gold_sql")));
            }
        }
        return out;
    }

    /** Loads a database into {@code memory.<db>} once per JVM. */
    static synchronized void load(String db) throws SQLException {
        if (LOADED.contains(db)) {
            return;
        }
        String schema = "memory." + quote(db.toLowerCase(Locale.ROOT));
        try (Connection lite = sqlite(db); Connection t = TrinoFixture.admin("memory", "default");
             Statement ts = t.createStatement()) {
            List<String> existing = new ArrayList<>();
            try (ResultSet rs = ts.executeQuery("SELECT table_name FROM memory.information_schema.tables WHERE "
                    + "table_schema = '" + db.toLowerCase(Locale.ROOT) + "'")) {
                while (rs.next()) {
                    existing.add(rs.getString(1));
                }
            }
            for (String e : existing) {
                ts.execute("DROP TABLE " + schema + "." + quote(e));
            }
            ts.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
            List<String> tables = new ArrayList<>();
            try (Statement ls = lite.createStatement(); ResultSet rs = ls.executeQuery(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String table : tables) {
                loadTable(lite, ts, schema, table);
            }
        }
        LOADED.add(db);
    }

    private static void loadTable(Connection lite, Statement ts, String schema, String table) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (Statement ls = lite.createStatement();
             ResultSet rs = ls.executeQuery("SELECT name FROM pragma_table_info('" + table.replace("'", "''") + "')")) {
            while (rs.next()) {
                columns.add(rs.getString(1));
            }
        }
        List<String> types = new ArrayList<>();
        try (Statement ls = lite.createStatement()) {
            for (String col : columns) {
                String c = "\"" + col.replace("\"", "\"\"") + "\"";
                String from = " FROM \"" + table.replace("\"", "\"\"") + "\"";
                try (ResultSet rs = ls.executeQuery("SELECT sum(typeof(" + c + ") NOT IN ('integer', 'null')),"
                        + " sum(typeof(" + c + ") NOT IN ('integer', 'real', 'null'))" + from)) {
                    rs.next();
                    types.add(rs.getLong(1) == 0 ? "bigint" : rs.getLong(2) == 0 ? "double" : "varchar");
                }
            }
        }
        StringBuilder create = new StringBuilder("CREATE TABLE " + schema + "." + quote(table) + " (");
        for (int i = 0; i < columns.size(); i++) {
            create.append(i > 0 ? ", " : "").append(quote(columns.get(i))).append(' ').append(types.get(i));
        }
        ts.execute(create.append(')').toString());
        List<String> rows = new ArrayList<>();
        try (Statement ls = lite.createStatement();
             ResultSet rs = ls.executeQuery("SELECT * FROM \"" + table.replace("\"", "\"\"") + "\"")) {
            while (rs.next()) {
                StringBuilder row = new StringBuilder("(");
                for (int i = 0; i < columns.size(); i++) {
                    Object v = rs.getObject(i + 1);
                    row.append(i > 0 ? ", " : "").append(literal(v, types.get(i)));
                }
                rows.add(row.append(')').toString());
                if (rows.size() == ROWS_PER_INSERT) {
                    insert(ts, schema, table, rows);
                }
            }
        }
        insert(ts, schema, table, rows);
    }

    private static void insert(Statement ts, String schema, String table, List<String> rows) throws SQLException {
        if (!rows.isEmpty()) {
            ts.execute("INSERT INTO " + schema + "." + quote(table) + " VALUES " + String.join(", ", rows));
            rows.clear();
        }
    }

    private static String literal(Object v, String type) {
        if (v == null) {
            return "NULL";
        }
        switch (type) {
            case "bigint":
                return "BIGINT '" + ((Number) v).longValue() + "'";
            case "double":
                return "DOUBLE '" + ((Number) v).doubleValue() + "'";
            default:
                String s = v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(v);
                return "'" + s.replace("'", "''") + "'";
        }
    }

    static String quote(String name) {
        return "\"" + name.toLowerCase(Locale.ROOT).replace("\"", "\"\"") + "\"";
    }
}
