package dev.sqlagent.schema;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Completes a selection of tables and columns (a Selector's answer) without a model, so that what the
 * model chose can be joined and grouped:
 *
 * <ol>
 *   <li><b>Bridges.</b> The chosen tables are connected through the join graph by an approximate
 *       Steiner tree (starting from each chosen table in turn, the chosen table nearest the growing
 *       tree is attached by its shortest path; the smallest tree wins). Tables on those paths are added
 *       with their join columns, and the join columns of the chosen tables are added too.</li>
 *   <li><b>Dimensions.</b> When the question groups ("每个", "各个", "按…分组", "每", "each", "per",
 *       "by", "for every") and names a table next to the selection, by its name, singular or plural, its
 *       description or a business term, that table is added with its key, its join column and its
 *       name-like columns. A dimension named away from the grouping word is added too, noted as
 *       unsure: a table too many costs tokens, a table too few costs the answer.</li>
 * </ol>
 *
 * Nothing chosen is ever removed, except names the catalog lacks, which {@link #check} drops and
 * reports. Immutable and thread-safe.
 */
public final class SchemaCompletion {

    /**
     * A selection whose names were checked against the catalog.
     *
     * @param selection table to columns, in the catalog's spelling and order
     * @param unknown the names dropped, as {@code "table x"} or {@code "column t.x"}
     */
    public record CheckedSelection(Map<String, Set<String>> selection, List<String> unknown) {
        /**
         * Copies the parts.
         *
         * @param selection table to columns, in the catalog's spelling and order
         * @param unknown the names dropped, as {@code "table x"} or {@code "column t.x"}
         */
        public CheckedSelection {
            selection = copy(selection);
            unknown = List.copyOf(unknown);
        }
    }

    /**
     * A completed selection.
     *
     * @param selection table to columns, in the catalog's spelling and order, ready for
     *     {@link SchemaRenderer#render(SchemaCatalog, Map, int)}
     * @param addedTables the tables the completion added (bridges and dimensions), in catalog order
     * @param notes what was added or dropped, and why, one line each
     */
    public record CompletedSelection(Map<String, Set<String>> selection, Set<String> addedTables, List<String> notes) {
        /**
         * Copies the parts.
         *
         * @param selection table to columns, in the catalog's spelling and order, ready for
         *     {@link SchemaRenderer#render(SchemaCatalog, Map, int)}
         * @param addedTables the tables the completion added (bridges and dimensions), in catalog order
         * @param notes what was added or dropped, and why, one line each
         */
        public CompletedSelection {
            selection = copy(selection);
            addedTables = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(addedTables));
            notes = List.copyOf(notes);
        }
    }

    private static final Pattern CJK_CUE = Pattern.compile("每[个一位名种家类项年月天日]?|各[个位种类项]?|按照?|分别");
    private static final Pattern LATIN_CUE = Pattern.compile(
            "(?<![a-z0-9])(for each|for every|each|per|every|group(?:ed)? by|broken down by|by)(?![a-z0-9])");
    private static final Pattern NOT_A_CUE = Pattern.compile(
            "(?<![a-z0-9])(?:order(?:ed)?|sort(?:ed)?|rank(?:ed)?|arrange(?:d)?)(?: \\w+)? by$");
    private static final int CJK_WINDOW = 8;
    private static final int LATIN_WINDOW_WORDS = 4;

    private final SchemaCatalog catalog;
    private final JoinGraph graph;

    private SchemaCompletion(SchemaCatalog catalog, JoinGraph graph) {
        this.catalog = catalog;
        this.graph = graph;
    }

    /**
     * Creates a completion over a catalog and its own join graph (declared and inferred edges).
     *
     * @param catalog the catalog, whose {@link SchemaCatalog#joinGraph()} is used
     * @return a completion over it
     */
    public static SchemaCompletion of(SchemaCatalog catalog) {
        return new SchemaCompletion(Objects.requireNonNull(catalog, "catalog"), catalog.joinGraph());
    }

    /**
     * Creates a completion over a catalog and a join graph of the caller's choice.
     *
     * @param catalog the catalog
     * @param graph the join graph to use, e.g. {@link JoinGraph#declaredOnly(SchemaCatalog)}
     * @return a completion over them
     */
    public static SchemaCompletion of(SchemaCatalog catalog, JoinGraph graph) {
        return new SchemaCompletion(Objects.requireNonNull(catalog, "catalog"), Objects.requireNonNull(graph, "graph"));
    }

    /**
     * Checks a model's selection against the catalog: names are matched without regard to case, quotes
     * and schema prefixes; a column may be given as {@code c} or {@code t.c}; {@code *} is ignored;
     * unknown tables and columns are dropped and reported.
     *
     * @param chosen table to columns, as a model wrote them
     * @return the known part, in the catalog's spelling, and what was dropped
     */
    public CheckedSelection check(Map<String, ? extends Collection<String>> chosen) {
        Objects.requireNonNull(chosen, "chosen");
        Map<String, Set<String>> known = new LinkedHashMap<>();
        List<String> unknown = new ArrayList<>();
        for (Map.Entry<String, ? extends Collection<String>> e : chosen.entrySet()) {
            String tableName = bare(e.getKey());
            Optional<SchemaCatalog.Table> table = catalog.table(tableName);
            if (table.isEmpty()) {
                unknown.add("table " + e.getKey());
                continue;
            }
            Set<String> cols = known.computeIfAbsent(table.get().name(), k -> new LinkedHashSet<>());
            for (String raw : e.getValue() == null ? List.<String>of() : e.getValue()) {
                if (raw == null || raw.isBlank() || raw.trim().endsWith("*")) {
                    continue;
                }
                String c = raw.trim();
                int dot = c.lastIndexOf('.');
                if (dot >= 0) {
                    c = c.substring(dot + 1);
                }
                Optional<SchemaCatalog.Column> column = catalog.column(table.get().name(), bare(c));
                if (column.isEmpty()) {
                    unknown.add("column " + table.get().name() + "." + raw.trim());
                } else {
                    cols.add(column.get().name());
                }
            }
        }
        return new CheckedSelection(ordered(known), unknown);
    }

    /**
     * Completes a selection: bridges and join keys, then dimensions the question groups by. The names
     * are checked first ({@link #check}); the dropped ones are noted.
     *
     * @param question the user's question, any language
     * @param chosen table to columns, as chosen by a model
     * @return the completed selection, what was added and why
     */
    public CompletedSelection complete(String question, Map<String, ? extends Collection<String>> chosen) {
        Objects.requireNonNull(question, "question");
        CheckedSelection checked = check(chosen);
        Map<String, Set<String>> selection = new LinkedHashMap<>();
        checked.selection().forEach((t, cs) -> selection.put(t, new LinkedHashSet<>(cs)));
        List<String> notes = new ArrayList<>();
        for (String u : checked.unknown()) {
            notes.add("dropped " + u + ": the catalog has no such name");
        }
        Set<String> added = new LinkedHashSet<>();
        bridge(selection, added, notes);
        dimensions(question, selection, added, notes);
        return new CompletedSelection(ordered(selection), orderedTables(added), notes);
    }

    private void bridge(Map<String, Set<String>> selection, Set<String> added, List<String> notes) {
        List<String> terminals = new ArrayList<>(selection.keySet());
        if (terminals.size() < 2) {
            return;
        }
        Tree best = null;
        for (String start : terminals) {
            Tree t = grow(start, terminals);
            if (best == null || t.compareTo(best) < 0) {
                best = t;
            }
        }
        for (String t : best.unreachable) {
            notes.add("no join path connects " + t + " to the other chosen tables; left as chosen");
        }
        for (JoinGraph.Path p : best.paths) {
            for (int i = 1; i < p.tables().size() - 1; i++) {
                String bridgeTable = p.tables().get(i);
                if (!selection.containsKey(bridgeTable)) {
                    selection.put(bridgeTable, new LinkedHashSet<>());
                    added.add(bridgeTable);
                    notes.add("added table " + bridgeTable + ": it joins " + p.tables().get(0) + " to "
                            + p.tables().get(p.tables().size() - 1) + " (path " + String.join(" - ", p.tables()) + ")");
                }
            }
            for (JoinGraph.Edge e : p.edges()) {
                addJoinColumn(selection, e.fromTable(), e.fromColumn(), e, notes);
                addJoinColumn(selection, e.toTable(), e.toColumn(), e, notes);
            }
        }
    }

    private void addJoinColumn(Map<String, Set<String>> selection, String table, String column, JoinGraph.Edge e,
            List<String> notes) {
        if (selection.get(table).add(column) && !isPrimaryKey(table, column)) {
            notes.add("added column " + table + "." + column + ": join key " + e);
        }
    }

    private boolean isPrimaryKey(String table, String column) {
        for (String pk : catalog.table(table).map(SchemaCatalog.Table::primaryKey).orElse(List.of())) {
            if (pk.equalsIgnoreCase(column)) {
                return true;
            }
        }
        return false;
    }

    /** An approximate Steiner tree grown from one start. */
    private final class Tree implements Comparable<Tree> {
        final int startIndex;
        final Set<String> tables = new LinkedHashSet<>();
        final List<JoinGraph.Path> paths = new ArrayList<>();
        final List<String> unreachable = new ArrayList<>();
        int inferred;

        Tree(int startIndex) {
            this.startIndex = startIndex;
        }

        @Override
        public int compareTo(Tree o) {
            int c = Integer.compare(unreachable.size(), o.unreachable.size());
            if (c == 0) {
                c = Integer.compare(tables.size(), o.tables.size());
            }
            if (c == 0) {
                c = Integer.compare(inferred, o.inferred);
            }
            return c != 0 ? c : Integer.compare(startIndex, o.startIndex);
        }
    }

    private Tree grow(String start, List<String> terminals) {
        Tree tree = new Tree(graph.tables().indexOf(start));
        tree.tables.add(start);
        List<String> remaining = new ArrayList<>(terminals);
        remaining.remove(start);
        while (!remaining.isEmpty()) {
            JoinGraph.Path nearest = null;
            for (String r : remaining) {
                Optional<JoinGraph.Path> p = graph.shortestPathToAny(r, tree.tables);
                if (p.isPresent() && (nearest == null || p.get().length() < nearest.length()
                        || (p.get().length() == nearest.length() && p.get().inferredEdges() < nearest.inferredEdges()))) {
                    nearest = p.get();
                }
            }
            if (nearest == null) {
                tree.unreachable.addAll(remaining);
                break;
            }
            tree.paths.add(nearest);
            tree.tables.addAll(nearest.tables());
            tree.inferred += nearest.inferredEdges();
            remaining.removeAll(nearest.tables());
        }
        return tree;
    }

    private void dimensions(String question, Map<String, Set<String>> selection, Set<String> added, List<String> notes) {
        String q = question.toLowerCase(Locale.ROOT);
        List<int[]> windows = cueWindows(q);
        if (windows.isEmpty() || selection.isEmpty()) {
            return;
        }
        Set<String> candidates = new LinkedHashSet<>();
        for (String t : graph.tables()) {
            if (selection.containsKey(t)) {
                continue;
            }
            for (String n : graph.neighbours(t)) {
                if (selection.containsKey(n)) {
                    candidates.add(t);
                    break;
                }
            }
        }
        Map<String, String> toAdd = new LinkedHashMap<>();
        for (String candidate : candidates) {
            Match m = named(q, candidate, windows);
            if (m != null) {
                toAdd.put(candidate, m.describe());
            }
        }
        for (Map.Entry<String, String> d : toAdd.entrySet()) {
            String dim = d.getKey();
            JoinGraph.Edge edge = null;
            for (JoinGraph.Edge e : graph.edgesOf(dim)) {
                String other = e.otherEnd(dim);
                if (!other.equalsIgnoreCase(dim) && selection.containsKey(other)
                        && (edge == null || (e.declared() && !edge.declared()))) {
                    edge = e;
                }
            }
            Set<String> cols = new LinkedHashSet<>();
            SchemaCatalog.Table table = catalog.table(dim).orElseThrow();
            cols.addAll(table.primaryKey());
            for (SchemaCatalog.Column c : table.columns()) {
                String lc = c.name().toLowerCase(Locale.ROOT);
                if (lc.contains("name") || lc.contains("title") || mentions(q, lc)) {
                    cols.add(c.name());
                }
            }
            selection.put(dim, cols);
            added.add(dim);
            if (edge != null) {
                String other = edge.otherEnd(dim);
                selection.get(dim).add(edge.columnOf(dim));
                selection.get(other).add(edge.columnOf(other));
                notes.add("added table " + dim + ": the question groups by it (" + d.getValue() + "); joins by " + edge);
            } else {
                notes.add("added table " + dim + ": the question groups by it (" + d.getValue() + ")");
            }
        }
    }

    /** How a dimension was named. */
    private record Match(String term, boolean nearCue) {
        String describe() {
            return "\"" + term + "\"" + (nearCue ? " after a grouping word" : " named, grouping word elsewhere; unsure, kept");
        }
    }

    private Match named(String q, String table, List<int[]> windows) {
        Match far = null;
        for (String term : terms(table)) {
            Matcher m = termPattern(term).matcher(q);
            while (m.find()) {
                for (int[] w : windows) {
                    if (m.start() >= w[0] && m.start() <= w[1]) {
                        return new Match(term, true);
                    }
                }
                if (far == null) {
                    far = new Match(term, false);
                }
            }
        }
        return far;
    }

    private List<String> terms(String table) {
        Set<String> terms = new LinkedHashSet<>();
        String lower = table.toLowerCase(Locale.ROOT);
        for (String variant : List.of(lower, lower.replace('_', ' '))) {
            int space = variant.lastIndexOf(' ');
            String head = space < 0 ? "" : variant.substring(0, space + 1);
            for (String f : Words.forms(space < 0 ? variant : variant.substring(space + 1))) {
                terms.add(head + f);
            }
        }
        SchemaEnrichment en = catalog.enrichment();
        String description = en.tableDescription(table).orElse(catalog.table(table).map(SchemaCatalog.Table::remarks).orElse(""));
        if (!description.isBlank() && description.length() <= 20) {
            terms.add(description.trim().toLowerCase(Locale.ROOT));
        }
        for (String t : en.termsFor(table, null)) {
            terms.add(t.toLowerCase(Locale.ROOT));
        }
        for (SchemaCatalog.Column c : catalog.table(table).map(SchemaCatalog.Table::columns).orElse(List.of())) {
            for (String t : en.termsFor(table, c.name())) {
                terms.add(t.toLowerCase(Locale.ROOT));
            }
        }
        terms.removeIf(t -> t.length() < 2 && !isCjk(t));
        return new ArrayList<>(terms);
    }

    private static boolean mentions(String q, String column) {
        return column.length() > 2 && (termPattern(column).matcher(q).find() || termPattern(column.replace('_', ' ')).matcher(q).find());
    }

    private static Pattern termPattern(String term) {
        if (isCjk(term)) {
            return Pattern.compile(Pattern.quote(term));
        }
        return Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(term) + "(?![\\p{L}\\p{N}])");
    }

    private static boolean isCjk(String s) {
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            if (Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN) {
                return true;
            }
            i += Character.charCount(cp);
        }
        return false;
    }

    /** {@return [start, end] character ranges of the question that follow a grouping word} */
    private static List<int[]> cueWindows(String q) {
        List<int[]> windows = new ArrayList<>();
        Matcher cjk = CJK_CUE.matcher(q);
        while (cjk.find()) {
            windows.add(new int[] {cjk.end(), Math.min(q.length(), cjk.end() + CJK_WINDOW)});
        }
        Matcher latin = LATIN_CUE.matcher(q);
        while (latin.find()) {
            if (NOT_A_CUE.matcher(q.substring(0, latin.end())).find()) {
                continue;
            }
            int end = latin.end();
            int words = 0;
            int i = end;
            while (i < q.length() && words <= LATIN_WINDOW_WORDS) {
                if (Character.isWhitespace(q.charAt(i)) && i > 0 && !Character.isWhitespace(q.charAt(i - 1))) {
                    words++;
                }
                i++;
            }
            windows.add(new int[] {end, i});
        }
        return windows;
    }

    private static String bare(String name) {
        String b = name.replace("\"", "").replace("`", "").replace("[", "").replace("]", "").trim();
        int dot = b.lastIndexOf('.');
        return dot >= 0 ? b.substring(dot + 1) : b;
    }

    private Map<String, Set<String>> ordered(Map<String, Set<String>> selection) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        for (SchemaCatalog.Table t : catalog.tables()) {
            Set<String> cols = selection.get(t.name());
            if (cols == null) {
                continue;
            }
            Set<String> ordered = new LinkedHashSet<>();
            for (SchemaCatalog.Column c : t.columns()) {
                if (cols.contains(c.name())) {
                    ordered.add(c.name());
                }
            }
            out.put(t.name(), ordered);
        }
        return out;
    }

    private Set<String> orderedTables(Set<String> tables) {
        Set<String> out = new LinkedHashSet<>();
        for (String t : graph.tables()) {
            if (tables.contains(t)) {
                out.add(t);
            }
        }
        return out;
    }

    private static Map<String, Set<String>> copy(Map<String, Set<String>> selection) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        selection.forEach((t, cs) -> out.put(t, java.util.Collections.unmodifiableSet(new LinkedHashSet<>(cs))));
        return java.util.Collections.unmodifiableMap(out);
    }
}
