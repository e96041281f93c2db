package dev.sqlagent.engine.postgres;

import dev.sqlagent.engine.Explain;
import dev.sqlagent.engine.PlanJson;
import dev.sqlagent.engine.PlanReader;
import dev.sqlagent.engine.PrintedSql;
import dev.sqlagent.engine.Reads;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.engine.EngineReading;
import java.io.IOException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * PostgreSQL's reading of a statement: {@code EXPLAIN (VERBOSE, FORMAT JSON)}, a tree of plan nodes. Every
 * node that scans a relation names it ({@code Relation Name}, {@code Schema}, {@code Alias}); views are
 * already expanded to their base tables. With VERBOSE every expression (output lists, filters, join and
 * index conditions, sort and group keys, function calls) is printed, its columns qualified by the plan's
 * unique aliases, and read by {@link PgExpression}. A {@code ModifyTable} or {@code LockRows} node is a write.
 *
 * <p>Fail closed: a node type or a node key this reader does not know, and any expression it cannot read, is
 * recorded as unreadable (and the statement refused). Whole rows ({@code e.*}, as any function over a row
 * variable prints) read every column of their relation; system columns are reported as such; a generated
 * column reads the columns it is computed from; a partition is read as its partitioned table.
 *
 * <p>Two things PostgreSQL does not print, and how they are read:
 * <ul>
 *   <li>A scan that hands its parent every column of its table (the "physical target list", an optimisation
 *       under joins, sorts and aggregates) does not read them all: the parent's expressions name the columns
 *       it uses. Such an output list is not counted when the parent is a node that names what it uses;
 *       under any other parent (a sub-query, CTE, append, set operation, window, the top) it is.</li>
 *   <li>Up to PostgreSQL 16, {@code (SubPlan n)} hides the comparison of an {@code IN}, {@code ANY},
 *       {@code ALL} or row-comparison sub-plan with the outer row. When a node evaluates a sub-plan, the
 *       statement is planned once more and the planner's own tree is read ({@link PgPlanDump}): a relation
 *       scanned beneath that node is taken to read every column any of its range-table entries selects (the
 *       set PostgreSQL checks column privileges against), and the functions the hidden comparisons call are
 *       read by oid. When that tree cannot be had, such a node is taken to read every column of the
 *       relations scanned beneath it.</li>
 * </ul>
 * Catalog look-ups (a relation's columns, whether a bare name resolves to it) run on the same connection,
 * with the same time cap.
 *
 * <p><b>Two round trips for the plan, entries kept for five minutes.</b> The statement time-out, the session's
 * search path and whether the database defines functions or operators of its own on it (read afresh for
 * every statement, never kept) go in one round trip of constant text, which the driver prepares on the
 * server once per connection (planning it each time cost more than the extra round trip); the
 * {@code EXPLAIN} goes in the next. A relation's catalog entry (its
 * columns by position, generated columns, whether a bare name binds it, its partition root) is kept per
 * reader (one agent's database) by search path, schema and name for five minutes after it was read, as H2's
 * and MariaDB's readers keep theirs, and so is what a type name a cast prints resolved to (a catalog type, a
 * domain's checks, a table's row type; {@link PgObjects}): a relation altered within that time (a column added, dropped or
 * renamed) is read with its old entry, a relation dropped and re-created under the same name likewise; a
 * relation not seen before is read when first planned. Build a new agent (or wait five minutes) after
 * such a change for the check to see it at once.
 */
final class PostgresReader implements PlanReader {

    /**
     * What the plan is read against, read just before the {@code EXPLAIN}: the session's search path
     * (which decides whether a bare name binds a relation, and keys the kept entries) and whether the
     * database defines functions or operators of its own on it ({@link PgObjects}).
     */
    private record Facts(String searchPath, boolean ownRoutines) {
    }

    private static final String FACTS = "SELECT pg_catalog.current_setting('search_path'), " + PgObjects.OWN_ROUTINES;

    /**
     * Catalog entries of the relations plans scanned, by search path, schema and name, kept five minutes
     * (as H2's and MariaDB's readers keep theirs): see the class comment.
     */
    private final com.github.benmanes.caffeine.cache.Cache<String, Relation> entries =
            dev.sqlagent.engine.CatalogFacts.kept(10_000);
    /** What the type names casts print resolved to, by search path, kept at most five minutes. */
    private final com.github.benmanes.caffeine.cache.Cache<String, Map<String, List<PgObjects.Resolution>>> types =
            dev.sqlagent.engine.CatalogFacts.kept(64);

    private static final int MAX_PLAN_DEPTH = 1000;

    private static final Set<String> EXPRESSION_KEYS = Set.of("Output", "Filter", "Join Filter", "Hash Cond",
            "Merge Cond", "Index Cond", "Recheck Cond", "Sort Key", "Group Key", "Grouping Sets", "Hash Key",
            "One-Time Filter", "TID Cond", "Function Call", "Table Function Call", "Presorted Key", "Cache Key",
            "Run Condition", "Order By", "Sampling Parameters", "Repeatable Seed", "Conflict Filter", "Window");
    /** Keys that describe a node without holding an expression. */
    private static final Set<String> DESCRIPTIVE_KEYS = Set.of("Node Type", "Parent Relationship", "Subplan Name",
            "Parallel Aware", "Async Capable", "Relation Name", "Schema", "Alias", "Startup Cost", "Total Cost",
            "Plan Rows", "Plan Width", "Strategy", "Partial Mode", "Operation", "Join Type", "Inner Unique",
            "Index Name", "Scan Direction", "Workers Planned", "Single Copy", "Command", "Subplans Removed",
            "CTE Name", "Function Name", "Table Function Name", "Tuplestore Name", "Planned Partitions",
            "Cache Mode", "Sampling Method", "Disabled", "Plans");
    private static final Set<String> WRITE_NODES = Set.of("ModifyTable", "LockRows");
    private static final Set<String> RELATION_SCANS = Set.of("Seq Scan", "Index Scan", "Index Only Scan",
            "Bitmap Heap Scan", "Tid Scan", "Tid Range Scan", "Sample Scan", "Foreign Scan", "ModifyTable");
    private static final Set<String> DERIVED_SCANS = Set.of("Subquery Scan", "CTE Scan", "WorkTable Scan",
            "Function Scan", "Table Function Scan", "Values Scan", "Named Tuplestore Scan");
    private static final Set<String> OTHER_NODES = Set.of("Result", "ProjectSet", "Append", "Merge Append",
            "Recursive Union", "BitmapAnd", "BitmapOr", "Bitmap Index Scan", "Nested Loop", "Merge Join", "Hash Join",
            "Gather", "Gather Merge", "Materialize", "Memoize", "Sort", "Incremental Sort", "Group", "Aggregate",
            "WindowAgg", "Unique", "SetOp", "LockRows", "Limit", "Hash");
    /**
     * Parents whose expressions name every column of their input they use (the deparser resolves them
     * through the child), so a child's physical target list is not a read of all its columns.
     */
    private static final Set<String> NAMING_PARENTS = Set.of("Nested Loop", "Hash Join", "Merge Join", "Hash",
            "Sort", "Incremental Sort", "Materialize", "Memoize", "Limit", "Aggregate", "Group", "Gather",
            "Gather Merge", "Result", "ProjectSet", "LockRows");

    /**
     * One relation in the catalog.
     *
     * @param table the table a read of it counts as (a partition's partitioned table)
     * @param attributes its columns by position, null for a dropped one
     * @param columns its live columns
     * @param generatedFrom for each generated column, the columns it is computed from
     * @param oid the relation's own oid (a partition's, not its partitioned table's)
     */
    record Relation(EngineReading.Table table, List<String> attributes, Set<String> columns,
                    Map<String, List<String>> generatedFrom, long oid) {
    }

    @Override
    public EngineReading read(Connection c, SqlStatement statement, int timeoutSeconds) throws SQLException {
        return read(c, statement, timeoutSeconds, -1);
    }

    /**
     * Reads a statement in the caller's open transaction with the server's statement time-out set for the
     * rest of it ({@code set_config('statement_timeout', …, true)}), sent in the same round trip as the
     * session's facts, before the {@code EXPLAIN}.
     *
     * @param c a connection with auto-commit off, whose transaction the caller ends (rolls back)
     * @param statement the statement and its parameters
     * @param serverTimeoutMillis the statement time-out for the rest of the transaction, in milliseconds
     * @return what the plan reads
     * @throws SQLException if the engine refuses to plan it (a time-out included)
     */
    /**
     * Reads the plan with the time cap in the server ({@code set_config('statement_timeout', …, true)}, sent
     * before the {@code EXPLAIN}), in a transaction that is rolled back, or in the caller's
     * transaction when auto-commit is off: the driver's own timeout cancels over a second connection, which a
     * partition blocks.
     */
    @Override
    public EngineReading readBounded(Connection connection, SqlStatement statement, int timeoutSeconds,
                                     long timeoutMillis) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        if (autoCommit) {
            connection.setAutoCommit(false);
        }
        try {
            // the time-out is set before the EXPLAIN; the transaction is rolled back below
            return readInTransaction(connection, statement, timeoutMillis);
        } finally {
            if (autoCommit) {
                try {
                    connection.rollback();
                    connection.setAutoCommit(true);
                } catch (SQLException ignored) {
                    // a broken connection is closed next; its pool discards it
                }
            }
        }
    }

    EngineReading readInTransaction(Connection c, SqlStatement statement, long serverTimeoutMillis) throws SQLException {
        if (c.getAutoCommit()) {
            throw new IllegalStateException("the server's time-out needs a transaction: auto-commit is on");
        }
        return read(c, statement, 0, serverTimeoutMillis);
    }

    private EngineReading read(Connection c, SqlStatement statement, int timeoutSeconds, long serverTimeoutMillis)
            throws SQLException {
        // two round trips. First the statement time-out (and ordered index scans off when the statement must
        // read in physical order) with the session's facts the reading depends on: a text that never changes,
        // so the driver prepares it once per connection and the server does not plan it again (about 0.4 ms).
        // Then the plan of the statement as it runs. Without a transaction of the caller's, settings local to
        // one would end with the first round trip: they go in the plan's instead, as one implicit transaction.
        boolean inTransaction = serverTimeoutMillis >= 0;
        String orderOff = statement.physicalOrder() ? dev.sqlagent.execution.JdbcSqlExecutor.PHYSICAL_ORDER : "";
        Facts facts;
        try (PreparedStatement ps = c.prepareStatement(inTransaction
                ? "SELECT pg_catalog.set_config('statement_timeout', ?, true)" + orderOff + "; " + FACTS : FACTS)) {
            if (timeoutSeconds > 0) {
                ps.setQueryTimeout(timeoutSeconds);
            }
            if (inTransaction) {
                ps.setString(1, Long.toString(serverTimeoutMillis));
            }
            if (!ps.execute() || inTransaction && !ps.getMoreResults()) {
                throw new PlanNotUnderstood("the session's facts came back without a result");
            }
            try (ResultSet rs = ps.getResultSet()) {
                if (!rs.next()) {
                    throw new PlanNotUnderstood("the session's search path could not be read");
                }
                facts = new Facts(rs.getString(1), rs.getBoolean(2));
            }
        }
        String json;
        try (PreparedStatement ps = Explain.prepare(c, (inTransaction || orderOff.isEmpty() ? ""
                : "SELECT 1" + orderOff + "; ") + "EXPLAIN (VERBOSE, FORMAT JSON) ", statement, timeoutSeconds)) {
            if (!ps.execute() || !inTransaction && !orderOff.isEmpty() && !ps.getMoreResults()) {
                throw new PlanNotUnderstood("EXPLAIN returned no plan");
            }
            json = plan(ps.getResultSet());
            if (ps.getMoreResults() || ps.getUpdateCount() != -1) {
                // a statement stacked after the one explained, which the guard should have refused: whatever
                // it did is undone by the caller's rollback
                throw new PlanNotUnderstood("more than one statement came back from the EXPLAIN");
            }
        }
        Object plan;
        try {
            plan = PlanJson.read(json, MAX_PLAN_DEPTH);
        } catch (IOException e) {
            throw new PlanNotUnderstood("EXPLAIN's JSON could not be read: " + e.getMessage());
        }
        List<Map<?, ?>> roots = roots(plan);
        List<Map<?, ?>> nodes = new ArrayList<>();
        for (Map<?, ?> root : roots) {
            collect(root, nodes, 0);
        }
        Map<String, Relation> relations = relations(c, nodes, timeoutSeconds, facts.searchPath());
        Reads reads = new Reads();
        Map<String, PgExpression.Rte> aliases = new LinkedHashMap<>();
        for (Map<?, ?> n : nodes) {
            String type = String.valueOf(n.get("Node Type"));
            Object alias = n.get("Alias");
            if (RELATION_SCANS.contains(type) && n.get("Relation Name") != null) {
                Relation r = relations.get(key(n));
                if (r == null) {
                    reads.unreadable("the relation " + key(n).replace('\u0000', '.') + ", which the catalog does not list");
                    continue;
                }
                reads.tables.add(r.table());
                if ((type.equals("Index Scan") || type.equals("Index Only Scan")) && n.get("Index Name") != null) {
                    indexOrder(c, n, r, timeoutSeconds, reads);
                }
                if (alias != null) {
                    aliases.put(alias.toString(), new PgExpression.Rte(alias.toString(), r));
                }
            } else if (DERIVED_SCANS.contains(type) && alias != null) {
                aliases.put(alias.toString(), new PgExpression.Rte(alias.toString(), null));
            } else if (RELATION_SCANS.contains(type) || DERIVED_SCANS.contains(type)) {
                reads.unreadable("a " + type + " node that names no relation or alias");
            }
        }
        PgExpression.Context context = new PgExpression.Context(aliases,
                aliases.size() == 1 ? aliases.values().iterator().next() : null);
        Walk walk = new Walk(context, relations, reads);
        for (Map<?, ?> root : roots) {
            walk.node(root, null);
        }
        if (!walk.aroundSubPlans.isEmpty()) {
            hiddenComparisons(c, statement, timeoutSeconds, relations.values(), walk.aroundSubPlans, reads);
        }
        // what the text prints by name but the engine binds by identity: casts' types, the database's own routines
        boolean functionScan = false;
        for (Map<?, ?> n : nodes) {
            functionScan |= String.valueOf(n.get("Node Type")).contains("Function Scan");
        }
        PgObjects.read(c, statement, timeoutSeconds, reads, functionScan, facts.ownRoutines(),
                types.get(facts.searchPath(), x -> new java.util.concurrent.ConcurrentHashMap<>()));
        return reads.reading();
    }

    /**
     * An index scan returns its rows in the order of the index's key: whatever the statement does with that
     * order (a LIMIT, an aggregate or window that depends on it, the answer's own order) reads the key
     * columns, so each counts as a possible read (an expression in the key: every column of the table).
     * A bitmap scan returns rows in the table's physical order and is not one.
     */
    private static void indexOrder(Connection c, Map<?, ?> node, Relation r, int timeoutSeconds, Reads reads)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT a.attname::text FROM pg_catalog.pg_index i "
                + "JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid "
                + "JOIN pg_catalog.pg_namespace n ON n.oid = ic.relnamespace "
                + "CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord) "
                + "LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum "
                + "WHERE ic.relname = ? AND n.nspname = ? AND k.ord <= i.indnkeyatts ORDER BY k.ord")) {
            ps.setQueryTimeout(timeoutSeconds);
            ps.setString(1, String.valueOf(node.get("Index Name")));
            ps.setString(2, String.valueOf(node.get("Schema")));
            boolean any = false;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    any = true;
                    String column = rs.getString(1);
                    if (column == null) {
                        for (String a : r.attributes()) {
                            reads.possibleColumns.add(new EngineReading.ColumnRead(r.table(), a));
                        }
                    } else {
                        reads.possibleColumns.add(new EngineReading.ColumnRead(r.table(),
                                column.toLowerCase(java.util.Locale.ROOT)));
                    }
                }
            }
            if (!any) {
                reads.unreadable("the key of index " + node.get("Index Name") + ", which the catalog does not list");
            }
        }
    }

    private static List<Map<?, ?>> roots(Object plan) {
        List<Map<?, ?>> out = new ArrayList<>();
        if (!(plan instanceof List<?> list) || list.isEmpty()) {
            throw new PlanNotUnderstood("EXPLAIN's JSON is not a list of plans");
        }
        for (Object o : list) {
            if (!(o instanceof Map<?, ?> m) || !(m.get("Plan") instanceof Map<?, ?> p)) {
                throw new PlanNotUnderstood("EXPLAIN's JSON has an entry without a Plan");
            }
            out.add(p);
        }
        return out;
    }

    private static void collect(Map<?, ?> node, List<Map<?, ?>> out, int depth) {
        if (depth > MAX_PLAN_DEPTH) {
            throw new PlanNotUnderstood("the plan is nested too deeply");
        }
        out.add(node);
        for (Map<?, ?> child : children(node)) {
            collect(child, out, depth + 1);
        }
    }

    private static List<Map<?, ?>> children(Map<?, ?> node) {
        Object plans = node.get("Plans");
        if (plans == null) {
            return List.of();
        }
        List<Map<?, ?>> out = new ArrayList<>();
        if (plans instanceof List<?> list) {
            for (Object o : list) {
                if (!(o instanceof Map<?, ?> m)) {
                    throw new PlanNotUnderstood("a plan node's child is not an object: " + o);
                }
                out.add(m);
            }
            return out;
        }
        throw new PlanNotUnderstood("a plan node's Plans is not a list");
    }

    private static String key(Map<?, ?> node) {
        Object schema = node.get("Schema");
        return (schema == null ? "" : schema.toString()) + "\u0000" + node.get("Relation Name");
    }

    /** One pass over the plan tree, reading every expression of every node. */
    private static final class Walk {
        final PgExpression.Context context;
        final Map<String, Relation> relations;
        final Reads reads;
        /** The relations scanned beneath a node that evaluates a sub-plan, whose comparison may be hidden. */
        final Set<Relation> aroundSubPlans = new LinkedHashSet<>();

        Walk(PgExpression.Context context, Map<String, Relation> relations, Reads reads) {
            this.context = context;
            this.relations = relations;
            this.reads = reads;
        }

        /**
         * What a node gave its parent.
         *
         * @param scope the relations scanned in its subtree, sub-plans left out
         * @param handedOn whether its output list only hands on a physical target list, unread
         * @param provenEmpty whether its subtree has a {@code Result} the planner proved returns no row (its
         *     pruned relations are named in expressions above it, but never scanned)
         */
        record Result(List<Relation> scope, boolean handedOn, boolean provenEmpty) {
        }

        /**
         * @param n a node
         * @param parentType its parent's node type, null at the top
         * @return what it gave its parent
         */
        Result node(Map<?, ?> n, String parentType) {
            String type = String.valueOf(n.get("Node Type"));
            if (!RELATION_SCANS.contains(type) && !DERIVED_SCANS.contains(type) && !OTHER_NODES.contains(type)
                    && !WRITE_NODES.contains(type)) {
                reads.unreadable("the plan node " + type);
            }
            if (WRITE_NODES.contains(type)) {
                reads.writes.add(type);
            }
            if (type.equals("Foreign Scan") && n.get("Relation Name") == null) {
                reads.unreadable("a Foreign Scan of a remote join");
            }
            List<Relation> scope = new ArrayList<>();
            Relation own = RELATION_SCANS.contains(type) && n.get("Relation Name") != null ? relations.get(key(n)) : null;
            if (own != null) {
                scope.add(own);
            }
            List<Map.Entry<Map<?, ?>, Result>> inputs = new ArrayList<>();
            boolean provenEmpty = type.equals("Result") && "false".equals(n.get("One-Time Filter"))
                    && children(n).isEmpty();
            for (Map<?, ?> child : children(n)) {
                Result below = node(child, type);
                Object rel = child.get("Parent Relationship");
                if (!"SubPlan".equals(rel) && !"InitPlan".equals(rel)) {
                    scope.addAll(below.scope());
                    inputs.add(Map.entry(child, below));
                    provenEmpty |= below.provenEmpty();
                }
            }
            boolean handedOn = own != null ? physicalTargetList(n, own)
                    : inputs.size() == 1 && inputs.get(0).getValue().handedOn()
                    && n.get("Output") != null && n.get("Output").equals(inputs.get(0).getKey().get("Output"));
            boolean subPlan = false;
            for (Map.Entry<?, ?> e : n.entrySet()) {
                String k = String.valueOf(e.getKey());
                if (DESCRIPTIVE_KEYS.contains(k)) {
                    continue;
                }
                if (!EXPRESSION_KEYS.contains(k)) {
                    reads.unreadable("the plan key \"" + k + "\" of a " + type + " node");
                    continue;
                }
                if (k.equals("Output") && handedOn && parentType != null && NAMING_PARENTS.contains(parentType)) {
                    continue; // the parent names the columns it uses
                }
                List<String> texts = new ArrayList<>();
                strings(e.getValue(), texts);
                for (String text : texts) {
                    subPlan |= PgExpression.read(text, context, provenEmpty, reads, type + " " + k);
                }
            }
            if (type.equals("Sample Scan") && n.get("Sampling Method") != null) {
                reads.functions.add(String.valueOf(n.get("Sampling Method")));
            }
            if (subPlan) {
                aroundSubPlans.addAll(scope);
            }
            return new Result(scope, handedOn, provenEmpty);
        }

        /** Whether a scan's output list is its table's every column in order (its physical target list). */
        private static boolean physicalTargetList(Map<?, ?> n, Relation own) {
            if (!(n.get("Output") instanceof List<?> output) || output.size() != own.attributes().size()
                    || n.get("Node Type").equals("ModifyTable")) {
                return false;
            }
            Object alias = n.get("Alias");
            for (int i = 0; i < output.size(); i++) {
                String text = String.valueOf(output.get(i));
                String col = own.attributes().get(i);
                if (col == null) {
                    if (!text.startsWith("NULL::")) {
                        return false;
                    }
                } else if (!text.equals(PrintedSql.quoteIfNeeded(col, '"'))
                        && !text.equals(PrintedSql.quoteIfNeeded(String.valueOf(alias), '"') + "."
                        + PrintedSql.quoteIfNeeded(col, '"'))) {
                    return false;
                }
            }
            return true;
        }

        private static void strings(Object v, List<String> out) {
            if (v instanceof String s) {
                out.add(s);
            } else if (v instanceof List<?> list) {
                list.forEach(x -> strings(x, out));
            } else if (v instanceof Map<?, ?> m) {
                m.values().forEach(x -> strings(x, out));
            } else if (v != null) {
                out.add(String.valueOf(v));
            }
        }
    }

    /**
     * Reads what the plan's text hides about its sub-plans from the planner's own tree: every scanned
     * relation's columns as the statement selects them anywhere (a hidden comparison may use a column of a
     * relation around it or, through a parameter, of an enclosing query's), and the functions the
     * comparisons call. A relation around a sub-plan that no permission-checked entry names (a partition or
     * inheritance child scanned through its parent, whose entry counts the parent's attribute numbers), and
     * every relation around one when the tree cannot be had, counts as possibly reading every column.
     */
    private static void hiddenComparisons(Connection c, SqlStatement statement, int timeoutSeconds,
                                          Collection<Relation> scanned, Set<Relation> around, Reads reads)
            throws SQLException {
        PgPlanDump.Tree tree = PgPlanDump.read(c, statement, timeoutSeconds);
        Set<Relation> all = new LinkedHashSet<>(around);
        all.addAll(scanned);
        for (Relation r : all) {
            Set<Integer> selected = tree == null ? null : tree.selected().get(r.oid());
            if (selected == null && !around.contains(r)) {
                continue;
            }
            if (selected == null || selected.contains(0)) {
                for (String col : r.columns()) {
                    reads.possibleColumns.add(new EngineReading.ColumnRead(r.table(), col));
                }
                if (selected == null) {
                    continue;
                }
            }
            for (int attno : selected) {
                if (attno > 0 && attno <= r.attributes().size() && r.attributes().get(attno - 1) != null) {
                    reads.possibleColumns.add(new EngineReading.ColumnRead(r.table(), r.attributes().get(attno - 1)));
                } else if (attno < 0) {
                    String system = SYSTEM_ATTRIBUTES.get(attno);
                    if (system == null) {
                        reads.unreadable("the system attribute " + attno + " of " + r.table().qualified());
                    } else {
                        reads.systemColumns.add(new EngineReading.ColumnRead(r.table(), system));
                    }
                } else if (attno > 0) {
                    reads.unreadable("the attribute " + attno + " of " + r.table().qualified()
                            + ", which the catalog does not list");
                }
            }
        }
        if (tree == null) {
            return;
        }
        tree.unreadable().forEach(reads::unreadable);
        if (!tree.functions().isEmpty()) {
            reads.functions.addAll(functionNames(c, tree.functions(), timeoutSeconds));
        }
    }

    /** PostgreSQL's system attributes by number. */
    private static final Map<Integer, String> SYSTEM_ATTRIBUTES = Map.of(-1, "ctid", -2, "xmin", -3, "cmin",
            -4, "xmax", -5, "cmax", -6, "tableoid");

    /** The names of functions by oid, as the plan's text prints them (qualified when not visible). */
    private static Set<String> functionNames(Connection c, Set<Long> oids, int timeoutSeconds) throws SQLException {
        Set<String> out = new LinkedHashSet<>();
        int found = 0;
        Array ids = c.createArrayOf("int8", oids.toArray());
        try (PreparedStatement ps = c.prepareStatement("SELECT CASE WHEN pg_catalog.pg_function_is_visible(p.oid) "
                + "THEN p.proname::text ELSE n.nspname || '.' || p.proname END FROM pg_catalog.pg_proc p "
                + "JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace WHERE p.oid = ANY (?::oid[])")) {
            if (timeoutSeconds > 0) {
                ps.setQueryTimeout(timeoutSeconds);
            }
            ps.setArray(1, ids);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1).toLowerCase(Locale.ROOT));
                    found++;
                }
            }
        } finally {
            ids.free();
        }
        if (found < oids.size()) {
            throw new PlanNotUnderstood("a function of a sub-plan's comparison is not in pg_proc");
        }
        return out;
    }

    /** The plan's JSON, from its rows; closes them. */
    private static String plan(ResultSet rows) throws SQLException {
        try (ResultSet rs = rows) {
            StringBuilder b = new StringBuilder();
            while (rs.next()) {
                b.append(rs.getString(1));
            }
            return b.toString();
        }
    }

    /**
     * Reads the catalog entries of the relations the plan scans: their columns by position, which columns
     * are generated from which, whether a bare name resolves to them, and the partitioned table a
     * partition belongs to.
     */
    private Map<String, Relation> relations(Connection c, List<Map<?, ?>> nodes, int timeoutSeconds,
                                            String searchPath) throws SQLException {
        Map<String, Relation> out = new LinkedHashMap<>();
        Set<String> wanted = new LinkedHashSet<>();
        for (Map<?, ?> n : nodes) {
            if (n.get("Relation Name") != null) {
                String k = key(n);
                Relation known = entries.getIfPresent(searchPath + "\u0000" + k);
                if (known != null) {
                    out.put(k, known);
                } else {
                    wanted.add(k);
                }
            }
        }
        if (wanted.isEmpty()) {
            return out;
        }
        Map<String, Relation> read = readRelations(c, wanted, timeoutSeconds);
        read.forEach((k, r) -> entries.put(searchPath + "\u0000" + k, r));
        out.putAll(read);
        return out;
    }

    /** Reads the catalog entries of the relations named (schema and name, as the plan prints them). */
    private static Map<String, Relation> readRelations(Connection c, Set<String> wanted, int timeoutSeconds)
            throws SQLException {
        Map<String, Relation> out = new LinkedHashMap<>();
        List<String> schemas = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String w : wanted) {
            int z = w.indexOf('\u0000');
            schemas.add(w.substring(0, z));
            names.add(w.substring(z + 1));
        }
        Array schemaArray = c.createArrayOf("text", schemas.toArray());
        Array nameArray = c.createArrayOf("text", names.toArray());
        Map<String, EngineReading.Table> identity = new HashMap<>();
        Map<String, List<String>> attributes = new LinkedHashMap<>();
        Map<String, Map<String, List<String>>> generated = new HashMap<>();
        Map<String, Long> oids = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT x.s, x.t, rn.nspname, r.relname, "
                + "pg_catalog.to_regclass(pg_catalog.quote_ident(r.relname)) = r.oid, a.attname::text, a.attisdropped, "
                + "(SELECT pg_catalog.array_agg(d.attname::text) FROM pg_catalog.pg_attrdef ad "
                + "JOIN pg_catalog.pg_depend dp ON dp.classid = 'pg_catalog.pg_attrdef'::pg_catalog.regclass "
                + "AND dp.objid = ad.oid AND dp.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass "
                + "AND dp.refobjid = k.oid AND dp.refobjsubid > 0 AND dp.refobjsubid <> a.attnum "
                + "JOIN pg_catalog.pg_attribute d ON d.attrelid = k.oid AND d.attnum = dp.refobjsubid "
                + "WHERE a.attgenerated <> '' AND ad.adrelid = k.oid AND ad.adnum = a.attnum), k.oid "
                + "FROM unnest(?::text[], ?::text[]) AS x(s, t) "
                + "JOIN pg_catalog.pg_namespace n ON n.nspname = x.s "
                + "JOIN pg_catalog.pg_class k ON k.relnamespace = n.oid AND k.relname = x.t "
                + "JOIN pg_catalog.pg_class r ON r.oid = CASE WHEN k.relispartition "
                + "THEN pg_catalog.pg_partition_root(k.oid) ELSE k.oid END "
                + "JOIN pg_catalog.pg_namespace rn ON rn.oid = r.relnamespace "
                + "LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = k.oid AND a.attnum > 0 "
                + "ORDER BY x.s, x.t, a.attnum")) {
            if (timeoutSeconds > 0) {
                ps.setQueryTimeout(timeoutSeconds);
            }
            ps.setArray(1, schemaArray);
            ps.setArray(2, nameArray);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String k = rs.getString(1) + "\u0000" + rs.getString(2);
                    identity.putIfAbsent(k, new EngineReading.Table(rs.getString(3), rs.getString(4), rs.getBoolean(5)));
                    oids.putIfAbsent(k, rs.getLong(9));
                    List<String> attrs = attributes.computeIfAbsent(k, x -> new ArrayList<>());
                    String name = rs.getString(6);
                    if (name == null) {
                        continue; // a relation without columns
                    }
                    boolean dropped = rs.getBoolean(7);
                    attrs.add(dropped ? null : name);
                    Array from = rs.getArray(8);
                    if (from != null && !dropped) {
                        List<String> sources = new ArrayList<>();
                        for (Object o : (Object[]) from.getArray()) {
                            sources.add(String.valueOf(o));
                        }
                        from.free();
                        generated.computeIfAbsent(k, x -> new HashMap<>()).put(name, List.copyOf(sources));
                    }
                }
            }
        } finally {
            schemaArray.free();
            nameArray.free();
        }
        for (Map.Entry<String, EngineReading.Table> e : identity.entrySet()) {
            List<String> attrs = attributes.getOrDefault(e.getKey(), List.of());
            Set<String> live = new LinkedHashSet<>();
            for (String a : attrs) {
                if (a != null) {
                    live.add(a);
                }
            }
            out.put(e.getKey(), new Relation(e.getValue(), Collections.unmodifiableList(new ArrayList<>(attrs)),
                    Collections.unmodifiableSet(live),
                    Map.copyOf(generated.getOrDefault(e.getKey(), Map.of())), oids.get(e.getKey())));
        }
        return out;
    }
}
