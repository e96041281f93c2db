package dev.sqlagent.schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How the tables of a catalog join: one node per table, one edge per declared foreign key and per key
 * inferred from names where none is declared. Immutable and thread-safe.
 *
 * <p>An edge {@code T.c -> U.p} is inferred when {@code U} has a single-column primary key {@code p},
 * {@code T.c} is not already a declared foreign key, the types are compatible (both integer-like, both
 * text, or one unknown), and either
 * <ul>
 *   <li>{@code c} is {@code <U>_id}, {@code <U>id} or {@code <U><p>} for {@code U}'s name, its singular
 *       or its plural ({@code orders.employee_id -> employees.id}, {@code city.CountryCode -> country.Code}),
 *       or</li>
 *   <li>{@code c} is not {@code T}'s whole primary key and either has the same name as {@code p}, where
 *       that name is specific (longer than a bare {@code id}, {@code code}, {@code no}, {@code number},
 *       {@code key}, and ending in one of them: {@code singer_in_concert.singer_id -> singer.singer_id}),
 *       or adds a role prefix to it or to {@code <U>_id}
 *       ({@code students.current_address_id -> addresses.address_id},
 *       {@code death.caused_by_ship_id -> ship.id}).</li>
 * </ul>
 *
 * <p>Shortest paths count hops between tables; among paths of equal length the one with fewer inferred
 * edges wins, then the one through tables earlier in the catalog, so results are deterministic.
 */
public final class JoinGraph {

    /** Where an edge comes from. */
    public enum Origin {
        /** A foreign key the database declares. */
        DECLARED,
        /** A key inferred from column and table names. */
        INFERRED
    }

    /**
     * A way to join two tables: {@code fromTable.fromColumn = toTable.toColumn}, the first referencing the
     * second.
     *
     * @param fromTable the referencing table
     * @param fromColumn the referencing column
     * @param toTable the referenced table
     * @param toColumn the referenced column
     * @param origin declared or inferred
     */
    public record Edge(String fromTable, String fromColumn, String toTable, String toColumn, Origin origin) {
        /**
         * Checks the parts.
         *
         * @param fromTable the referencing table
         * @param fromColumn the referencing column
         * @param toTable the referenced table
         * @param toColumn the referenced column
         * @param origin declared or inferred
         */
        public Edge {
            Objects.requireNonNull(fromTable, "fromTable");
            Objects.requireNonNull(fromColumn, "fromColumn");
            Objects.requireNonNull(toTable, "toTable");
            Objects.requireNonNull(toColumn, "toColumn");
            Objects.requireNonNull(origin, "origin");
        }

        /** {@return whether the database declares this edge} */
        public boolean declared() {
            return origin == Origin.DECLARED;
        }

        /**
         * Returns the column through which a table takes part in this edge.
         *
         * @param table one end of the edge, any case
         * @return the column of this edge in that table
         * @throws IllegalArgumentException when the table is not an end of this edge
         */
        public String columnOf(String table) {
            if (fromTable.equalsIgnoreCase(table)) {
                return fromColumn;
            }
            if (toTable.equalsIgnoreCase(table)) {
                return toColumn;
            }
            throw new IllegalArgumentException(table + " is not an end of " + this);
        }

        /**
         * Returns the table at the other end of this edge.
         *
         * @param table one end of the edge, any case
         * @return the other end
         * @throws IllegalArgumentException when the table is not an end of this edge
         */
        public String otherEnd(String table) {
            if (fromTable.equalsIgnoreCase(table)) {
                return toTable;
            }
            if (toTable.equalsIgnoreCase(table)) {
                return fromTable;
            }
            throw new IllegalArgumentException(table + " is not an end of " + this);
        }

        @Override
        public String toString() {
            return fromTable + "." + fromColumn + " -> " + toTable + "." + toColumn
                    + (declared() ? "" : " (inferred)");
        }
    }

    /**
     * A path between tables.
     *
     * @param tables the tables from the start to the end, each once
     * @param edges the edge of each hop, one fewer than the tables
     */
    public record Path(List<String> tables, List<Edge> edges) {
        /**
         * Copies the lists.
         *
         * @param tables the tables from the start to the end, each once
         * @param edges the edge of each hop, one fewer than the tables
         */
        public Path {
            tables = List.copyOf(tables);
            edges = List.copyOf(edges);
            if (tables.isEmpty() || edges.size() != tables.size() - 1) {
                throw new IllegalArgumentException("a path of " + tables.size() + " tables needs "
                        + Math.max(0, tables.size() - 1) + " edges but has " + edges.size());
            }
        }

        /** {@return the number of hops} */
        public int length() {
            return edges.size();
        }

        /** {@return how many of its edges are inferred} */
        public int inferredEdges() {
            int n = 0;
            for (Edge e : edges) {
                n += e.declared() ? 0 : 1;
            }
            return n;
        }
    }

    /** Key names specific enough to match by name alone: more than a bare suffix, ending like a key. */
    private static final java.util.regex.Pattern SPECIFIC_KEY =
            java.util.regex.Pattern.compile("(?i).+[_a-z]?(id|code|no|num|number|key)");
    private static final Set<String> GENERIC_KEYS = Set.of("id", "code", "no", "num", "number", "key");

    private final List<String> tables;
    private final Map<String, Integer> index;
    private final List<Edge> edges;
    private final List<List<Integer>> incident;

    private JoinGraph(List<String> tables, List<Edge> edges) {
        this.tables = List.copyOf(tables);
        Map<String, Integer> idx = new HashMap<>();
        for (int i = 0; i < tables.size(); i++) {
            idx.put(tables.get(i).toLowerCase(Locale.ROOT), i);
        }
        this.index = Collections.unmodifiableMap(idx);
        this.edges = List.copyOf(edges);
        List<List<Integer>> inc = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            inc.add(new ArrayList<>());
        }
        for (int e = 0; e < edges.size(); e++) {
            Edge edge = edges.get(e);
            int a = idx.get(edge.fromTable().toLowerCase(Locale.ROOT));
            int b = idx.get(edge.toTable().toLowerCase(Locale.ROOT));
            inc.get(a).add(e);
            if (b != a) {
                inc.get(b).add(e);
            }
        }
        this.incident = inc;
    }

    /**
     * The graph of declared foreign keys plus inferred keys. {@link SchemaCatalog#joinGraph()} keeps one.
     *
     * @param catalog the catalog
     * @return its join graph
     */
    public static JoinGraph of(SchemaCatalog catalog) {
        return build(catalog, true);
    }

    /**
     * Builds the join graph of a catalog from its declared foreign keys alone, inferring no edge.
     *
     * @param catalog the catalog
     * @return its join graph of declared foreign keys only
     */
    public static JoinGraph declaredOnly(SchemaCatalog catalog) {
        return build(catalog, false);
    }

    private static JoinGraph build(SchemaCatalog catalog, boolean infer) {
        List<String> names = new ArrayList<>();
        Map<String, SchemaCatalog.Table> byName = new HashMap<>();
        for (SchemaCatalog.Table t : catalog.tables()) {
            if (byName.putIfAbsent(t.name().toLowerCase(Locale.ROOT), t) == null) {
                names.add(t.name());
            }
        }
        List<Edge> edges = new ArrayList<>();
        Set<String> seen = new java.util.HashSet<>();
        for (SchemaCatalog.Table t : catalog.tables()) {
            for (SchemaCatalog.ForeignKey fk : t.foreignKeys()) {
                SchemaCatalog.Table target = byName.get(fk.referencedTable().toLowerCase(Locale.ROOT));
                if (target == null) {
                    continue;
                }
                String from = canonicalColumn(t, fk.column());
                String to = canonicalColumn(target, fk.referencedColumn());
                if (seen.add(edgeKey(t.name(), from, target.name(), to))) {
                    edges.add(new Edge(t.name(), from, target.name(), to, Origin.DECLARED));
                }
            }
        }
        if (infer) {
            for (SchemaCatalog.Table t : catalog.tables()) {
                for (SchemaCatalog.Column c : t.columns()) {
                    if (declaresForeignKey(t, c.name())) {
                        continue;
                    }
                    for (SchemaCatalog.Table u : catalog.tables()) {
                        if (u == t || u.primaryKey().size() != 1) {
                            continue;
                        }
                        String p = canonicalColumn(u, u.primaryKey().get(0));
                        Optional<SchemaCatalog.Column> pc = columnOf(u, p);
                        if (pc.isEmpty() || !typesCompatible(c.type(), pc.get().type()) || !namesMatch(t, c.name(), u, p)) {
                            continue;
                        }
                        if (seen.add(edgeKey(t.name(), c.name(), u.name(), p))) {
                            edges.add(new Edge(t.name(), c.name(), u.name(), p, Origin.INFERRED));
                        }
                    }
                }
            }
        }
        return new JoinGraph(names, edges);
    }

    private static boolean namesMatch(SchemaCatalog.Table t, String column, SchemaCatalog.Table u, String pk) {
        String c = norm(column);
        String p = norm(pk);
        for (String form : Words.forms(norm(u.name()))) {
            if (c.equals(form + "id") || c.equals(form + p)) {
                return true;
            }
        }
        boolean ownWholeKey = t.primaryKey().size() == 1 && t.primaryKey().get(0).equalsIgnoreCase(column);
        if (ownWholeKey) {
            return false;
        }
        boolean specificKey = SPECIFIC_KEY.matcher(pk.toLowerCase(Locale.ROOT)).matches() && !GENERIC_KEYS.contains(p);
        if (specificKey && c.equals(p)) {
            return true;
        }
        // a role prefix: current_address_id -> addresses.address_id, caused_by_ship_id -> ship.id
        String lc = column.toLowerCase(Locale.ROOT);
        if (specificKey && lc.endsWith("_" + pk.toLowerCase(Locale.ROOT))) {
            return true;
        }
        for (String form : Words.forms(u.name().toLowerCase(Locale.ROOT))) {
            if (lc.endsWith("_" + form + "_id")) {
                return true;
            }
        }
        return false;
    }

    private static boolean declaresForeignKey(SchemaCatalog.Table t, String column) {
        for (SchemaCatalog.ForeignKey fk : t.foreignKeys()) {
            if (fk.column().equalsIgnoreCase(column)) {
                return true;
            }
        }
        return false;
    }

    static boolean typesCompatible(String a, String b) {
        String fa = typeFamily(a);
        String fb = typeFamily(b);
        return fa.isEmpty() || fb.isEmpty() || fa.equals(fb);
    }

    private static String typeFamily(String type) {
        String t = type.trim().toUpperCase(Locale.ROOT);
        if (t.isEmpty()) {
            return "";
        }
        if (t.contains("INT") || t.startsWith("NUMBER") || t.startsWith("NUMERIC") || t.startsWith("DECIMAL")
                || t.contains("SERIAL") || t.startsWith("REAL") || t.startsWith("FLOAT") || t.startsWith("DOUBLE")) {
            return "number";
        }
        if (t.contains("CHAR") || t.contains("TEXT") || t.contains("CLOB") || t.contains("STRING")) {
            return "text";
        }
        return t.replaceAll("\\(.*", "").trim();
    }

    private static String norm(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]", "");
    }

    private static String edgeKey(String t, String c, String u, String p) {
        return (t + "." + c + ">" + u + "." + p).toLowerCase(Locale.ROOT);
    }

    private static String canonicalColumn(SchemaCatalog.Table t, String column) {
        return columnOf(t, column).map(SchemaCatalog.Column::name).orElse(column);
    }

    private static Optional<SchemaCatalog.Column> columnOf(SchemaCatalog.Table t, String column) {
        for (SchemaCatalog.Column c : t.columns()) {
            if (c.name().equalsIgnoreCase(column)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** {@return the tables, in the catalog's order and spelling} */
    public List<String> tables() {
        return tables;
    }

    /** {@return every edge: declared ones first, in catalog order, then inferred ones} */
    public List<Edge> edges() {
        return edges;
    }

    /**
     * Returns the edges that touch a table.
     *
     * @param table a table name, any case
     * @return the edges that touch it; empty for an unknown table
     */
    public List<Edge> edgesOf(String table) {
        Integer i = index.get(table.toLowerCase(Locale.ROOT));
        if (i == null) {
            return List.of();
        }
        List<Edge> out = new ArrayList<>();
        for (int e : incident.get(i)) {
            out.add(edges.get(e));
        }
        return out;
    }

    /**
     * Returns the tables a table joins directly, through one edge.
     *
     * @param table a table name, any case
     * @return the tables it joins directly, in catalog order; empty for an unknown table
     */
    public Set<String> neighbours(String table) {
        Integer i = index.get(table.toLowerCase(Locale.ROOT));
        if (i == null) {
            return Set.of();
        }
        boolean[] mark = new boolean[tables.size()];
        for (int e : incident.get(i)) {
            mark[other(e, i)] = true;
        }
        mark[i] = false;
        Set<String> out = new LinkedHashSet<>();
        for (int j = 0; j < mark.length; j++) {
            if (mark[j]) {
                out.add(tables.get(j));
            }
        }
        return Collections.unmodifiableSet(out);
    }

    /**
     * Looks a table up whatever its case.
     *
     * @param table a table name, any case
     * @return the catalog's spelling of it, if the graph has it
     */
    public Optional<String> canonical(String table) {
        Integer i = index.get(table.toLowerCase(Locale.ROOT));
        return i == null ? Optional.empty() : Optional.of(tables.get(i));
    }

    /**
     * The shortest path between two tables (fewest hops, then fewest inferred edges, then through tables
     * earlier in the catalog).
     *
     * @param from a table name, any case
     * @param to a table name, any case
     * @return the path, empty when either table is unknown or they do not connect; a path of one table
     *     when they are the same
     */
    public Optional<Path> shortestPath(String from, String to) {
        Integer t = index.get(to.toLowerCase(Locale.ROOT));
        if (t == null) {
            return Optional.empty();
        }
        return shortestPathToAny(from, List.of(tables.get(t)));
    }

    /**
     * The shortest path from a table to the nearest of some others (ties as in
     * {@link #shortestPath(String, String)}).
     *
     * @param from a table name, any case
     * @param targets table names, any case; unknown ones are ignored
     * @return the path, starting at {@code from} and ending at one of the targets, or empty when none
     *     connects
     */
    public Optional<Path> shortestPathToAny(String from, Collection<String> targets) {
        Integer s = index.get(from.toLowerCase(Locale.ROOT));
        if (s == null) {
            return Optional.empty();
        }
        boolean[] isTarget = new boolean[tables.size()];
        boolean any = false;
        for (String t : targets) {
            Integer i = index.get(t.toLowerCase(Locale.ROOT));
            if (i != null) {
                isTarget[i] = true;
                any = true;
            }
        }
        if (!any) {
            return Optional.empty();
        }
        if (isTarget[s]) {
            return Optional.of(new Path(List.of(tables.get(s)), List.of()));
        }
        int n = tables.size();
        int[] dist = new int[n];
        int[] inferred = new int[n];
        int[] pred = new int[n];
        int[] predEdge = new int[n];
        Arrays.fill(dist, -1);
        dist[s] = 0;
        pred[s] = -1;
        List<Integer> frontier = List.of(s);
        int depth = 0;
        while (!frontier.isEmpty()) {
            depth++;
            Map<Integer, int[]> best = new java.util.TreeMap<>();
            for (int u : frontier) {
                for (int e : incident.get(u)) {
                    int v = other(e, u);
                    if (dist[v] >= 0 && dist[v] < depth) {
                        continue;
                    }
                    int cost = inferred[u] + (edges.get(e).declared() ? 0 : 1);
                    int[] cand = {cost, u, e};
                    int[] cur = best.get(v);
                    if (cur == null || compare(cand, cur) < 0) {
                        best.put(v, cand);
                    }
                }
            }
            List<Integer> next = new ArrayList<>();
            int found = -1;
            for (Map.Entry<Integer, int[]> b : best.entrySet()) {
                int v = b.getKey();
                dist[v] = depth;
                inferred[v] = b.getValue()[0];
                pred[v] = b.getValue()[1];
                predEdge[v] = b.getValue()[2];
                next.add(v);
                if (isTarget[v] && (found < 0 || inferred[v] < inferred[found])) {
                    found = v;
                }
            }
            if (found >= 0) {
                return Optional.of(path(found, pred, predEdge));
            }
            frontier = next;
        }
        return Optional.empty();
    }

    private static int compare(int[] a, int[] b) {
        for (int i = 0; i < a.length; i++) {
            int c = Integer.compare(a[i], b[i]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private Path path(int end, int[] pred, int[] predEdge) {
        List<String> ts = new ArrayList<>();
        List<Edge> es = new ArrayList<>();
        int v = end;
        while (pred[v] >= 0) {
            ts.add(tables.get(v));
            es.add(edges.get(predEdge[v]));
            v = pred[v];
        }
        ts.add(tables.get(v));
        Collections.reverse(ts);
        Collections.reverse(es);
        return new Path(ts, es);
    }

    private int other(int e, int from) {
        Edge edge = edges.get(e);
        int a = index.get(edge.fromTable().toLowerCase(Locale.ROOT));
        int b = index.get(edge.toTable().toLowerCase(Locale.ROOT));
        return a == from ? b : a;
    }

    @Override
    public String toString() {
        return "JoinGraph{tables=" + tables.size() + ", edges=" + edges.size() + '}';
    }
}
