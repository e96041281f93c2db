package dev.sqlagent.engine.mariadb;

import com.github.benmanes.caffeine.cache.Cache;
import dev.sqlagent.engine.CatalogFacts;
import dev.sqlagent.engine.Explain;
import dev.sqlagent.engine.PlanJson;
import dev.sqlagent.engine.PlanReader;
import dev.sqlagent.engine.PrintedSql;
import dev.sqlagent.engine.Reads;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.engine.EngineReading;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * MariaDB's (and MySQL's) reading of a statement. Two things come back from {@code EXPLAIN EXTENDED}
 * ({@code EXPLAIN} on MySQL): its rows, one per table the plan accesses (by alias, with its access type),
 * and the query the optimizer prints back as note 1003 of {@code SHOW WARNINGS}, after view merging and
 * its own rewrites, every base table {@code `db`.`table` `alias`} and every column qualified. The JSON plan
 * ({@code EXPLAIN FORMAT=JSON}) names tables only by alias and shows no select list, so the printed query is
 * the reading ({@link MariaDbQuery}), held against the rows:
 * <ul>
 *   <li>every table alias a row names must be one the printed query shows (a sub-query the optimizer
 *       evaluated while planning and folded into a constant is not shown: refused);</li>
 *   <li>a view the optimizer did not merge is shown by its name: its stored definition (the same printed
 *       form) is read in its place, and refused when this login may not read it;</li>
 *   <li>a table read while planning ({@code const} or {@code system} access, or a WHERE found impossible
 *       after reading such tables) has its columns printed as their values: the columns and functions the
 *       statement uses are then read from the optimizer trace's expanded query, taken for this one
 *       statement ({@code SET STATEMENT optimizer_trace='enabled=on' FOR EXPLAIN …}; on MySQL the session's
 *       {@code optimizer_trace} is switched on and off again around it).</li>
 * </ul>
 * On MariaDB every EXPLAIN runs with {@code expensive_subquery_limit = 0}, for that statement only: the
 * optimizer then deems every sub-query expensive, so it neither runs one while planning nor prints only its
 * value.
 * A statement whose printed form is not a query is a write. Every query here runs with the given time cap.
 */
final class MariaDbReader implements PlanReader {

    private static final int MAX_VIEW_DEPTH = 8;

    /** Room for one statement's optimizer trace (MariaDB's default is 1 MiB). */
    private static final int TRACE_BYTES = 8 << 20;

    private final boolean mysql;
    /** Each table's generated columns and their expressions, by {@code schema.table}. */
    private final Cache<String, Map<String, String>> generatedColumns = CatalogFacts.kept(10_000);

    /**
     * Each index's key columns, by schema, table and index name, kept as long as the generated columns:
     * an index re-created with another key under the same name within five minutes is read with its old key.
     */
    private final Cache<String, List<String>> indexKeys = CatalogFacts.kept(10_000);

    MariaDbReader(boolean mysql) {
        this.mysql = mysql;
    }

    /** One row of EXPLAIN: the table (alias, or an internal {@code <derivedN>}), its access type, its notes. */
    private record Row(String id, String table, String type, String extra, String key) {
    }

    @Override
    public EngineReading read(Connection c, SqlStatement statement, int timeoutSeconds) throws SQLException {
        String printed = null;
        List<Row> rows = new ArrayList<>();
        String trace;
        if (mysql) {
            set(c, "SET SESSION optimizer_trace = 'enabled=on'", timeoutSeconds);
        }
        try {
            // MariaDB evaluates a sub-query it finds cheap while planning and prints only its value; with every
            // sub-query deemed expensive it neither runs one nor folds it away. The trace is this EXPLAIN's only.
            // a metadata lock another session holds is waited for up to lock_wait_timeout (a year by default),
            // which max_statement_time does not cover: the check's time cap bounds that wait too. Without keys on
            // materialized derived tables, a sub-query over one (a row filter's fenced table) is not turned into
            // an index look-up "in (temporary)" whose table's definition the printed query leaves out
            try (PreparedStatement ps = Explain.prepare(c, mysql ? "EXPLAIN " : "SET STATEMENT optimizer_trace = "
                    + "'enabled=on', optimizer_trace_max_mem_size = " + TRACE_BYTES + ", expensive_subquery_limit = 0, "
                    + "optimizer_switch = 'derived_with_keys=off'"
                    + (timeoutSeconds > 0 ? ", lock_wait_timeout = " + timeoutSeconds : "")
                    + " FOR EXPLAIN EXTENDED ", statement, timeoutSeconds)) {
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new Row(rs.getString("id"), rs.getString("table"), rs.getString("type"),
                                rs.getString("Extra"), rs.getString("key")));
                    }
                }
            }
            try (PreparedStatement w = c.prepareStatement("SHOW WARNINGS")) {
                timeout(w, timeoutSeconds);
                try (ResultSet rs = w.executeQuery()) {
                    while (rs.next()) {
                        if (rs.getInt(2) == 1003) {
                            printed = rs.getString(3);
                        }
                    }
                }
            }
            trace = trace(c, timeoutSeconds);
        } finally {
            if (mysql) {
                set(c, "SET SESSION optimizer_trace = 'enabled=off'", timeoutSeconds);
            }
        }
        if (printed == null) {
            throw new PlanNotUnderstood("the engine printed no rewritten query (note 1003) for EXPLAIN");
        }
        String current = c.getCatalog() == null ? "" : c.getCatalog();
        Reads reads = new Reads();
        MariaDbQuery query = MariaDbQuery.read(printed, current, reads);
        Map<String, Set<EngineReading.Table>> aliases = new LinkedHashMap<>(query.aliases);
        boolean lookups = lookupTables(c, query.lookupTables, reads, timeoutSeconds);
        if (rows.stream().anyMatch(r -> r.table() != null && r.table().startsWith("<derived"))) {
            // a view the optimizer keeps is materialised as a derived table; a merged one shows its tables
            views(c, current, reads, aliases, timeoutSeconds);
        }
        // tables read while planning: their columns are printed as the values read
        Set<String> constant = new LinkedHashSet<>();
        boolean anyConstant = false;
        for (Row r : rows) {
            String extra = r.extra() == null ? "" : r.extra().toLowerCase(Locale.ROOT);
            if (extra.contains("const table") || extra.contains("const row")) {
                anyConstant = true;
            }
            String table = r.table();
            if (table == null || table.startsWith("<")
                    || lookups && ("unique_subquery".equals(r.type()) || "index_subquery".equals(r.type()))) {
                continue;
            }
            if ("const".equals(r.type()) || "system".equals(r.type())) {
                constant.add(table.toLowerCase(Locale.ROOT));
            }
            if (!aliases.containsKey(table.toLowerCase(Locale.ROOT))) {
                reads.unreadable("the table " + table + " the plan reads (select " + r.id()
                        + "), which the printed query does not show (folded into a constant while planning)");
            }
        }
        // MariaDB prints an aggregate HAVING as "having 1": what it reads is only in the trace
        boolean havingFolded = printed.toLowerCase(Locale.ROOT).contains(" having 1");
        traced(trace, aliases, anyConstant || havingFolded ? null : constant, reads);
        indexOrder(c, rows, aliases, reads, timeoutSeconds);
        generated(c, reads, timeoutSeconds);
        return reads.reading();
    }

    /**
     * A read through an index returns rows in the order of its key (InnoDB's secondary indexes end with the
     * primary key): whatever depends on that order (a LIMIT, an aggregate, the answer's own order) reads the
     * key, so each of its columns counts as a possible read. An index merge names several keys.
     */
    private void indexOrder(Connection c, List<Row> rows, Map<String, Set<EngineReading.Table>> aliases,
                            Reads reads, int timeoutSeconds) throws SQLException {
        for (Row r : rows) {
            if (r.key() == null || r.table() == null || r.table().startsWith("<")) {
                continue;
            }
            Set<EngineReading.Table> tables = aliases.get(r.table().toLowerCase(Locale.ROOT));
            if (tables == null) {
                continue; // reported above as a table the printed query does not show
            }
            for (String index : r.key().split(",")) {
                boolean any = false; // an alias several query blocks give different tables names one of them
                for (EngineReading.Table t : tables) {
                    for (String column : keyColumns(c, t, index.strip(), timeoutSeconds)) {
                        any = true;
                        reads.possibleColumns.add(new EngineReading.ColumnRead(t, column));
                    }
                }
                if (!any) {
                    reads.unreadable("the key of index " + index.strip() + " of " + r.table() + ", which the catalog "
                            + "does not list");
                }
            }
        }
    }

    private List<String> keyColumns(Connection c, EngineReading.Table t, String index, int timeoutSeconds)
            throws SQLException {
        String key = t.schema() + "\u0000" + t.name() + "\u0000" + index;
        List<String> known = indexKeys.getIfPresent(key);
        if (known != null) {
            return known;
        }
        List<String> columns = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT LOWER(COLUMN_NAME) FROM "
                + "information_schema.STATISTICS WHERE LOWER(TABLE_SCHEMA) = ? AND LOWER(TABLE_NAME) = ? "
                + "AND INDEX_NAME = ? ORDER BY SEQ_IN_INDEX")) {
            timeout(ps, timeoutSeconds);
            ps.setString(1, t.schema());
            ps.setString(2, t.name());
            ps.setString(3, index);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(rs.getString(1));
                }
            }
        }
        List<String> read = List.copyOf(columns);
        if (!read.isEmpty()) {
            // an index the catalog does not list is not kept: it is refused now and looked up again next time
            indexKeys.put(key, read);
        }
        return read;
    }

    /**
     * A generated column is computed from other columns of its row: reading it reads them. Their names
     * come from the catalog's generation expression, where MariaDB quotes every column (cached five
     * minutes per table, as H2's catalog entries are).
     */
    private void generated(Connection c, Reads reads, int timeoutSeconds) throws SQLException {
        Set<EngineReading.Table> tables = new LinkedHashSet<>();
        reads.columns.forEach(col -> tables.add(col.table()));
        Map<EngineReading.ColumnRead, String> expressions = new LinkedHashMap<>();
        List<EngineReading.Table> missing = new ArrayList<>();
        for (EngineReading.Table t : tables) {
            Map<String, String> known = generatedColumns.getIfPresent(t.qualified());
            if (known == null) {
                missing.add(t);
            } else {
                known.forEach((col, expr) -> expressions.put(new EngineReading.ColumnRead(t, col), expr));
            }
        }
        if (!missing.isEmpty()) {
            StringBuilder sql = new StringBuilder("SELECT LOWER(TABLE_SCHEMA), LOWER(TABLE_NAME), LOWER(COLUMN_NAME), "
                    + "GENERATION_EXPRESSION FROM information_schema.COLUMNS WHERE IS_GENERATED = 'ALWAYS' AND (");
            for (int n = 0; n < missing.size(); n++) {
                sql.append(n == 0 ? "" : " OR ").append("(LOWER(TABLE_SCHEMA) = ? AND LOWER(TABLE_NAME) = ?)");
            }
            sql.append(')');
            Map<String, Map<String, String>> found = new HashMap<>();
            missing.forEach(t -> found.put(t.qualified(), new HashMap<>()));
            try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
                timeout(ps, timeoutSeconds);
                int k = 1;
                for (EngineReading.Table t : missing) {
                    ps.setString(k++, t.schema());
                    ps.setString(k++, t.name());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Map<String, String> m = found.get(rs.getString(1) + "." + rs.getString(2));
                        if (m != null && rs.getString(4) != null) {
                            m.put(rs.getString(3), rs.getString(4));
                        }
                    }
                }
            }
            for (EngineReading.Table t : missing) {
                Map<String, String> m = Map.copyOf(found.get(t.qualified()));
                generatedColumns.put(t.qualified(), m);
                m.forEach((col, expr) -> expressions.put(new EngineReading.ColumnRead(t, col), expr));
            }
        }
        boolean grew = true;
        while (grew) {
            grew = false;
            for (Map.Entry<EngineReading.ColumnRead, String> e : expressions.entrySet()) {
                if (!reads.columns.contains(e.getKey()) || e.getValue() == null) {
                    continue;
                }
                for (PrintedSql.Token tok : PrintedSql.tokens(e.getValue(), '`', true)) {
                    if (tok.kind() == PrintedSql.Kind.NAME && tok.parts().size() == 1 && tok.allQuoted()) {
                        grew |= reads.columns.add(new EngineReading.ColumnRead(e.getKey().table(), tok.text()));
                    }
                }
            }
        }
    }

    /**
     * Finds the database of each table an index look-up names by bare name: the one database that has a
     * table of that name; with none or several, the look-up is unreadable.
     *
     * @return whether there were look-ups and each was resolved
     */
    private static boolean lookupTables(Connection c, List<String> names, Reads reads, int timeoutSeconds)
            throws SQLException {
        boolean all = !names.isEmpty();
        for (String name : names) {
            List<String> schemas = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT TABLE_SCHEMA FROM information_schema.TABLES WHERE TABLE_NAME = ?")) {
                timeout(ps, timeoutSeconds);
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        schemas.add(rs.getString(1));
                    }
                }
            }
            if (schemas.size() != 1) {
                reads.unreadable("the table " + name + " of an index look-up, which " + schemas.size()
                        + " databases have");
                all = false;
                continue;
            }
            String current = c.getCatalog() == null ? "" : c.getCatalog();
            reads.tables.add(new EngineReading.Table(schemas.get(0), name, schemas.get(0).equalsIgnoreCase(current)));
        }
        return all;
    }

    /**
     * Reads, in place of each view the printed query names (one the optimizer did not merge), its stored
     * definition, which MariaDB keeps in the same printed form.
     */
    private static void views(Connection c, String current, Reads reads, Map<String, Set<EngineReading.Table>> aliases,
                              int timeoutSeconds) throws SQLException {
        Set<String> seen = new HashSet<>();
        for (int depth = 0; depth < MAX_VIEW_DEPTH; depth++) {
            List<EngineReading.Table> candidates = new ArrayList<>();
            for (EngineReading.Table t : reads.tables) {
                if (seen.add(t.qualified())) {
                    candidates.add(t);
                }
            }
            if (candidates.isEmpty()) {
                return;
            }
            StringBuilder sql = new StringBuilder("SELECT LOWER(TABLE_SCHEMA), LOWER(TABLE_NAME), VIEW_DEFINITION "
                    + "FROM information_schema.VIEWS WHERE ");
            for (int k = 0; k < candidates.size(); k++) {
                sql.append(k == 0 ? "" : " OR ").append("(LOWER(TABLE_SCHEMA) = ? AND LOWER(TABLE_NAME) = ?)");
            }
            Map<String, String> definitions = new LinkedHashMap<>();
            try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
                timeout(ps, timeoutSeconds);
                int n = 1;
                for (EngineReading.Table t : candidates) {
                    ps.setString(n++, t.schema());
                    ps.setString(n++, t.name());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        definitions.put(rs.getString(1) + "." + rs.getString(2), rs.getString(3));
                    }
                }
            }
            if (definitions.isEmpty()) {
                return;
            }
            for (Map.Entry<String, String> v : definitions.entrySet()) {
                if (v.getValue() == null || v.getValue().isBlank()) {
                    reads.unreadable("the view " + v.getKey() + ", whose definition this login may not read");
                    continue;
                }
                MariaDbQuery view = MariaDbQuery.read(v.getValue(), current, reads);
                view.aliases.forEach((alias, tables) ->
                        aliases.computeIfAbsent(alias, x -> new LinkedHashSet<>()).addAll(tables));
                lookupTables(c, view.lookupTables, reads, timeoutSeconds);
            }
        }
        reads.unreadable("views nested more than " + MAX_VIEW_DEPTH + " deep");
    }

    /** What {@link #trace} returns when the engine withheld the trace for this login's lack of privileges. */
    private static final String HIDDEN = "\u0000hidden";

    /** {@return the optimizer trace of the statement just explained, or null, or {@link #HIDDEN}} */
    private static String trace(Connection c, int timeoutSeconds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT TRACE, MISSING_BYTES_BEYOND_MAX_MEM_SIZE, INSUFFICIENT_PRIVILEGES "
                        + "FROM information_schema.OPTIMIZER_TRACE")) {
            timeout(ps, timeoutSeconds);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                if (rs.getInt(3) != 0) {
                    return HIDDEN;
                }
                return rs.getLong(2) > 0 ? "" : rs.getString(1);
            }
        }
    }

    /**
     * The optimizer folds what it can evaluate while planning into constants in its printed query: a
     * condition on constants and session values ({@code version() LIKE …}, {@code @@version}) is dropped, a
     * table read by primary key has its columns printed as their values. The optimizer trace's expanded
     * queries are printed before any of that: every function and variable in them counts, and the columns
     * of the tables read while planning ({@code constantAliases}; all aliases when a WHERE was found
     * impossible after reading such tables, which EXPLAIN does not name).
     */
    private static void traced(String trace, Map<String, Set<EngineReading.Table>> aliases, Set<String> constantAliases,
                               Reads reads) {
        if (HIDDEN.equals(trace)) {
            reads.unreadable("the optimizer trace, which the engine hides from a login without table-level SELECT on "
                    + "every table of the statement (and SHOW VIEW on every view): a login with column grants needs a "
                    + "planning login (SqlAgent.Builder.planningDataSource, docs/security.md)");
            return;
        }
        if (trace == null || trace.isBlank()) {
            reads.unreadable("the optimizer trace, which came back empty or cut short (what the optimizer folded "
                    + "into constants cannot be read)");
            return;
        }
        Object tree;
        try {
            tree = PlanJson.read(trace, 1000);
        } catch (IOException e) {
            reads.unreadable("an optimizer trace that is not JSON: " + e.getMessage());
            return;
        }
        List<String> expanded = new ArrayList<>();
        expandedQueries(tree, expanded);
        if (expanded.isEmpty()) {
            reads.unreadable("an optimizer trace without an expanded query");
        }
        Map<String, Set<EngineReading.Table>> folded = new LinkedHashMap<>();
        aliases.forEach((alias, tables) -> {
            if (constantAliases == null || constantAliases.contains(alias)) {
                folded.put(alias, tables);
            }
        });
        for (String q : expanded) {
            MariaDbQuery.readTrace(q, folded, reads);
        }
    }

    private static void expandedQueries(Object node, List<String> out) {
        if (node instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if ("expanded_query".equals(e.getKey()) && e.getValue() instanceof String s) {
                    out.add(s);
                } else {
                    expandedQueries(e.getValue(), out);
                }
            }
        } else if (node instanceof List<?> l) {
            l.forEach(x -> expandedQueries(x, out));
        }
    }

    private static void set(Connection c, String sql, int timeoutSeconds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            timeout(ps, timeoutSeconds);
            ps.execute();
        }
    }

    private static void timeout(PreparedStatement ps, int timeoutSeconds) throws SQLException {
        if (timeoutSeconds > 0) {
            ps.setQueryTimeout(timeoutSeconds);
        }
    }
}
