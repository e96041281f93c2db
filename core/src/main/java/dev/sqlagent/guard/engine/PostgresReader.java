package dev.sqlagent.guard.engine;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.internal.JsonTree;
import java.io.IOException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * PostgreSQL's reading of a statement: {@code EXPLAIN (VERBOSE, FORMAT JSON)}. Every plan node that scans a
 * relation names it ({@code Relation Name}, {@code Schema}, {@code Alias}); with VERBOSE every expression
 * (output lists, filters, join and index conditions, sort and group keys, function calls) is printed with
 * its columns qualified by their relation's alias, and functions by name. A {@code ModifyTable} or
 * {@code LockRows} node is a write.
 *
 * <p>A scan that hands its parent every column of its table (PostgreSQL's "physical target list", an
 * optimisation under joins and sorts) does not read them all: its parent's expressions name the columns
 * used, so such an output list is not counted. Whether a bare table name resolves to the relation is asked
 * of the catalog ({@code to_regclass}), on the same connection.
 */
final class PostgresReader implements PlanReader {

    private static final JsonFactory JSON = new JsonFactory();
    private static final int MAX_PLAN_DEPTH = 1000;

    private static final Set<String> EXPRESSION_KEYS = Set.of("Output", "Filter", "Join Filter", "Hash Cond",
            "Merge Cond", "Index Cond", "Recheck Cond", "Sort Key", "Group Key", "Group Keys", "Hash Key",
            "One-Time Filter", "TID Cond", "Function Call", "Table Function Call", "Presorted Key", "Cache Key",
            "Run Condition", "Order By", "Grouping Sets", "Sorted Key", "Hash Keys");
    private static final Set<String> WRITE_NODES = Set.of("ModifyTable", "LockRows");
    private static final Set<String> NOT_FUNCTIONS = Set.of("any", "all", "some", "in", "exists", "array", "row",
            "and", "or", "not", "over", "filter", "within", "case", "when", "then", "else", "values", "is",
            "like", "ilike", "similar", "between", "distinct", "from", "for", "as", "on", "using", "partition",
            "order", "by", "rows", "range", "groups", "subplan", "initplan", "hashed", "cast", "interval");
    private static final Set<String> TYPE_CONTINUATIONS = Set.of("varying", "precision", "without", "with", "time",
            "zone");

    /** A relation a plan node scans. */
    private record Scan(String schema, String name, String alias) {
    }

    @Override
    public EngineReading read(Connection c, SqlStatement statement, int timeoutSeconds) throws SQLException {
        String json;
        try (PreparedStatement ps = Explain.prepare(c, "EXPLAIN (VERBOSE, FORMAT JSON) ", statement, timeoutSeconds)) {
            try (ResultSet rs = ps.executeQuery()) {
                StringBuilder b = new StringBuilder();
                while (rs.next()) {
                    b.append(rs.getString(1));
                }
                json = b.toString();
            }
        }
        Object plan;
        try (JsonParser p = JSON.createParser(json)) {
            p.nextToken();
            plan = JsonTree.readValue(p, MAX_PLAN_DEPTH);
        } catch (IOException e) {
            throw new PlanNotUnderstood("EXPLAIN's JSON could not be read: " + e.getMessage());
        }
        List<Scan> scans = new ArrayList<>();
        collectScans(plan, scans);
        Map<String, Relation> relations = relations(c, scans);
        Set<EngineReading.Table> tables = new LinkedHashSet<>();
        Map<String, EngineReading.Table> aliases = new HashMap<>();
        for (Scan s : scans) {
            Relation r = relations.get(s.schema() + "\u0000" + s.name());
            EngineReading.Table t = new EngineReading.Table(s.schema(), s.name(), r != null && r.resolvesBare());
            tables.add(t);
            if (s.alias() != null) {
                aliases.put(s.alias(), t);
            }
        }
        Walk walk = new Walk(relations, aliases);
        walk.top(plan);
        return new EngineReading(tables, walk.columns, walk.functions, walk.writes, true);
    }

    private static void collectScans(Object node, List<Scan> scans) {
        if (node instanceof List<?> list) {
            list.forEach(o -> collectScans(o, scans));
        } else if (node instanceof Map<?, ?> map) {
            Object relation = map.get("Relation Name");
            if (relation != null) {
                Object schema = map.get("Schema");
                Object alias = map.get("Alias");
                scans.add(new Scan(schema == null ? "" : schema.toString(), relation.toString(),
                        alias == null ? null : alias.toString()));
            }
            map.values().forEach(v -> {
                if (v instanceof Map || v instanceof List) {
                    collectScans(v, scans);
                }
            });
        }
    }

    /**
     * One pass over the plan tree. A node's output list is not a read when it only hands on what its child
     * handed it: a scan's physical target list (every column of its table, for a parent that picks), and a
     * pass-through node (Materialize, Sort, Hash, Limit, …) over such a child with the same list.
     */
    private static final class Walk {
        final Map<String, Relation> relations;
        final Map<String, EngineReading.Table> aliases;
        final Set<EngineReading.ColumnRead> columns = new LinkedHashSet<>();
        final Set<String> functions = new LinkedHashSet<>();
        final Set<String> writes = new LinkedHashSet<>();

        Walk(Map<String, Relation> relations, Map<String, EngineReading.Table> aliases) {
            this.relations = relations;
            this.aliases = aliases;
        }

        void top(Object plan) {
            if (plan instanceof List<?> list) {
                list.forEach(this::top);
            } else if (plan instanceof Map<?, ?> map && map.get("Plan") != null) {
                node(map.get("Plan"));
            } else {
                throw new PlanNotUnderstood("EXPLAIN's JSON has no Plan");
            }
        }

        /** {@return the node's output list, and whether it was handed on without being read} */
        Map.Entry<List<String>, Boolean> node(Object o) {
            if (!(o instanceof Map<?, ?> map)) {
                throw new PlanNotUnderstood("a plan node is not an object: " + o);
            }
            Object type = map.get("Node Type");
            if (type != null && WRITE_NODES.contains(type.toString())) {
                writes.add(type.toString());
            }
            List<Map.Entry<List<String>, Boolean>> children = new ArrayList<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String k = String.valueOf(e.getKey());
                if (k.equals("Plans") && e.getValue() instanceof List<?> plans) {
                    for (Object child : plans) {
                        Map.Entry<List<String>, Boolean> out = node(child);
                        Object rel = child instanceof Map<?, ?> cm ? cm.get("Parent Relationship") : null;
                        if (!"SubPlan".equals(rel) && !"InitPlan".equals(rel)) {
                            children.add(out);
                        }
                    }
                } else if (EXPRESSION_KEYS.contains(k) && !k.equals("Output")) {
                    List<String> texts = new ArrayList<>();
                    strings(e.getValue(), texts);
                    for (String text : texts) {
                        expression(text, aliases, columns, functions, null, Set.of());
                    }
                }
            }
            List<String> output = new ArrayList<>();
            if (map.get("Output") instanceof List<?> out) {
                out.forEach(x -> output.add(String.valueOf(x)));
            }
            Object relation = map.get("Relation Name");
            if (relation != null) {
                Object schema = map.get("Schema");
                Relation r = relations.get((schema == null ? "" : schema.toString()) + "\u0000" + relation);
                Object alias = map.get("Alias");
                EngineReading.Table t = alias == null ? null : aliases.get(alias.toString());
                if (r != null && output.size() == r.columns().size()) {
                    return Map.entry(output, true); // the physical target list: its parent names what it uses
                }
                for (String text : output) {
                    expression(text, aliases, columns, functions, t, r == null ? Set.of() : r.columns());
                }
                return Map.entry(output, false);
            }
            if (children.size() == 1 && children.get(0).getValue() && children.get(0).getKey().equals(output)) {
                return Map.entry(output, true);
            }
            for (String text : output) {
                expression(text, aliases, columns, functions, null, Set.of());
            }
            return Map.entry(output, false);
        }

        private static void strings(Object v, List<String> out) {
            if (v instanceof String s) {
                out.add(s);
            } else if (v instanceof List<?> list) {
                list.forEach(x -> strings(x, out));
            } else if (v instanceof Map<?, ?> m) {
                m.values().forEach(x -> strings(x, out));
            }
        }
    }

    /** One relation in the catalog. */
    private record Relation(Set<String> columns, boolean resolvesBare) {
    }

    private static Map<String, Relation> relations(Connection c, List<Scan> scans) throws SQLException {
        Map<String, Relation> out = new LinkedHashMap<>();
        if (scans.isEmpty()) {
            return out;
        }
        List<String> schemas = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Scan s : scans) {
            schemas.add(s.schema());
            names.add(s.name());
        }
        Array schemaArray = c.createArrayOf("text", schemas.toArray());
        Array nameArray = c.createArrayOf("text", names.toArray());
        try (PreparedStatement ps = c.prepareStatement("SELECT n.nspname, k.relname, "
                + "(SELECT array_agg(a.attname::text) FROM pg_catalog.pg_attribute a WHERE a.attrelid = k.oid "
                + "AND a.attnum > 0 AND NOT a.attisdropped), pg_catalog.to_regclass(pg_catalog.quote_ident(k.relname)) = k.oid "
                + "FROM pg_catalog.pg_class k JOIN pg_catalog.pg_namespace n ON n.oid = k.relnamespace "
                + "JOIN unnest(?::text[], ?::text[]) AS x(s, t) ON x.s = n.nspname AND x.t = k.relname")) {
            ps.setArray(1, schemaArray);
            ps.setArray(2, nameArray);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Set<String> cols = new java.util.HashSet<>();
                    Array attnames = rs.getArray(3);
                    if (attnames != null) {
                        for (Object o : (Object[]) attnames.getArray()) {
                            cols.add(String.valueOf(o));
                        }
                        attnames.free();
                    }
                    out.put(rs.getString(1) + "\u0000" + rs.getString(2), new Relation(cols, rs.getBoolean(4)));
                }
            }
        } finally {
            schemaArray.free();
            nameArray.free();
        }
        return out;
    }

    /**
     * Reads the columns (through their aliases) and the functions of one printed expression; in a scan's own
     * output list, bare names of its relation's columns are that relation's.
     */
    static void expression(String text, Map<String, EngineReading.Table> aliases,
                           Set<EngineReading.ColumnRead> columns, Set<String> functions,
                           EngineReading.Table bareTable, Set<String> bareColumns) {
        List<PrintedSql.Token> tokens = PrintedSql.tokens(text, '"', false);
        for (int k = 0; k < tokens.size(); k++) {
            PrintedSql.Token t = tokens.get(k);
            if (t.is("::")) {
                k = skipType(tokens, k + 1);
                continue;
            }
            if (t.kind() != PrintedSql.Kind.NAME) {
                continue;
            }
            boolean call = k + 1 < tokens.size() && tokens.get(k + 1).is("(");
            int n = t.parts().size();
            if (call) {
                String name = String.join(".", t.parts()).toLowerCase(Locale.ROOT);
                if (n > 1 || t.quoted().get(0) || !NOT_FUNCTIONS.contains(name)) {
                    functions.add(name);
                }
            } else if (n >= 2) {
                EngineReading.Table table = aliases.get(t.parts().get(n - 2));
                if (table != null) {
                    columns.add(new EngineReading.ColumnRead(table, t.parts().get(n - 1)));
                }
            } else if (bareTable != null && bareColumns.contains(t.text())) {
                columns.add(new EngineReading.ColumnRead(bareTable, t.text()));
            }
        }
    }

    /** Skips a type name after {@code ::}: words, a modifier in parentheses, array brackets. */
    private static int skipType(List<PrintedSql.Token> tokens, int k) {
        int j = k;
        if (j < tokens.size() && tokens.get(j).kind() == PrintedSql.Kind.NAME) {
            j++;
            while (j < tokens.size() && tokens.get(j).kind() == PrintedSql.Kind.NAME && tokens.get(j).parts().size() == 1
                    && TYPE_CONTINUATIONS.contains(tokens.get(j).text().toLowerCase(Locale.ROOT))) {
                j++;
            }
        }
        if (j < tokens.size() && tokens.get(j).is("(")) {
            int depth = 0;
            for (; j < tokens.size(); j++) {
                if (tokens.get(j).is("(")) {
                    depth++;
                } else if (tokens.get(j).is(")") && --depth == 0) {
                    j++;
                    break;
                }
            }
        }
        while (j + 1 < tokens.size() && tokens.get(j).is("[") && tokens.get(j + 1).is("]")) {
            j += 2;
        }
        return j - 1;
    }
}
