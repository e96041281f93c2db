package dev.sqlagent.engine.duckdb;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sqlagent.engine.PlanReader;
import dev.sqlagent.engine.Reads;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.engine.EngineReading;
import dev.sqlagent.internal.IntegerSeries;
import java.io.IOException;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * DuckDB's reading of a statement: its own parser's tree ({@code json_serialize_sql}), not a plan. DuckDB's
 * {@code EXPLAIN} shows a view over a file as the file's reader with no name, prints expressions as text and
 * drops filters the optimizer decides from statistics; the parser's tree names every table, view, function
 * and column reference the statement holds, as DuckDB itself reads the SQL. What it gives: the tables (a CTE's
 * name left out where DuckDB sees the CTE: in the statement's body, in later CTEs, in its own recursive body),
 * the functions and operators called, and the columns read, over-approximated since the parser binds no
 * column to a table:
 * <ul>
 *   <li>a qualified column ({@code p.salary}, {@code main.people.salary}) is a column of the table its
 *       qualifier names (aliases and table names are scoped to the whole statement); an unqualified one, or
 *       one whose qualifier names no relation (a lambda's parameter, a struct), is possibly read from every
 *       table of the statement, and so is the first name of every reference (a struct column);</li>
 *   <li>a star ({@code *}, {@code t.*}, {@code COLUMNS(*)}) reads every column of the tables it covers but an
 *       {@code EXCLUDE} list's names ({@link EngineReading#starReads()}); {@code COLUMNS('regex')} and
 *       {@code COLUMNS(lambda)} read every column; {@code REPLACE} excepts nothing; a single name that names a
 *       table or alias ({@code SELECT p FROM people p}), {@code #n}, {@code NATURAL JOIN} and a table whose
 *       columns are renamed ({@code people p(a, b)}) read the whole row; a query's {@code ORDER BY ALL} reads
 *       its select list, read where it is (within an aggregate it is a star);</li>
 *   <li>a table function, {@code PIVOT}/{@code UNPIVOT}, {@code DESCRIBE}/{@code SUMMARIZE}/{@code SHOW}, an
 *       expression class or node type this reader does not know, a statement the serializer refuses: unreadable,
 *       by name (fail closed); a statement DuckDB cannot parse is a real error (thrown as
 *       {@link SQLException}, as a failed {@code EXPLAIN}).</li>
 * </ul>
 * Any name that may be a column counts as one: a select list's alias, a lambda's parameter or a struct's field
 * is refused when it equals a denied column's name.
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
        Walk w = new Walk();
        w.relations(tree, Set.of());
        w.reads(tree, List.of());
        Set<String> functions = new LinkedHashSet<>(w.functions);
        ownFunctions(c, tree, timeoutSeconds, functions);
        return new EngineReading(w.tables, w.columns, functions, Set.of(), true, Set.of(), w.possible,
                w.unreadable, w.stars);
    }

    /**
     * The parser's tree names a call before it is bound: a macro or function the database defines
     * ({@code CREATE MACRO reverse(s) AS (SELECT … FROM secret)}, a table macro {@code range}) reads as the
     * built-in of its name, and its body, expanded only when bound, is not in the tree. Every call whose name
     * the database's own functions have ({@code duckdb_functions()} where not internal) is reported by their
     * signatures ({@link Reads#DATABASE_FUNCTION}): allowed only when the policy names them.
     */
    private static void ownFunctions(Connection c, Map<String, Object> tree, int timeoutSeconds, Set<String> out)
            throws SQLException {
        if (!callsAny(tree, 0)) {
            // no call for a database function to bind: listing them (some 15 ms, DuckDB builds a row for
            // each of its thousands of built-ins first) could change nothing below
            return;
        }
        Map<String, List<String[]>> own = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT schema_name, function_name, "
                + "CAST(parameter_types AS VARCHAR[]) FROM duckdb_functions() WHERE NOT internal")) {
            if (timeoutSeconds > 0) {
                ps.setQueryTimeout(timeoutSeconds);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<String> args = new ArrayList<>();
                    java.sql.Array a = rs.getArray(3);
                    if (a != null) {
                        for (Object o : (Object[]) a.getArray()) {
                            args.add(o == null ? "any" : o.toString());
                        }
                    }
                    String schema = rs.getString(1).toLowerCase(java.util.Locale.ROOT);
                    String name = rs.getString(2).toLowerCase(java.util.Locale.ROOT);
                    own.computeIfAbsent(name, k -> new ArrayList<>()).add(new String[] {schema,
                            dev.sqlagent.guard.DatabaseObjects.signature(schema + "." + name + "(" + String.join(",", args)
                                    + ")")});
                }
            }
        }
        if (!own.isEmpty()) {
            calls(tree, own, out, 0);
        }
    }

    /** @return whether the tree holds a call by name: the only nodes {@link #calls} matches */
    private static boolean callsAny(Object v, int depth) {
        if (depth > MAX_DEPTH) {
            throw new PlanNotUnderstood("the parser's tree is nested too deeply");
        }
        if (v instanceof Map<?, ?> m) {
            if (m.get("function_name") instanceof String) {
                return true;
            }
            for (Object x : m.values()) {
                if (callsAny(x, depth + 1)) {
                    return true;
                }
            }
        } else if (v instanceof List<?> l) {
            for (Object x : l) {
                if (callsAny(x, depth + 1)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void calls(Object v, Map<String, List<String[]>> own, Set<String> out, int depth) {
        if (depth > MAX_DEPTH) {
            throw new PlanNotUnderstood("the parser's tree is nested too deeply");
        }
        if (v instanceof Map<?, ?> m) {
            if (m.get("function_name") instanceof String name) {
                String schema = text(m.get("schema")).toLowerCase(java.util.Locale.ROOT);
                for (String[] o : own.getOrDefault(name.toLowerCase(java.util.Locale.ROOT), List.of())) {
                    if (schema.isEmpty() || schema.equals(o[0])) {
                        out.add(Reads.DATABASE_FUNCTION + o[1]);
                    }
                }
            }
            for (Object x : m.values()) {
                calls(x, own, out, depth + 1);
            }
        } else if (v instanceof List<?> l) {
            for (Object x : l) {
                calls(x, own, out, depth + 1);
            }
        }
    }

    /** Expression classes of DuckDB's parsed expressions this reader places. */
    private static final Set<String> EXPRESSION_CLASSES = Set.of("COLUMN_REF", "STAR", "CONSTANT", "FUNCTION",
            "COMPARISON", "CONJUNCTION", "OPERATOR", "CASE", "CAST", "SUBQUERY", "WINDOW", "PARAMETER", "COLLATE",
            "BETWEEN", "LAMBDA", "POSITIONAL_REFERENCE", "TYPE");
    /** Typed nodes other than expressions this reader places: query nodes, table references, modifiers, orders. */
    private static final Set<String> NODE_TYPES = Set.of("SELECT_NODE", "SET_OPERATION_NODE", "RECURSIVE_CTE_NODE",
            "CTE_NODE", "BASE_TABLE", "JOIN", "SUBQUERY", "EXPRESSION_LIST", "EMPTY", "TABLE_FUNCTION", "PIVOT",
            "SHOW_REF", "ORDER_MODIFIER", "LIMIT_MODIFIER", "LIMIT_PERCENT_MODIFIER", "DISTINCT_MODIFIER",
            "ORDER_DEFAULT", "ASCENDING", "DESCENDING");
    /** DuckDB's query location of a node it made itself ({@code ORDER BY ALL}'s star): no place in the text. */
    private static final String NO_LOCATION = "18446744073709551615";

    /** A table in a FROM clause, by the name the statement gives it there (its alias, else its name). */
    private record Source(String name, EngineReading.Table table) {
    }

    /**
     * One statement's tree, read in two passes: the relations (tables, CTEs, aliases), then what reads
     * columns. Names are scoped loosely, to the whole statement: an alias names every table it names anywhere,
     * an unqualified column is possibly read from every table, which can only add reads.
     */
    private static final class Walk {
        final Set<EngineReading.Table> tables = new LinkedHashSet<>();
        final Set<String> functions = new LinkedHashSet<>();
        final Set<String> unreadable = new LinkedHashSet<>();
        final Set<EngineReading.ColumnRead> columns = new LinkedHashSet<>();
        final Set<EngineReading.ColumnRead> possible = new LinkedHashSet<>();
        final Set<EngineReading.StarRead> stars = new LinkedHashSet<>();
        /** Alias or table name to the tables it names. */
        final Map<String, Set<EngineReading.Table>> bases = new HashMap<>();
        /** Names of relations that are no table: CTEs, subqueries, VALUES lists, table functions. */
        final Set<String> derived = new HashSet<>();
        /** Each table reference resolved to a table; absent when it names a CTE. */
        final Map<Object, EngineReading.Table> resolved = new IdentityHashMap<>();
        /** The product of the sizes of the integer generators in FROM met so far. */
        BigInteger generated = BigInteger.ONE;
        /** The parameters of the lambdas around the node being read, innermost last. */
        final List<Set<String>> lambdas = new ArrayList<>();

        private boolean isLambdaParameter(String name) {
            for (Set<String> p : lambdas) {
                if (p.contains(name)) {
                    return true;
                }
            }
            return false;
        }

        /** A lambda's parameters: one name, or {@code row(a, b, …)} of names; null for anything else. */
        private static Set<String> lambdaParameters(Object lhs) {
            List<Object> refs = new ArrayList<>();
            if (lhs instanceof Map<?, ?> l && "COLUMN_REF".equals(l.get("class"))) {
                refs.add(l);
            } else if (lhs instanceof Map<?, ?> l && "FUNCTION".equals(l.get("class"))
                    && "row".equals(text(l.get("function_name"))) && text(l.get("schema")).isEmpty()
                    && l.get("arguments") instanceof List<?> args) {
                for (Object a : args) {
                    refs.add(a instanceof Map<?, ?> am ? am.get("expression") : null);
                }
            } else {
                return null;
            }
            Set<String> out = new HashSet<>();
            for (Object r : refs) {
                if (!(r instanceof Map<?, ?> rm) || !"COLUMN_REF".equals(rm.get("class"))
                        || !(rm.get("column_names") instanceof List<?> names) || names.size() != 1) {
                    return null;
                }
                out.add(text(names.get(0)));
            }
            return out.isEmpty() ? null : out;
        }

        /** First pass: tables, CTEs in their scope, aliases, functions; refuses what reads no named table. */
        void relations(Object node, Set<String> ctes) {
            if (node instanceof List<?> l) {
                for (Object v : l) {
                    relations(v, ctes);
                }
                return;
            }
            if (!(node instanceof Map<?, ?> m)) {
                return;
            }
            Set<String> inner = ctes;
            Object cteMap = m.get("cte_map");
            if (cteMap instanceof Map<?, ?> cm && cm.get("map") instanceof List<?> entries && !entries.isEmpty()) {
                // a CTE's body sees the CTEs before it (and itself when recursive); a later one's name there is
                // the table of that name, as DuckDB binds it
                Set<String> seen = new HashSet<>(ctes);
                for (Object e : entries) {
                    if (e instanceof Map<?, ?> em && em.get("key") instanceof String k) {
                        String key = k.toLowerCase(Locale.ROOT);
                        derived.add(key);
                        Object body = em.get("value");
                        Set<String> visible = new HashSet<>(seen);
                        if (body instanceof Map<?, ?> bm && bm.get("query_node") instanceof Map<?, ?> qn
                                && "RECURSIVE_CTE_NODE".equals(qn.get("type"))) {
                            visible.add(key);
                        }
                        relations(body, visible);
                        seen.add(key);
                    } else {
                        unreadable.add("a CTE entry without a name");
                    }
                }
                inner = seen;
            }
            Object type = m.get("type");
            String alias = text(m.get("alias"));
            if ("BASE_TABLE".equals(type)) {
                String catalog = text(m.get("catalog_name"));
                String schema = text(m.get("schema_name"));
                String name = text(m.get("table_name"));
                boolean bare = catalog.isEmpty() && schema.isEmpty();
                if (name.isEmpty()) {
                    unreadable.add("a table reference without a name");
                } else if (bare && inner.contains(name)) {
                    derived.add(alias.isEmpty() ? name : alias);
                } else {
                    String s = (catalog.isEmpty() ? "" : catalog + ".") + (schema.isEmpty() ? "main" : schema);
                    EngineReading.Table t = new EngineReading.Table(s, name, bare);
                    tables.add(t);
                    resolved.put(m, t);
                    bases.computeIfAbsent(name, k -> new LinkedHashSet<>()).add(t);
                    if (!alias.isEmpty()) {
                        bases.computeIfAbsent(alias, k -> new LinkedHashSet<>()).add(t);
                    }
                    if (m.get("column_name_alias") instanceof List<?> renamed && !renamed.isEmpty()) {
                        // FROM t AS a(x, y) renames t's first columns by position, which the tree does not name
                        stars.add(new EngineReading.StarRead(t, Set.of()));
                    }
                }
            } else if ("TABLE_FUNCTION".equals(type)) {
                Generator generator = generator(m);
                if (generator == null) {
                    unreadable.add("the table function in FROM at offset " + m.get("query_location"));
                } else {
                    // one past the cap, or several that together are (joined, they multiply), is refused
                    generated = generated.multiply(generator.rows().max(BigInteger.ONE));
                    if (generated.compareTo(BigInteger.valueOf(IntegerSeries.MAX_ROWS)) > 0) {
                        unreadable.add("the generators in FROM, which would make " + generated + " rows together "
                                + "(more than " + IntegerSeries.MAX_ROWS + "), at offset " + m.get("query_location"));
                    } else {
                        // range(…) / generate_series(…) over integer constants: a relation of its own that reads
                        // nothing; its constants are all there is below it
                        derived.add(alias.isEmpty() ? generator.name() : alias);
                        return;
                    }
                }
            } else if ("PIVOT".equals(type)) {
                unreadable.add("the PIVOT or UNPIVOT at offset " + m.get("query_location")
                        + " (it groups by, or unpivots, columns it does not name)");
            } else if ("SHOW_REF".equals(type)) {
                unreadable.add("a DESCRIBE, SUMMARIZE or SHOW (it reads columns it does not name)");
            } else if ("FUNCTION".equals(m.get("class"))) {
                String name = text(m.get("function_name"));
                String schema = text(m.get("schema"));
                String catalog = text(m.get("catalog"));
                functions.add((catalog.isEmpty() ? "" : catalog + ".") + (schema.isEmpty() ? "" : schema + ".")
                        + name);
            }
            if (!alias.isEmpty() && !"BASE_TABLE".equals(type) && type instanceof String && !m.containsKey("class")) {
                derived.add(alias);
            }
            boolean lambda = "LAMBDA".equals(m.get("class"));
            for (Map.Entry<?, ?> e : m.entrySet()) {
                // a lambda's parameters (lhs) are names, not calls or columns
                if (!"cte_map".equals(e.getKey()) && !(lambda && "lhs".equals(e.getKey()))) {
                    relations(e.getValue(), inner);
                }
            }
        }

        /** An integer generator in FROM: its name and how many rows it makes. */
        private record Generator(String name, BigInteger rows) {
        }

        /**
         * DuckDB's {@code range} or {@code generate_series} in FROM over one to three integer constants, with
         * nothing else (no ordinality, no sample, no schema); else null. Its size is capped by the caller,
         * together with the statement's other generators.
         */
        private static Generator generator(Map<?, ?> m) {
            if (!(m.get("function") instanceof Map<?, ?> f) || !"FUNCTION".equals(f.get("class"))
                    || !text(f.get("schema")).isEmpty() || !text(f.get("catalog")).isEmpty()
                    || m.get("sample") != null || !"WITHOUT_ORDINALITY".equals(m.get("with_ordinality"))
                    || f.get("filter") != null || Boolean.TRUE.equals(f.get("distinct"))
                    || !(f.get("arguments") instanceof List<?> arguments)) {
                return null;
            }
            String name = text(f.get("function_name"));
            if (!name.equals("range") && !name.equals("generate_series")) {
                return null;
            }
            if (f.get("order_bys") instanceof Map<?, ?> ob && ob.get("orders") instanceof List<?> orders
                    && !orders.isEmpty()) {
                return null;
            }
            List<BigInteger> args = new ArrayList<>();
            for (Object a : arguments) {
                if (!(a instanceof Map<?, ?> am) || !text(am.get("name")).isEmpty()
                        || !(am.get("expression") instanceof Map<?, ?> x) || !"CONSTANT".equals(x.get("class"))
                        || !(x.get("literal") instanceof Map<?, ?> lit) || !"INTEGER".equals(lit.get("kind"))
                        || !(lit.get("text") instanceof String digits) || !digits.matches("-?[0-9]{1,30}")) {
                    return null;
                }
                args.add(new BigInteger(digits));
            }
            BigInteger rows = IntegerSeries.rows(args, name.equals("generate_series"));
            return rows.signum() < 0 ? null : new Generator(name, rows);
        }

        /**
         * Second pass: the columns read. {@code from} is the tables in the FROM clause of the innermost
         * SELECT around the node (what an unqualified star covers).
         */
        void reads(Object node, List<Source> from) {
            if (node instanceof List<?> l) {
                for (Object v : l) {
                    reads(v, from);
                }
                return;
            }
            if (!(node instanceof Map<?, ?> m)) {
                return;
            }
            Object cls = m.get("class");
            Object type = m.get("type");
            if (cls instanceof String c) {
                if (!EXPRESSION_CLASSES.contains(c)) {
                    unreadable.add("the expression of class " + c + " at offset " + m.get("query_location"));
                } else if ("LAMBDA".equals(c)) {
                    Set<String> params = lambdaParameters(m.get("lhs"));
                    if (params == null) {
                        unreadable.add("a lambda whose parameters are no plain names at offset "
                                + m.get("query_location"));
                        return;
                    }
                    lambdas.add(params);
                    try {
                        reads(m.get("expr"), from);
                    } finally {
                        lambdas.remove(lambdas.size() - 1);
                    }
                    return;
                } else if ("COLUMN_REF".equals(c)) {
                    columnRef(m);
                } else if ("STAR".equals(c)) {
                    star(m, from);
                } else if ("POSITIONAL_REFERENCE".equals(c)) {
                    // #n names the n-th column of the FROM clause by position (or of the select list)
                    from.forEach(x -> stars.add(new EngineReading.StarRead(x.table(), Set.of())));
                }
            } else if (type instanceof String t) {
                if (!NODE_TYPES.contains(t)) {
                    unreadable.add("the node of type " + t + " at offset " + m.get("query_location"));
                } else if (t.endsWith("_NODE")) {
                    if ("SELECT_NODE".equals(t)) {
                        List<Source> own = new ArrayList<>();
                        fromTables(m.get("from_table"), own);
                        from = own;
                    }
                    for (Map.Entry<?, ?> e : m.entrySet()) {
                        if ("modifiers".equals(e.getKey()) && e.getValue() instanceof List<?> modifiers) {
                            for (Object modifier : modifiers) {
                                queryModifier(modifier, from);
                            }
                        } else {
                            reads(e.getValue(), from);
                        }
                    }
                    return;
                } else if ("JOIN".equals(t)) {
                    List<Source> joined = new ArrayList<>();
                    fromTables(m, joined);
                    if ("NATURAL".equals(m.get("ref_type"))) {
                        // compares every column the two sides have in common, by name
                        joined.forEach(x -> stars.add(new EngineReading.StarRead(x.table(), Set.of())));
                    }
                    if (m.get("using_columns") instanceof List<?> using) {
                        for (Object u : using) {
                            for (Source x : joined) {
                                possible.add(new EngineReading.ColumnRead(x.table(), text(u)));
                            }
                        }
                    }
                }
            }
            for (Object v : m.values()) {
                reads(v, from);
            }
        }

        /**
         * A query's own modifier: its {@code ORDER BY ALL} (a star DuckDB made itself, with no place in the
         * text) orders by the select list, read where it is. Within an aggregate the same star is every column
         * of the FROM clause ({@code string_agg(name ORDER BY ALL)} runs once per column), read as a star.
         */
        private void queryModifier(Object modifier, List<Source> from) {
            if (modifier instanceof Map<?, ?> mm && "ORDER_MODIFIER".equals(mm.get("type"))
                    && mm.get("orders") instanceof List<?> orders) {
                for (Map.Entry<?, ?> e : mm.entrySet()) {
                    if (e.getValue() != orders) {
                        reads(e.getValue(), from);
                    }
                }
                for (Object o : orders) {
                    if (o instanceof Map<?, ?> om && om.get("expression") instanceof Map<?, ?> x && orderByAll(x)) {
                        for (Map.Entry<?, ?> e : om.entrySet()) {
                            if (e.getValue() != x) {
                                reads(e.getValue(), from);
                            }
                        }
                        continue;
                    }
                    reads(o, from);
                }
                return;
            }
            reads(modifier, from);
        }

        private static boolean orderByAll(Map<?, ?> e) {
            return "STAR".equals(e.get("class")) && Boolean.TRUE.equals(e.get("columns")) && e.get("expr") == null
                    && text(e.get("relation_name")).isEmpty() && NO_LOCATION.equals(e.get("query_location"));
        }

        /** The tables of a FROM clause, not those inside its subqueries (they have their own SELECT). */
        private void fromTables(Object ref, List<Source> out) {
            if (!(ref instanceof Map<?, ?> m)) {
                return;
            }
            EngineReading.Table t = resolved.get(m);
            if (t != null) {
                String alias = text(m.get("alias"));
                out.add(new Source(alias.isEmpty() ? t.name() : alias, t));
            } else if ("JOIN".equals(m.get("type"))) {
                fromTables(m.get("left"), out);
                fromTables(m.get("right"), out);
            }
        }

        /**
         * A column reference, {@code [a, b, …]}: a column of the table {@code a} names (an alias or table
         * name), of the table {@code a.b} or {@code a.b.c} names, or a column {@code a} with struct fields;
         * a single name that names a table is the whole row. Every reading DuckDB could bind is counted.
         */
        private void columnRef(Map<?, ?> m) {
            if (!(m.get("column_names") instanceof List<?> raw) || raw.isEmpty()) {
                unreadable.add("a column reference without a name at offset " + m.get("query_location"));
                return;
            }
            List<String> parts = new ArrayList<>();
            for (Object p : raw) {
                parts.add(text(p));
            }
            int n = parts.size();
            if (isLambdaParameter(parts.get(0)) && (n == 1 || !bases.containsKey(parts.get(0)))) {
                // DuckDB binds a lambda's parameter before any column, and x.f to a table's column only when
                // x names a table: a parameter, or a field of one
                return;
            }
            // the first name as a column (a struct whose fields follow)
            for (EngineReading.Table t : tables) {
                possible.add(new EngineReading.ColumnRead(t, parts.get(0)));
            }
            if (n == 1) {
                for (EngineReading.Table t : bases.getOrDefault(parts.get(0), Set.of())) {
                    stars.add(new EngineReading.StarRead(t, Set.of())); // DuckDB's whole row: SELECT p FROM people p
                }
                return;
            }
            Set<EngineReading.Table> named = bases.get(parts.get(0));
            if (named != null) {
                for (EngineReading.Table t : named) {
                    (named.size() == 1 && !derived.contains(parts.get(0)) ? columns : possible)
                            .add(new EngineReading.ColumnRead(t, parts.get(1)));
                }
            } else if (!derived.contains(parts.get(0))) {
                // a name no relation of the statement has (a lambda's parameter, a struct): its field may be a
                // column all the same
                for (EngineReading.Table t : tables) {
                    possible.add(new EngineReading.ColumnRead(t, parts.get(1)));
                }
            }
            for (EngineReading.Table t : tables) {
                String s = t.schema();
                if (t.name().equals(parts.get(1)) && (s.equals(parts.get(0)) || s.endsWith("." + parts.get(0))
                        || s.startsWith(parts.get(0) + "."))) {
                    if (n == 2) {
                        stars.add(new EngineReading.StarRead(t, Set.of())); // main.people: the whole row
                    } else {
                        possible.add(new EngineReading.ColumnRead(t, parts.get(2)));
                    }
                }
                if (n >= 3 && t.name().equals(parts.get(2)) && s.equals(parts.get(0) + "." + parts.get(1))) {
                    if (n == 3) {
                        stars.add(new EngineReading.StarRead(t, Set.of()));
                    } else {
                        possible.add(new EngineReading.ColumnRead(t, parts.get(3)));
                    }
                }
            }
        }

        /**
         * A star: {@code *}, {@code t.*}, {@code COLUMNS(…)}, with its EXCLUDE list. Every column of the
         * tables it covers but those excluded by name; {@code COLUMNS('regex')} and {@code COLUMNS(lambda)}
         * are read as every column. REPLACE does not except the column it replaces.
         */
        private void star(Map<?, ?> m, List<Source> from) {
            String relation = text(m.get("relation_name"));
            List<Source> covered = new ArrayList<>();
            if (relation.isEmpty()) {
                covered.addAll(from);
            } else if (bases.containsKey(relation)) {
                bases.get(relation).forEach(t -> covered.add(new Source(relation, t)));
            } else if (!derived.contains(relation)) {
                tables.forEach(t -> covered.add(new Source("", t))); // a name nothing has: every table
            } // else a subquery's or CTE's columns: read inside it
            boolean pattern = m.get("expr") != null;
            for (Source source : covered) {
                Set<String> except = new HashSet<>();
                if (!pattern) {
                    if (m.get("exclude_list") instanceof List<?> names) {
                        names.forEach(x -> except.add(text(x)));
                    }
                    if (m.get("qualified_exclude_list") instanceof List<?> qualified) {
                        // EXCLUDE (a.ssn) excepts ssn of the relation named a only, not of another instance
                        // of the same table (people a, people b)
                        for (Object q : qualified) {
                            if (q instanceof Map<?, ?> qm && !source.name().isEmpty()
                                    && text(qm.get("table")).equals(source.name())
                                    && text(qm.get("schema")).isEmpty() && text(qm.get("catalog")).isEmpty()) {
                                except.add(text(qm.get("column")));
                            }
                        }
                    }
                }
                except.remove("");
                stars.add(new EngineReading.StarRead(source.table(), except));
            }
        }
    }

    private static String text(Object v) {
        return v instanceof String s ? s.toLowerCase(Locale.ROOT) : "";
    }
}
