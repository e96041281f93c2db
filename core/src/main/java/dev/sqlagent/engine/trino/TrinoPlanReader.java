package dev.sqlagent.engine.trino;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sqlagent.guard.engine.EngineReading;
import dev.sqlagent.guard.engine.EngineReading.ColumnRead;
import dev.sqlagent.guard.engine.EngineReading.Table;
import dev.sqlagent.internal.JsonTree;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what a statement reads from Trino's own plans, without running it.
 *
 * <p>Two plans are asked for. {@code EXPLAIN (TYPE IO, FORMAT JSON)} names every table the statement opens by
 * catalog, schema and name (views expanded to their tables), the columns it constrains, and the table it writes
 * ({@code outputTable}). {@code EXPLAIN (TYPE DISTRIBUTED, FORMAT JSON)} gives every fragment's plan tree; its
 * scan nodes ({@code TableScan}, {@code ScanFilter}, {@code ScanProject}, {@code ScanFilterProject}) list the
 * columns they assign ({@code ssn := ssn:varchar}, {@code id_0 := id:integer}, {@code name := tpch:name}), which
 * after Trino's pruning are exactly the columns the statement reads, wherever it reads them (a {@code WHERE}, a
 * join, an {@code ORDER BY}, a lambda, an aggregate's arguments). A column handle's text is the connector's own,
 * so it is resolved against the table's columns as the catalog's {@code information_schema} lists them: the one
 * {@code :}-separated part that names a column of the table is the column.
 *
 * <p>Closed world: a plan node this class does not know, a scan whose table or column cannot be resolved, a plan
 * that is not the JSON expected, is named in {@link EngineReading#unreadable()}. A statement that is not a query
 * (DDL, {@code SET SESSION}, {@code GRANT}…; Trino's EXPLAIN echoes it instead of a plan) is a write.
 *
 * <p>The EXPLAINs run in a read-only transaction, which the reader opens and rolls back: planning a
 * {@code CREATE TABLE … AS} makes the connector begin the table (the memory connector creates it, so an EXPLAIN
 * outside a transaction writes). In the transaction Trino refuses that ({@code READ_ONLY_VIOLATION}), and the
 * reading names it as a write. The connection's auto-commit and read-only settings are restored afterwards.
 *
 * <p>Tables are named {@code catalog.schema} (as {@link Table#schema()}) and {@code name}; a table of the
 * connection's own catalog and schema is marked {@link Table#resolvedUnqualified()}.
 *
 * <p>The plan is the optimised one: a predicate Trino folds to false before planning a scan ({@code WHERE
 * current_user = 'x'}) leaves no scan, and that table is then not read at all.
 */
public final class TrinoPlanReader {

    private static final JsonFactory JSON = new JsonFactory();
    /** {@code StandardErrorCode.READ_ONLY_VIOLATION}: a write in a read-only transaction. */
    private static final int READ_ONLY_VIOLATION = 23;
    /** Plans nest one level per node; a deep join tree passes the library's usual JSON cap. */
    private static final int MAX_DEPTH = 900;

    /** Nodes that open a table and list the columns they assign. */
    static final Set<String> SCANS = Set.of("TableScan", "ScanFilter", "ScanProject", "ScanFilterProject");
    /** Nodes that write, commit or change a table. */
    static final Set<String> WRITERS = Set.of("TableWriter", "TableCommit", "TableFinish", "TableExecute",
            "TableDelete", "TableUpdate", "MergeWriter", "MergeProcessor", "Delete", "Update", "SimpleTableExecute",
            "StatisticsWriter", "RefreshMaterializedView", "TableWriterMerge");
    /**
     * Nodes that only compute, move, join, sort, limit or aggregate rows they are given: what they read is read
     * by the scans under them, and the functions they call are in their descriptor and details.
     */
    static final Set<String> COMPUTING = Set.of("Output", "Project", "Filter", "FilterProject", "Aggregate", "LocalExchange",
            "RemoteSource", "RemoteMerge", "RemoteExchange", "RemoteStreamingExchange", "RemoteStreamingMerge",
            "InnerJoin", "LeftJoin", "RightJoin", "FullJoin", "CrossJoin", "SemiJoin", "SpatialJoin",
            "Values", "Limit", "LimitPartial", "TopN", "TopNPartial", "PartialSort", "LocalMerge", "Sort",
            "Window", "TopNRanking", "RowNumber", "MarkDistinct", "DistinctLimit", "DistinctLimitPartial",
            "Unnest", "GroupId", "Union", "Intersect", "Except", "AssignUniqueId", "EnforceSingleRow", "Offset",
            "Sample", "PatternRecognition", "TableFunctionProcessor", "TableFunction", "Exchange",
            // an UNNEST joined to the rows it expands ("CrossJoin Unnest" for an inner join; an outer join's only
            // condition, ON TRUE, is printed in the name): its descriptor names the symbols it replicates and
            // unnests, computed by the nodes under it. Any other condition in the name stays unread.
            "CrossJoin Unnest", "InnerJoin Unnest", "LeftJoin Unnest", "RightJoin Unnest", "FullJoin Unnest",
            "InnerJoin Unnest on true", "LeftJoin Unnest on true", "RightJoin Unnest on true",
            "FullJoin Unnest on true");
    /** Table functions that read nothing but the rows under them (or none). */
    static final Set<String> TABLE_FUNCTIONS = Set.of("sequence", "exclude_columns");

    /** A call: a lower-case (possibly qualified) name and an opening parenthesis. Trino prints keywords upper case. */
    private static final Pattern CALL = Pattern.compile("(?<![\\w$.\"])([a-z_$][\\w$]*(?:\\.[a-z_$][\\w$]*)*)\\s*\\(");
    /** Type names Trino prints with parameters ({@code varchar(10) '1'}, {@code CAST(x AS decimal(5,2))}). */
    private static final Set<String> TYPES = Set.of("varchar", "char", "decimal", "varbinary", "timestamp", "time",
            "row", "array", "map", "interval", "numeric", "qdigest", "tdigest", "setdigest", "function");
    /** A constraint's values, printed on the line after its column. */
    private static final Pattern DOMAIN = Pattern.compile("\\s*::\\s*\\[.*\\]\\s*");
    /** A column a connector's constraint names, printed alone ({@code tpch:orderstatus}). */
    private static final Pattern CONSTRAINED = Pattern.compile("\\s*[a-z_][\\w$]*:[\\w$]+\\s*");
    private static final Pattern ASSIGNMENT = Pattern.compile("(?s)([^\\s:=]+) := (.+)");
    private static final Pattern INFORMATION_SCHEMA = Pattern.compile("catalog=(\\S+) table=(\\S+)(?:\\s.*)?");

    private TrinoPlanReader() {
    }

    /**
     * Reads a statement's plans.
     *
     * @param c a connection to the cluster, as the login the statement would run as (its catalog and schema
     *     resolve unqualified names; its access control applies to the plan)
     * @param sql the statement, without parameters
     * @param timeoutSeconds cap on each EXPLAIN, 0 for none
     * @return what the plans say the statement reads and writes
     * @throws SQLException when Trino refuses to plan the statement (it would fail when run as well)
     */
    public static EngineReading read(Connection c, String sql, int timeoutSeconds) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        boolean readOnly = c.isReadOnly();
        if (!autoCommit) {
            c.rollback();
        }
        c.setAutoCommit(false);
        c.setReadOnly(true);
        try {
            return readReadOnly(c, sql, timeoutSeconds);
        } catch (SQLException e) {
            if (e.getErrorCode() == READ_ONLY_VIOLATION) {
                return new EngineReading(Set.of(), Set.of(), Set.of(), Set.of("write refused in planning: "
                        + e.getMessage()), true);
            }
            throw e;
        } finally {
            try {
                c.rollback();
            } finally {
                c.setReadOnly(readOnly);
                c.setAutoCommit(autoCommit);
            }
        }
    }

    private static EngineReading readReadOnly(Connection c, String sql, int timeoutSeconds) throws SQLException {
        Reading r = new Reading(c, timeoutSeconds);
        List<TrinoSpelling.Token> toks = new ArrayList<>();
        TrinoSpelling.lex(sql, toks);
        String first = firstKeyword(sql, toks);
        if (!QUERY_WORDS.contains(first)) {
            // SHOW, DESCRIBE, EXPLAIN … are planned as queries over metadata Trino builds itself (their IO plan
            // may be empty): only a query is read, anything else is a statement the reading names
            r.writes.add("statement " + (first.isEmpty() ? "(none)" : statementWords(sql, toks)));
            return r.result();
        }
        String io = explain(c, "EXPLAIN (TYPE IO, FORMAT JSON) ", sql, timeoutSeconds);
        if (!io.stripLeading().startsWith("{")) {
            // EXPLAIN of a statement that is not a query echoes the statement: DDL, SET SESSION, GRANT, CALL...
            r.writes.add("statement " + firstWords(io));
            return r.result();
        }
        try {
            r.readIo(parse(io));
        } catch (IOException | ClassCastException e) {
            r.unreadable.add("IO plan: " + e.getMessage());
            return r.result();
        }
        String plan = explain(c, "EXPLAIN (TYPE DISTRIBUTED, FORMAT JSON) ", sql, timeoutSeconds);
        try {
            Map<String, Object> fragments = parse(plan);
            for (Map.Entry<String, Object> f : fragments.entrySet()) {
                r.node(map(f.getValue(), "fragment " + f.getKey()));
            }
        } catch (IOException | ClassCastException e) {
            r.unreadable.add("distributed plan: " + e.getMessage());
        }
        r.checkScanned();
        return r.result();
    }

    private static String explain(Connection c, String prefix, String sql, int timeoutSeconds) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (timeoutSeconds > 0) {
                s.setQueryTimeout(timeoutSeconds);
            }
            StringBuilder out = new StringBuilder();
            try (ResultSet rs = s.executeQuery(prefix + sql)) {
                while (rs.next()) {
                    out.append(rs.getString(1)).append('\n');
                }
            }
            return out.toString();
        }
    }

    private static Map<String, Object> parse(String text) throws IOException {
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            Object v = JsonTree.readValue(p, MAX_DEPTH);
            if (p.nextToken() != null) {
                throw new IOException("text after the JSON object");
            }
            return map(v, "plan");
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object v, String what) throws IOException {
        if (!(v instanceof Map)) {
            throw new IOException(what + " is not a JSON object");
        }
        return (Map<String, Object>) v;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object v, String what) throws IOException {
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List)) {
            throw new IOException(what + " is not a JSON array");
        }
        return (List<Object>) v;
    }

    private static String text(Object v, String what) throws IOException {
        if (!(v instanceof String s)) {
            throw new IOException(what + " is not a string");
        }
        return s;
    }

    /** The words a query begins with; a parenthesis is skipped. */
    private static final Set<String> QUERY_WORDS = Set.of("select", "with", "values");

    /** The statement's first keyword, lower case (comments and opening parentheses skipped), or empty. */
    private static String firstKeyword(String sql, List<TrinoSpelling.Token> toks) {
        for (TrinoSpelling.Token t : toks) {
            String text = t.text(sql);
            if (!text.equals("(")) {
                return t.kind() == TrinoSpelling.Kind.WORD ? text.toLowerCase(Locale.ROOT) : text;
            }
        }
        return "";
    }

    /** The statement's first two words, upper case, comments skipped (as {@link #firstWords} names an echo). */
    private static String statementWords(String sql, List<TrinoSpelling.Token> toks) {
        StringBuilder b = new StringBuilder();
        for (int i = 0, n = 0; i < toks.size() && n < 2; i++) {
            if (toks.get(i).kind() == TrinoSpelling.Kind.WORD) {
                b.append(n++ == 0 ? "" : " ").append(toks.get(i).text(sql).toUpperCase(Locale.ROOT));
            } else if (n > 0) {
                break;
            }
        }
        return b.length() == 0 ? "(none)" : b.toString();
    }

    private static String firstWords(String echo) {
        String[] words = echo.strip().split("\\s+");
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(2, words.length); i++) {
            b.append(i == 0 ? "" : " ").append(words[i].toUpperCase(Locale.ROOT));
        }
        return b.toString();
    }

    /**
     * The functions an expression printed by Trino calls, by their lower-case (possibly qualified) name.
     * String literals are blanked first; type names with parameters are not calls.
     *
     * @param expression an expression, a predicate, a node's detail
     * @return the names, in order of appearance
     */
    static Set<String> calls(String expression) {
        String blanked = expression.replaceAll("'(?:[^']|'')*'", "''");
        Set<String> out = new LinkedHashSet<>();
        Matcher m = CALL.matcher(blanked);
        while (m.find()) {
            String name = m.group(1);
            if (!TYPES.contains(name)) {
                out.add(name);
            }
        }
        return out;
    }

    /** One reading in progress. */
    private static final class Reading {
        private final Connection c;
        private final int timeoutSeconds;
        private final String catalog;
        private final String schema;
        private final List<Table> ioTables = new ArrayList<>();
        private final Set<Table> tables = new LinkedHashSet<>();
        private final Set<Table> scanned = new LinkedHashSet<>();
        private final Set<ColumnRead> columns = new LinkedHashSet<>();
        private final Set<String> functions = new LinkedHashSet<>();
        private final Set<String> writes = new LinkedHashSet<>();
        private final Set<String> unreadable = new LinkedHashSet<>();
        private final Map<Table, Set<String>> tableColumns = new HashMap<>();

        Reading(Connection c, int timeoutSeconds) throws SQLException {
            this.c = c;
            this.timeoutSeconds = timeoutSeconds;
            this.catalog = lower(c.getCatalog());
            this.schema = lower(c.getSchema());
        }

        private static String lower(String s) {
            return s == null ? "" : s.toLowerCase(Locale.ROOT);
        }

        EngineReading result() {
            return new EngineReading(tables, columns, functions, writes, true, Set.of(), Set.of(), unreadable);
        }

        private Table table(String cat, String sch, String name) {
            String cl = lower(cat);
            String sl = lower(sch);
            return new Table(cl + "." + sl, name, cl.equals(catalog) && sl.equals(schema));
        }

        void readIo(Map<String, Object> io) throws IOException {
            for (Map.Entry<String, Object> e : io.entrySet()) {
                switch (e.getKey()) {
                    case "inputTableColumnInfos" -> {
                        for (Object o : list(e.getValue(), "inputTableColumnInfos")) {
                            Map<String, Object> info = map(o, "input table");
                            Table t = ioTable(map(info.get("table"), "input table"));
                            ioTables.add(t);
                            tables.add(t);
                            Object constraint = info.get("constraint");
                            if (constraint != null) {
                                for (Object cc : list(map(constraint, "constraint").get("columnConstraints"),
                                        "columnConstraints")) {
                                    columns.add(new ColumnRead(t, text(map(cc, "column constraint").get("columnName"),
                                            "columnName")));
                                }
                            }
                        }
                    }
                    case "outputTable" -> writes.add("write to " + ioTable(map(e.getValue(), "outputTable")));
                    case "estimate" -> {
                        // the cost estimate reads nothing
                    }
                    default -> unreadable.add("IO plan field " + e.getKey());
                }
            }
        }

        private Table ioTable(Map<String, Object> t) throws IOException {
            Map<String, Object> st = map(t.get("schemaTable"), "schemaTable");
            return table(text(t.get("catalog"), "catalog"), text(st.get("schema"), "schema"),
                    text(st.get("table"), "table"));
        }

        void node(Map<String, Object> node) throws IOException, SQLException {
            String name = text(node.get("name"), "node name");
            Map<String, Object> descriptor = node.get("descriptor") == null ? Map.of()
                    : map(node.get("descriptor"), name + " descriptor");
            List<Object> details = list(node.get("details"), name + " details");
            if (SCANS.contains(name)) {
                scan(name, descriptor, details);
            } else if (WRITERS.contains(name)) {
                writes.add(name);
            } else if (!COMPUTING.contains(name)) {
                unreadable.add("plan node " + name);
            }
            if (name.startsWith("TableFunction")) {
                String fn = lower(text(descriptor.get("name"), name + " name"));
                functions.add(fn);
                // read, but refused all the same: the guard reads no table function, so none may run unseen
                unreadable.add("table function " + fn + (TABLE_FUNCTIONS.contains(fn) ? "" : " (unknown)"));
            }
            if (!SCANS.contains(name)) {
                for (Map.Entry<String, Object> d : descriptor.entrySet()) {
                    if (!d.getKey().equals("target") && d.getValue() instanceof String s) {
                        functions.addAll(calls(s));
                    }
                }
                for (Object d : details) {
                    functions.addAll(calls(text(d, name + " detail")));
                }
            }
            for (Object child : list(node.get("children"), name + " children")) {
                node(map(child, name + " child"));
            }
        }

        private void scan(String name, Map<String, Object> descriptor, List<Object> details)
                throws IOException, SQLException {
            String handle = text(descriptor.get("table"), name + " table");
            Table t = scannedTable(handle);
            if (t == null) {
                unreadable.add(name + " of a table the IO plan does not name: " + handle);
                return;
            }
            scanned.add(t);
            for (Map.Entry<String, Object> d : descriptor.entrySet()) {
                if (!d.getKey().equals("table") && d.getValue() instanceof String s) {
                    functions.addAll(calls(s));
                }
            }
            for (Object o : details) {
                String detail = text(o, name + " detail");
                if (DOMAIN.matcher(detail).matches()) {
                    continue; // the values of the constraint on the line before it (tpch's ":: [[F], [O], [P]]")
                }
                Matcher m = ASSIGNMENT.matcher(detail);
                String column = m.matches() ? column(t, m.group(1), m.group(2))
                        // a constraint the connector enforces on a column it does not project (tpch:orderstatus):
                        // the scan reads that column, so it counts as read
                        : CONSTRAINED.matcher(detail).matches() ? column(t, detail, detail) : null;
                if (column != null) {
                    columns.add(new ColumnRead(t, column));
                } else if (m.matches() && !name.equals("TableScan")) {
                    // a ScanProject's projection (expr := upper(name)): its columns are assigned beside it
                    functions.addAll(calls(m.group(2)));
                } else {
                    unreadable.add(name + " of " + t + " assigns " + detail);
                }
            }
        }

        /** {@return the table of the IO plan a scan's handle names}, or null when none or several match */
        private Table scannedTable(String handle) {
            int colon = handle.indexOf(':');
            if (colon < 0) {
                return null;
            }
            String cat = handle.substring(0, colon).toLowerCase(Locale.ROOT);
            String rest = handle.substring(colon + 1).toLowerCase(Locale.ROOT);
            Matcher info = INFORMATION_SCHEMA.matcher(rest);
            Table found = null;
            for (Table t : ioTables) {
                if (!t.schema().startsWith(cat + ".")) {
                    continue;
                }
                String sch = t.schema().substring(cat.length() + 1);
                boolean match = names(rest, sch + "." + t.name()) || names(rest, sch + ":" + t.name())
                        || (info.matches() && sch.equals("information_schema") && info.group(2).equals(t.name()));
                if (match) {
                    if (found != null && !found.equals(t)) {
                        return null;
                    }
                    found = t;
                }
            }
            return found;
        }

        /** {@return whether a handle's text starts with a table's name and then ends or leaves the name} */
        private static boolean names(String rest, String name) {
            return rest.equals(name) || (rest.startsWith(name) && !Character.isLetterOrDigit(rest.charAt(name.length()))
                    && rest.charAt(name.length()) != '_');
        }

        /**
         * {@return the column of {@code t} a scan assigns to a symbol}, or null when the assignment's right side
         * names no column of the table, or more than one
         */
        private String column(Table t, String symbol, String handle) throws SQLException {
            Set<String> known = columnsOf(t);
            Set<String> hits = new LinkedHashSet<>();
            String h = handle.strip().toLowerCase(Locale.ROOT);
            if (known.contains(h)) {
                hits.add(h);
            }
            for (String part : h.split(":")) {
                if (known.contains(part)) {
                    hits.add(part);
                }
            }
            if (hits.size() > 1) {
                // a column and a type or connector spelling alike: the symbol Trino derived from the name decides
                String base = symbol.toLowerCase(Locale.ROOT).replaceFirst("_\\d+$", "");
                hits.retainAll(Set.of(base));
            }
            return hits.size() == 1 ? hits.iterator().next() : null;
        }

        private Set<String> columnsOf(Table t) throws SQLException {
            Set<String> cached = tableColumns.get(t);
            if (cached != null) {
                return cached;
            }
            int dot = t.schema().indexOf('.');
            String cat = t.schema().substring(0, dot);
            String sch = t.schema().substring(dot + 1);
            Set<String> out = new LinkedHashSet<>();
            String q = "SELECT column_name FROM \"" + cat.replace("\"", "\"\"")
                    + "\".information_schema.columns WHERE table_schema = ? AND table_name = ?";
            try (PreparedStatement ps = c.prepareStatement(q)) {
                if (timeoutSeconds > 0) {
                    ps.setQueryTimeout(timeoutSeconds);
                }
                ps.setString(1, sch);
                ps.setString(2, t.name());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(rs.getString(1).toLowerCase(Locale.ROOT));
                    }
                }
            }
            tableColumns.put(t, out);
            return out;
        }

        void checkScanned() {
            // every table the IO plan names is opened by a scan; one that is not may be read some other way
            for (Table t : ioTables) {
                if (!scanned.contains(t)) {
                    unreadable.add("table " + t + " in the IO plan but in no scan");
                }
            }
        }
    }
}
