package dev.sqlagent.guard;

import dev.sqlagent.internal.JsonTree;
import dev.sqlagent.testing.SharedData;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads the shared Spider dev data: schemas, gold SQL, model predictions, SQLite files. */
final class SpiderData {

    private static final JsonFactory JSON = new JsonFactory();

    /** One question's SQL. */
    record Query(int id, String db, String sql) {
    }

    private SpiderData() {
    }

    static Path root() {
        return SharedData.dataDir();
    }

    static Path spider() {
        return SharedData.spiderDir();
    }

    static Path sqlite(String db) {
        return spider().resolve("sqlite").resolve(db + ".sqlite");
    }

    /** @return table names (as written) per database, from tables.json */
    static Map<String, List<String>> tables() throws IOException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        try (JsonParser p = JSON.createParser(spider().resolve("tables.json").toFile())) {
            p.nextToken(); // [
            while (p.nextToken() == JsonToken.START_OBJECT) {
                String db = null;
                List<String> tables = new ArrayList<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    p.nextToken();
                    if (field.equals("db_id")) {
                        db = p.getText();
                    } else if (field.equals("table_names_original")) {
                        while (p.nextToken() != JsonToken.END_ARRAY) {
                            tables.add(p.getText());
                        }
                    } else {
                        p.skipChildren();
                    }
                }
                out.put(db, tables);
            }
        }
        return out;
    }

    /**
     * Closed-world policies: each database's tables allowed, star allowed, and every table's columns as the
     * SQLite file itself lists them ({@code pragma_table_info}), as {@code SqlAgent} gives them to the guard.
     */
    static Map<String, GuardPolicy> closedWorldPolicies() throws Exception {
        Map<String, GuardPolicy> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : tables().entrySet()) {
            GuardPolicy.Builder b = GuardPolicy.builder().allowTables(e.getValue()).allowSelectStar(true);
            try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:file:"
                    + sqlite(e.getKey()) + "?mode=ro");
                 java.sql.PreparedStatement ps = c.prepareStatement("SELECT name FROM pragma_table_info(?)")) {
                for (String table : e.getValue()) {
                    ps.setString(1, table);
                    List<String> columns = new ArrayList<>();
                    try (java.sql.ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            columns.add(rs.getString(1));
                        }
                    }
                    b.tableColumns(table, columns);
                }
            }
            out.put(e.getKey(), b.build());
        }
        return out;
    }

    static List<Query> gold() throws IOException {
        return queries(spider().resolve("dev.jsonl"), "gold_sql");
    }

    static List<Query> predictions(String file) throws IOException {
        return queries(spider().resolve("predictions").resolve(file), "predicted_sql");
    }

    private static List<Query> queries(Path file, String sqlField) throws IOException {
        List<Query> out = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> m = JsonTree.parseObject(line);
            Object id = m.get("id");
            out.add(new Query(id instanceof Number ? ((Number) id).intValue() : -1, (String) m.get("db_id"),
                    (String) m.get(sqlField)));
        }
        return out;
    }
}
