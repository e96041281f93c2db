package dev.sqlagent.guard.engine;

import dev.sqlagent.execution.SqlStatement;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * DuckDB's reading of a statement: its own parser's tree ({@code json_serialize_sql}), not a plan. DuckDB's
 * {@code EXPLAIN} shows a view over a file as the file's reader with no name, and prints expressions as text;
 * the parser's tree names every table, view and function the statement refers to, as DuckDB itself reads
 * the SQL. What it gives: the tables (CTE names left out), the functions and operators called; a table
 * function, a statement the serializer refuses, or a node it cannot place is unreadable (fail closed); a
 * statement DuckDB cannot parse is a real error (thrown as {@link SQLException}, as a failed {@code EXPLAIN}).
 * Columns are not bound by the parser: {@code columnsKnown} is false, and denied columns rest on the guard
 * and on the registered files' views.
 */
final class DuckDbReader implements PlanReader {

    private static final JsonFactory JSON = new JsonFactory();
    /** Deeper trees are refused (fail closed); the guard's nesting cap keeps real statements far below. */
    private static final int MAX_DEPTH = 400;

    /** A JSON value: maps, lists, strings; numbers and literals as their text (DuckDB writes uint64 values). */
    private static Object value(JsonParser p, int depth) throws IOException {
        if (depth < 0) {
            throw new IOException("JSON nested too deeply");
        }
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT) {
            Map<String, Object> m = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String k = p.currentName();
                p.nextToken();
                m.put(k, value(p, depth - 1));
            }
            return m;
        }
        if (t == JsonToken.START_ARRAY) {
            List<Object> l = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                l.add(value(p, depth - 1));
            }
            return l;
        }
        if (t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE) {
            return t == JsonToken.VALUE_TRUE;
        }
        return t == JsonToken.VALUE_NULL ? null : p.getText();
    }

    @Override
    public EngineReading read(Connection c, SqlStatement statement, int timeoutSeconds) throws SQLException {
        String json;
        try (PreparedStatement ps = c.prepareStatement("SELECT json_serialize_sql(?)")) {
            ps.setString(1, statement.sql());
            if (timeoutSeconds > 0) {
                ps.setQueryTimeout(timeoutSeconds);
            }
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new PlanNotUnderstood("json_serialize_sql returned no row");
                }
                json = rs.getString(1);
            }
        }
        Map<String, Object> tree;
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT || !(value(p, MAX_DEPTH) instanceof Map<?, ?> m)) {
                throw new IOException("not a JSON object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> object = (Map<String, Object>) m;
            tree = object;
        } catch (IOException | RuntimeException e) {
            throw new PlanNotUnderstood("json_serialize_sql returned no JSON object: " + e.getMessage());
        }
        if (Boolean.TRUE.equals(tree.get("error"))) {
            if ("parser".equals(tree.get("error_type"))) {
                // DuckDB cannot parse it, so it cannot run either: a real error in the statement, reported in
                // DuckDB's own words (as executing it would) for the model to correct, like a failed EXPLAIN
                throw new SQLException("Parser Error: " + tree.get("error_message"), "42601");
            }
            return EngineReading.unreadable("a statement DuckDB's serializer refuses ("
                    + tree.get("error_type") + ": " + tree.get("error_message") + ")");
        }
        Set<String> ctes = new HashSet<>();
        collectCtes(tree, ctes);
        Set<EngineReading.Table> tables = new LinkedHashSet<>();
        Set<String> functions = new LinkedHashSet<>();
        Set<String> unreadable = new LinkedHashSet<>();
        walk(tree, ctes, tables, functions, unreadable);
        return new EngineReading(tables, Set.of(), functions, Set.of(), false, Set.of(), Set.of(), unreadable);
    }

    private static void collectCtes(Object node, Set<String> out) {
        if (node instanceof Map<?, ?> m) {
            Object cteMap = m.get("cte_map");
            if (cteMap instanceof Map<?, ?> cm && cm.get("map") instanceof List<?> entries) {
                for (Object e : entries) {
                    if (e instanceof Map<?, ?> em && em.get("key") instanceof String k) {
                        out.add(k.toLowerCase(Locale.ROOT));
                    }
                }
            }
            for (Object v : m.values()) {
                collectCtes(v, out);
            }
        } else if (node instanceof List<?> l) {
            for (Object v : l) {
                collectCtes(v, out);
            }
        }
    }

    private static void walk(Object node, Set<String> ctes, Set<EngineReading.Table> tables, Set<String> functions,
            Set<String> unreadable) {
        if (node instanceof List<?> l) {
            for (Object v : l) {
                walk(v, ctes, tables, functions, unreadable);
            }
            return;
        }
        if (!(node instanceof Map<?, ?> m)) {
            return;
        }
        Object type = m.get("type");
        if ("BASE_TABLE".equals(type)) {
            String catalog = text(m.get("catalog_name"));
            String schema = text(m.get("schema_name"));
            String name = text(m.get("table_name"));
            if (name.isEmpty()) {
                unreadable.add("a table reference without a name");
            } else if (!(catalog.isEmpty() && schema.isEmpty() && ctes.contains(name))) {
                boolean bare = catalog.isEmpty() && schema.isEmpty();
                String s = (catalog.isEmpty() ? "" : catalog + ".") + (schema.isEmpty() ? "main" : schema);
                tables.add(new EngineReading.Table(s, name, bare));
            }
        } else if ("TABLE_FUNCTION".equals(type)) {
            unreadable.add("the table function in FROM at offset " + m.get("query_location"));
        } else if ("FUNCTION".equals(m.get("class"))) {
            String name = text(m.get("function_name"));
            String schema = text(m.get("schema"));
            String catalog = text(m.get("catalog"));
            functions.add((catalog.isEmpty() ? "" : catalog + ".") + (schema.isEmpty() ? "" : schema + ".") + name);
        }
        for (Object v : m.values()) {
            walk(v, ctes, tables, functions, unreadable);
        }
    }

    private static String text(Object v) {
        return v instanceof String s ? s.toLowerCase(Locale.ROOT) : "";
    }
}
