package dev.sqlagent.engine;

import dev.sqlagent.guard.engine.EngineReading;
import dev.sqlagent.internal.Identifiers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The structure of a query an engine prints back in its own canonical form (MariaDB's rewritten query, H2's
 * plan): CTEs, query blocks joined by set operations, each block's FROM items and clauses, sub-queries in
 * expressions. Names are resolved through the scopes of that structure, so a column is read where the engine
 * resolved it. Each engine's subclass reads its FROM items and the words of its expressions; whatever it
 * cannot place is recorded as unreadable, naming it.
 *
 * <p>Names compare as the engine compares them ({@link Identifiers}): by {@link #columnRule} for columns,
 * column aliases and CTE names, by {@link #aliasRule} for the aliases of FROM items; the keys of this class's
 * maps and sets are {@link Identifiers#key keys} under those rules.
 */
public abstract class PrintedQuery {

    /**
     * A FROM item.
     *
     * @param table the base table, or null for a derived table, a CTE, a table function or values
     * @param columns a derived item's column names (lower case), when known; a base table's come from the
     *     catalog
     * @param lazy a derived table's select-list columns read only when the query around it uses them, or
     *     null
     */
    protected record Source(EngineReading.Table table, Set<String> columns, Lazy lazy) {
        public Source(EngineReading.Table table, Set<String> columns) {
            this(table, columns, null);
        }

        /** The query around this item uses its column {@code column}: what computes it is read now. */
        public void touch(String column) {
            if (lazy != null) {
                lazy.touch(column);
            }
        }
    }

    /**
     * The plain column items of a derived table's select list, read only once the query around it uses
     * them: a derived table that filters rows of a table ({@code (SELECT * FROM t WHERE …)}, as a row filter
     * is rewritten) reads of that table only the columns its user takes. Only a single query block without
     * DISTINCT, grouping, HAVING, ORDER BY, windows or set operations defers, and only items that are a bare
     * column.
     */
    protected static final class Lazy {
        private final Map<String, Runnable> items = new HashMap<>();

        public void defer(String column, Runnable read) {
            items.putIfAbsent(column, read);
        }

        public void touch(String column) {
            Runnable r = items.remove(column);
            if (r != null) {
                r.run();
            }
        }

        /** Reads every deferred item now: the derived table is used whole. */
        public void all() {
            List<Runnable> rest = new ArrayList<>(items.values());
            items.clear();
            rest.forEach(Runnable::run);
        }
    }

    /** A query block's names: its FROM items, its select-list aliases, the CTEs it defines. */
    protected static final class Scope {
        public final Scope outer;
        public final Map<String, Source> items = new LinkedHashMap<>();
        public final Set<String> selectAliases = new LinkedHashSet<>();
        public final Map<String, Set<String>> ctes = new HashMap<>();

        public Scope(Scope outer) {
            this.outer = outer;
        }

        public Source find(String alias) {
            for (Scope s = this; s != null; s = s.outer) {
                Source src = s.items.get(alias);
                if (src != null) {
                    return src;
                }
            }
            return null;
        }

        /** {@return the nearest FROM item of this alias that is a base table (schema.alias.column names no other)} */
        public Source findTable(String alias) {
            for (Scope s = this; s != null; s = s.outer) {
                Source src = s.items.get(alias);
                if (src != null && src.table() != null) {
                    return src;
                }
            }
            return null;
        }

        public Set<String> cte(String name) {
            for (Scope s = this; s != null; s = s.outer) {
                Set<String> cols = s.ctes.get(name);
                if (cols != null) {
                    return cols;
                }
            }
            return null;
        }

        public boolean isSelectAlias(String name) {
            for (Scope s = this; s != null; s = s.outer) {
                if (s.selectAliases.contains(name)) {
                    return true;
                }
            }
            return false;
        }
    }

    protected final List<PrintedSql.Token> t;
    protected final Reads out;
    /** Every base table's alias in the text (lower case), to the tables it names. */
    public final Map<String, Set<EngineReading.Table>> aliases = new LinkedHashMap<>();
    protected int i;

    protected PrintedQuery(List<PrintedSql.Token> tokens, Reads out) {
        this.t = tokens;
        this.out = out;
    }

    /** {@return the rule column names, column aliases and CTE names compare by in the printed text} */
    protected Identifiers.Rule columnRule() {
        return Identifiers.Rule.INSENSITIVE;
    }

    /** {@return the rule the aliases of FROM items compare by in the printed text} */
    protected Identifiers.Rule aliasRule() {
        return Identifiers.Rule.INSENSITIVE;
    }

    /** {@return the key of a column name, column alias or CTE name as printed} */
    protected String columnKey(String name, boolean quoted) {
        return Identifiers.key(columnRule(), name, quoted);
    }

    /** {@return the key of the last part of the name at {@code k}, as a column} */
    protected String columnKey(int k) {
        PrintedSql.Token tok = t.get(k);
        int last = tok.parts().size() - 1;
        return columnKey(tok.parts().get(last), tok.quoted().get(last));
    }

    /** {@return the key of a FROM item's alias as printed} */
    protected String aliasKey(String name, boolean quoted) {
        return Identifiers.key(aliasRule(), name, quoted);
    }

    /** {@return the key of the last part of the name at {@code k}, as an alias} */
    protected String aliasKey(int k) {
        PrintedSql.Token tok = t.get(k);
        int last = tok.parts().size() - 1;
        return aliasKey(tok.parts().get(last), tok.quoted().get(last));
    }

    /** {@return a key's name as printed, without the mark that keeps it apart from lower-case entries} */
    protected static String plain(String key) {
        return key.startsWith(Identifiers.UNMATCHABLE) ? key.substring(1) : key;
    }

    /** {@return the words that end a select list, a FROM list or a clause's expression at depth 0} */
    protected abstract Set<String> clauses();

    /** {@return the words that may follow SELECT before its list} */
    protected abstract Set<String> selectOptions();

    /** {@return the words that join FROM items} */
    protected abstract Set<String> joinWords();

    /**
     * Reads one FROM item at {@link #i}, registering it in {@code s}, and leaves {@link #i} after it.
     *
     * @param s the query block's scope
     * @param ranges where to add expression ranges the item holds (none usually)
     */
    protected abstract void fromItem(Scope s, List<int[]> ranges);

    /**
     * Reads the name at {@code k} in an expression.
     *
     * @param k its index
     * @param to the end of the expression
     * @param s the scope
     * @return the index of the last token it took
     */
    protected abstract int name(int k, int to, Scope s);

    /** {@return the index of the last token a marker at {@code k} took} (only engines that print markers) */
    protected int marker(int k, int to, Scope s) {
        unreadable("the marker <" + t.get(k).text() + ">");
        return k;
    }

    /** {@return the name this engine's text is known by, for findings} */
    protected abstract String source();

    /** Reads the whole statement. */
    protected void statement() {
        int k = 0;
        while (k < t.size() && t.get(k).is("(")) {
            k++;
        }
        if (k >= t.size() || !(word(k, "select") || word(k, "with") || word(k, "values"))) {
            String kind = k < t.size() && t.get(k).kind() == PrintedSql.Kind.NAME ? lower(k) : "?";
            out.writes.add(kind);
            unreadable("a statement of kind " + kind + ", which is not a query");
            return;
        }
        queryExpression(new Scope(null));
        if (i < t.size()) {
            unreadable("text after the statement, from " + describe(i));
        }
    }

    /** {@return the output column names of the first block (lower case, null where unnamed)} */
    protected List<String> queryExpression(Scope outer) {
        return queryExpression(outer, null);
    }

    /**
     * @param outer the enclosing scope
     * @param lazy where a derived table's plain column items are deferred, or null to read them at once
     * @return the output column names of the first block (lower case, null where unnamed)
     */
    protected List<String> queryExpression(Scope outer, Lazy lazy) {
        Scope q = new Scope(outer);
        if (word(i, "with")) {
            i++;
            if (word(i, "recursive")) {
                i++;
            }
            while (true) {
                if (i >= t.size() || t.get(i).kind() != PrintedSql.Kind.NAME || t.get(i).parts().size() != 1) {
                    unreadable("a CTE without a name at " + describe(i));
                    i = t.size();
                    return List.of();
                }
                String name = columnKey(i);
                i++;
                Set<String> columns = new LinkedHashSet<>();
                q.ctes.put(name, columns); // visible in itself: a recursive CTE reads its own rows
                if (at(i, "(")) {
                    int end = close(i);
                    for (int j = i + 1; j < end; j++) {
                        if (t.get(j).kind() == PrintedSql.Kind.NAME) {
                            columns.add(columnKey(j));
                        }
                    }
                    i = end + 1; // the CTE's column list: names, not a call
                }
                if (!word(i, "as") || !at(i + 1, "(")) {
                    unreadable("a CTE without AS ( … ) at " + describe(i));
                    i = t.size();
                    return List.of();
                }
                i += 2;
                List<String> outputs = queryExpression(q);
                if (columns.isEmpty()) {
                    outputs.stream().filter(o -> o != null).forEach(columns::add);
                }
                expect(")");
                if (!at(i, ",")) {
                    break;
                }
                i++;
            }
        }
        List<String> outputs = queryTerm(q, lazy);
        while (i < t.size() && (word(i, "union") || word(i, "except") || word(i, "intersect") || word(i, "minus"))) {
            if (lazy != null) {
                lazy.all(); // a set operation compares whole rows
            }
            i++;
            if (word(i, "all") || word(i, "distinct")) {
                i++;
            }
            queryTerm(q, null);
        }
        // ORDER BY after a set operation or a parenthesised query names the result's columns (the first
        // block's output names), which read nothing the blocks did not: (SELECT a …) UNION (…) ORDER BY `a`
        Scope result = new Scope(q);
        outputs.stream().filter(o -> o != null).forEach(result.selectAliases::add);
        tail(result);
        return outputs;
    }

    /** ORDER BY, LIMIT, OFFSET and FETCH after a set operation or a parenthesised query. */
    private void tail(Scope s) {
        while (i < t.size()) {
            int start;
            if (word(i, "order") && word(i + 1, "by")) {
                start = i + 2;
            } else if (word(i, "limit") || word(i, "offset") || word(i, "fetch")) {
                start = i + 1;
            } else {
                return;
            }
            int end = clauseEnd(start);
            expression(start, end, s);
            i = end;
        }
    }

    private List<String> queryTerm(Scope s, Lazy lazy) {
        if (at(i, "(")) {
            i++;
            List<String> outputs = queryExpression(s, lazy);
            expect(")");
            return outputs;
        }
        if (word(i, "select")) {
            return select(s, lazy);
        }
        if (word(i, "values")) {
            i++;
            int end = clauseEnd(i);
            expression(i, end, s);
            i = end;
            return List.of();
        }
        unreadable("a query term at " + describe(i));
        i = t.size();
        return List.of();
    }

    private List<String> select(Scope outer, Lazy lazy) {
        i++; // select
        Scope s = new Scope(outer);
        List<int[]> ranges = new ArrayList<>();
        boolean plain = true;
        while (i < t.size() && isPlainWord(i) && selectOptions().contains(lower(i))) {
            plain &= word(i, "all");
            if (word(i, "top") || word(i, "on")) {
                // H2's TOP n, DISTINCT ON (…): an expression follows
                int end = at(i + 1, "(") ? close(i + 1) + 1 : i + 2;
                ranges.add(new int[] {i + 1, end});
                i = end;
                continue;
            }
            i++;
        }
        int listStart = i;
        int listEnd = clauseEnd(i);
        List<String> outputs = outputs(listStart, listEnd);
        for (int k = listStart; k + 1 < listEnd; k++) {
            if (word(k, "as") && t.get(k + 1).kind() == PrintedSql.Kind.NAME && t.get(k + 1).allQuoted()) {
                s.selectAliases.add(columnKey(k + 1));
            }
        }
        i = listEnd;
        if (word(i, "from")) {
            i++;
            fromList(s, ranges);
        }
        while (i < t.size()) {
            if (word(i, "where")) {
                i++;
            } else if (word(i, "having") || word(i, "qualify")) {
                plain = false;
                i++;
            } else if ((word(i, "group") || word(i, "order")) && word(i + 1, "by")) {
                plain = false; // an ORDER BY may name a select item by alias or position
                i += 2;
            } else if (word(i, "window")) {
                plain = false;
                i++;
            } else if (word(i, "limit") || word(i, "offset") || word(i, "fetch")) {
                i++;
            } else if (word(i, "for") && (word(i + 1, "update") || word(i + 1, "share"))) {
                out.writes.add("for " + lower(i + 1));
                i = clauseEnd(i + 2);
                continue;
            } else if (word(i, "lock") && word(i + 1, "in")) {
                out.writes.add("lock in share mode");
                i = clauseEnd(i + 2);
                continue;
            } else if (word(i, "into")) {
                out.writes.add("into");
                unreadable("SELECT … INTO");
                i = clauseEnd(i + 1);
                continue;
            } else {
                break;
            }
            int end = clauseEnd(i);
            ranges.add(new int[] {i, end});
            i = end;
        }
        int resume = i;
        items(listStart, listEnd, outputs, plain ? lazy : null, s, ranges);
        for (int[] r : ranges) {
            expression(r[0], r[1], s);
        }
        i = resume;
        return outputs;
    }

    /**
     * Splits a select list into its items: a bare column item of a plain block is deferred to {@code lazy}
     * (read once the query around uses it), any other is added to {@code ranges}.
     */
    private void items(int from, int to, List<String> outputs, Lazy lazy, Scope s, List<int[]> ranges) {
        if (lazy == null) {
            ranges.add(new int[] {from, to});
            return;
        }
        int start = from;
        int depth = 0;
        int item = 0;
        for (int k = from; k <= to; k++) {
            if (k < to && t.get(k).is("(")) {
                depth++;
            } else if (k < to && t.get(k).is(")")) {
                depth--;
            } else if (k == to || depth == 0 && t.get(k).is(",")) {
                String name = item < outputs.size() ? outputs.get(item) : null;
                boolean column = t.get(start).kind() == PrintedSql.Kind.NAME && !at(start + 1, "(")
                        && (k - start == 1 || k - start == 3 && word(start + 1, "as"));
                if (name != null && column) {
                    int at = start;
                    lazy.defer(name, () -> expression(at, at + 1, s));
                } else {
                    ranges.add(new int[] {start, k});
                }
                start = k + 1;
                item++;
            }
        }
    }

    /** The names of a select list's items: an alias after AS, a column's last part, else null. */
    private List<String> outputs(int from, int to) {
        List<String> names = new ArrayList<>();
        int start = from;
        int depth = 0;
        for (int k = from; k <= to; k++) {
            if (k < to && t.get(k).is("(")) {
                depth++;
            } else if (k < to && t.get(k).is(")")) {
                depth--;
            } else if (k == to || depth == 0 && t.get(k).is(",")) {
                String name = null;
                if (k - start >= 2 && word(k - 2, "as") && t.get(k - 1).kind() == PrintedSql.Kind.NAME) {
                    name = columnKey(k - 1);
                } else if (k - start == 1 && t.get(start).kind() == PrintedSql.Kind.NAME) {
                    name = columnKey(start);
                }
                names.add(name);
                start = k + 1;
            }
        }
        return names;
    }

    protected void fromList(Scope s, List<int[]> ranges) {
        while (i < t.size()) {
            fromItem(s, ranges);
            while (word(i, "on") || word(i, "using")) {
                boolean on = word(i, "on");
                if (!on) {
                    eager(s); // USING names columns of both sides without a qualifier
                }
                i++;
                int end = at(i, "(") && !on ? close(i) + 1 : onEnd(i);
                if (on) {
                    ranges.add(new int[] {i, end});
                }
                i = end;
            }
            if (at(i, ",")) {
                i++;
                continue;
            }
            boolean joined = false;
            while (i < t.size() && isPlainWord(i) && joinWords().contains(lower(i))) {
                joined |= word(i, "join") || word(i, "straight_join");
                if (word(i, "natural")) {
                    eager(s);
                }
                i++;
            }
            if (!joined) {
                return;
            }
        }
    }

    /** Reads every deferred column of the derived tables of {@code s}: a join uses them without naming them. */
    private static void eager(Scope s) {
        s.items.values().forEach(src -> {
            if (src.lazy() != null) {
                src.lazy().all();
            }
        });
    }

    /** {@return where an ON condition ends: at a clause, a join word, a comma at depth 0, or a closing parenthesis} */
    private int onEnd(int k) {
        int depth = 0;
        for (int j = k; j < t.size(); j++) {
            if (t.get(j).is("(")) {
                depth++;
            } else if (t.get(j).is(")")) {
                if (depth == 0) {
                    return j;
                }
                depth--;
            } else if (depth == 0 && (t.get(j).is(",") || isPlainWord(j) && (joinWords().contains(lower(j))
                    && !word(j, "natural") || clauses().contains(lower(j)) && isClause(j) || word(j, "on")))) {
                return j;
            }
        }
        return t.size();
    }

    /**
     * Reads a parenthesised derived table at {@link #i} (its query, alias and column list).
     *
     * @param s the scope it is registered in
     */
    protected void derived(Scope s) {
        i++;
        Lazy lazy = new Lazy();
        List<String> outputs = queryExpression(s, lazy);
        expect(")");
        if (word(i, "as")) {
            i++;
        }
        if (i >= t.size() || t.get(i).kind() != PrintedSql.Kind.NAME || t.get(i).parts().size() != 1) {
            unreadable("a derived table without a name at " + describe(i));
            return;
        }
        String alias = aliasKey(i++);
        Set<String> columns = new LinkedHashSet<>();
        if (at(i, "(")) {
            int end = close(i);
            for (int j = i + 1; j < end; j++) {
                if (t.get(j).kind() == PrintedSql.Kind.NAME) {
                    columns.add(columnKey(j));
                }
            }
            i = end + 1;
            lazy.all(); // renamed columns: read them all
        } else {
            outputs.stream().filter(o -> o != null).forEach(columns::add);
        }
        s.items.put(alias, new Source(null, columns, lazy));
    }

    /** Reads the expression tokens {@code [from, to)} in scope {@code s}. */
    protected void expression(int from, int to, Scope s) {
        for (int k = from; k < to; k++) {
            PrintedSql.Token tok = t.get(k);
            switch (tok.kind()) {
                case STRING, NUMBER, PARAM -> {
                }
                case MARKER -> k = marker(k, to, s);
                case PUNCT -> {
                    if (tok.is("(") && isQueryStart(k + 1)) {
                        int end = close(k);
                        int save = i;
                        i = k + 1;
                        queryExpression(s);
                        if (i != end) {
                            unreadable("a sub-query that does not end where its parenthesis does, at " + describe(i));
                        }
                        i = save;
                        k = end;
                    } else if (tok.is("@")) {
                        unreadable("a user or system variable");
                    } else if ("()[]=<>!+-*/%&|^~,.:".indexOf(tok.text().charAt(0)) < 0) {
                        unreadable("the character '" + tok.text() + "'");
                    }
                }
                case NAME -> k = name(k, to, s);
                default -> unreadable("a token at " + describe(k));
            }
        }
    }

    /** Whether the word at {@code j} is a clause here (not {@code WITHIN GROUP}, a lone {@code FOR} …). */
    protected boolean isClause(int j) {
        return !(word(j, "group") && j > 0 && word(j - 1, "within"))
                && !(word(j, "for") && !(word(j + 1, "update") || word(j + 1, "share")))
                && !(word(j, "order") && !word(j + 1, "by"))
                && !(word(j, "group") && !word(j + 1, "by"))
                && !(word(j, "from") && j > 1 && word(j - 1, "distinct") && (word(j - 2, "is") || word(j - 2, "not")));
    }

    /** {@return the index of the token that ends the expression starting at {@code k}: a clause at depth 0} */
    protected int clauseEnd(int k) {
        int depth = 0;
        for (int j = k; j < t.size(); j++) {
            PrintedSql.Token tok = t.get(j);
            if (tok.is("(")) {
                depth++;
            } else if (tok.is(")")) {
                if (depth == 0) {
                    return j;
                }
                depth--;
            } else if (depth == 0 && isPlainWord(j) && clauses().contains(lower(j)) && isClause(j)) {
                return j;
            }
        }
        return t.size();
    }

    /** {@return the index of the parenthesis closing the one at {@code open}} */
    protected int close(int open) {
        int depth = 0;
        for (int j = open; j < t.size(); j++) {
            if (t.get(j).is("(")) {
                depth++;
            } else if (t.get(j).is(")") && --depth == 0) {
                return j;
            }
        }
        throw new PlanReader.PlanNotUnderstood("an unclosed parenthesis in the " + source());
    }

    protected boolean isQueryStart(int k) {
        int j = k;
        while (at(j, "(")) {
            j++;
        }
        return word(j, "select") || word(j, "with") || word(j, "values");
    }

    protected boolean isPlainWord(int k) {
        return k >= 0 && k < t.size() && t.get(k).kind() == PrintedSql.Kind.NAME && t.get(k).parts().size() == 1
                && !t.get(k).quoted().get(0);
    }

    protected void expect(String punct) {
        if (!at(i, punct)) {
            unreadable("'" + punct + "' expected at " + describe(i));
            i = t.size();
            return;
        }
        i++;
    }

    protected boolean at(int k, String punct) {
        return k >= 0 && k < t.size() && t.get(k).is(punct);
    }

    protected boolean word(int k, String w) {
        return k >= 0 && k < t.size() && t.get(k).isWord(w);
    }

    protected String lower(int k) {
        return t.get(k).text().toLowerCase(Locale.ROOT);
    }

    protected String describe(int k) {
        if (k >= t.size()) {
            return "the end";
        }
        PrintedSql.Token tok = t.get(k);
        return tok.kind() == PrintedSql.Kind.NAME ? "'" + String.join(".", tok.parts()) + "'" : "'" + tok.text() + "'";
    }

    protected void unreadable(String what) {
        out.unreadable(what + " (" + source() + ")");
    }
}
