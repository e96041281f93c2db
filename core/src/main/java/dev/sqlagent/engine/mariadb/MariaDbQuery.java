package dev.sqlagent.engine.mariadb;

import dev.sqlagent.engine.PrintedQuery;
import dev.sqlagent.engine.PrintedSql;
import dev.sqlagent.engine.Reads;
import dev.sqlagent.guard.engine.EngineReading;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads the query MariaDB's optimizer prints back (note 1003 of {@code SHOW WARNINGS} after
 * {@code EXPLAIN EXTENDED}; a view's stored definition has the same form): a real tokenizer, then the
 * structure of the statement (CTEs, query blocks, their FROM items with index hints, derived tables and
 * sub-queries) so that every name resolves in the scope MariaDB resolved it in. In that text every base
 * table is {@code `db`.`table` `alias`}, every column {@code `db`.`alias`.`column`} or
 * {@code `alias`.`column`}, functions are the optimizer's lower-case names, keywords lower case, and its
 * own wrappers ({@code <cache>}, {@code <in_optimizer>}, …) are in angle brackets.
 *
 * <p>Closed world: a word that is neither a keyword of that printed form, a function call, a literal's
 * prefix, a type, a unit, a charset or a collation in its place, nor a name that resolves, is recorded as
 * unreadable; so is a user or system variable, a marker it does not know, and a statement that is not a
 * query (which is also a write).
 */
final class MariaDbQuery extends PrintedQuery {

    /** Keywords that end an expression or a FROM list of a query block. */
    private static final Set<String> CLAUSES = Set.of("from", "where", "group", "having", "window", "order", "limit",
            "for", "lock", "into", "union", "except", "intersect", "procedure", "offset", "fetch");
    private static final Set<String> SELECT_OPTIONS = Set.of("straight_join", "distinct", "distinctrow", "all",
            "sql_no_cache", "sql_cache", "sql_calc_found_rows", "high_priority", "sql_small_result",
            "sql_big_result", "sql_buffer_result");
    private static final Set<String> JOIN_WORDS = Set.of("join", "left", "right", "inner", "outer", "cross", "natural",
            "semi", "anti", "straight_join", "full");
    /** Words the printed form uses as syntax inside expressions. */
    private static final Set<String> KEYWORDS = Set.of("and", "or", "xor", "not", "is", "null", "true", "false",
            "unknown", "in", "exists", "any", "some", "all", "like", "escape", "between", "case", "when", "then", "else",
            "end", "asc", "desc", "distinct", "over", "partition", "by", "order", "rows", "range", "unbounded",
            "preceding", "following", "current", "row", "div", "mod", "regexp", "rlike", "sounds", "binary", "collate",
            "separator", "within", "group", "as", "with", "rollup", "interval", "default", "from", "for", "both",
            "leading", "trailing", "using", "on", "distinct_key", "where", "exclude", "ties", "others", "no",
            "respect", "ignore", "nulls", "first", "last", "against", "boolean", "mode", "natural", "language",
            "query", "expansion", "dual");
    /** Keywords that may open a parenthesis without being a call. */
    private static final Set<String> KEYWORDS_BEFORE_PAREN = Set.of("in", "exists", "any", "some", "all", "and", "or",
            "xor", "not", "when", "then", "else", "on", "using", "over", "as", "values", "row", "from", "by", "between",
            "like", "is", "case", "where", "distinct", "interval", "binary", "cast", "convert", "against", "escape",
            "separator", "with", "mod", "div");
    private static final Set<String> UNITS = Set.of("microsecond", "second", "minute", "hour", "day", "week", "month",
            "quarter", "year", "second_microsecond", "minute_microsecond", "minute_second", "hour_microsecond",
            "hour_second", "hour_minute", "day_microsecond", "day_second", "day_minute", "day_hour", "year_month");
    private static final Set<String> TYPE_WORDS = Set.of("char", "character", "varchar", "nchar", "binary", "signed",
            "unsigned", "integer", "int", "decimal", "double", "float", "real", "date", "datetime", "time", "timestamp",
            "json", "charset", "set", "precision", "interval", "year", "inet4", "inet6", "uuid", "varbinary", "blob",
            "text", "bigint", "smallint", "tinyint", "numeric", "bit", "bool", "boolean");
    /** Literal prefixes: {@code x'41'}, {@code b'1'}, {@code date'2020-01-01'}. */
    private static final Set<String> LITERAL_PREFIXES = Set.of("x", "b", "n", "date", "time", "timestamp");
    /** The optimizer's wrappers and internal names. */
    private static final Set<String> MARKERS = Set.of("cache", "in_optimizer", "exists", "expr_cache", "not", "nop",
            "max", "min", "materialize", "primary_index_lookup", "index_lookup", "temporary table", "is_not_null_test",
            "ref_null_helper", "left expr", "result", "subquery", "derived", "union", "in predicate",
            "ignored", "trigcond", "select", "exists_subquery");
    /** Words a trace's expanded query may put before a parenthesis as syntax. */
    private static final Set<String> TRACE_SYNTAX = Set.of("select", "index", "key", "recursive", "lateral", "union",
            "except", "intersect", "limit", "having", "order", "group");
    /** Optimizer wrappers printed as calls: not functions of any catalog. */
    private static final Set<String> WRAPPER_CALLS = Set.of("trigcond", "multiple equal");

    private final String currentDb;
    /** Tables an index look-up names by bare name, with nothing to say their database. */
    final List<String> lookupTables = new ArrayList<>();

    private MariaDbQuery(String printed, String currentDb, Reads out) {
        super(PrintedSql.tokensWithMarkers(printed, '`', true), out);
        this.currentDb = currentDb.toLowerCase(Locale.ROOT);
    }

    /**
     * Reads one printed statement into {@code out}.
     *
     * @param printed the optimizer's printed query, or a view's definition
     * @param currentDb the connection's database
     * @param out where the findings go
     * @return the reading, with {@link #aliases} (lower case, to the tables they name) and the
     *     {@link #lookupTables} whose database the caller must find
     */
    static MariaDbQuery read(String printed, String currentDb, Reads out) {
        MariaDbQuery q = new MariaDbQuery(printed, currentDb, out);
        q.statement();
        return q;
    }

    /**
     * Reads an optimizer trace's expanded query (printed before constants were folded, without database
     * names): every {@code alias.column} whose alias the printed query resolved counts as a read of that
     * alias's tables, every call as a function; a variable is unreadable.
     *
     * @param expanded the trace's expanded query
     * @param aliases the printed query's aliases, to their tables
     * @param out where the findings go
     */
    static void readTrace(String expanded, Map<String, Set<EngineReading.Table>> aliases, Reads out) {
        List<PrintedSql.Token> t = PrintedSql.tokensWithMarkers(expanded, '`', true);
        for (int k = 0; k < t.size(); k++) {
            PrintedSql.Token tok = t.get(k);
            if (tok.is("@")) {
                out.unreadable("a user or system variable (MariaDB's optimizer trace)");
            }
            if (tok.kind() != PrintedSql.Kind.NAME) {
                continue;
            }
            List<String> p = tok.parts();
            boolean call = k + 1 < t.size() && t.get(k + 1).is("(");
            if (call) {
                String w = tok.text().toLowerCase(Locale.ROOT);
                if (definesColumns(t, k + 1)) {
                    continue; // a CTE's column list: name(a, b) AS (…)
                }
                if (k > 0 && t.get(k - 1).isWord("as") && TYPE_WORDS.contains(w) && onlyNumbers(t, k + 1)) {
                    continue; // a type of CAST with its precision: cast(x as decimal(10,1)), as the printed query reads it
                }
                if (p.size() > 1 || tok.quoted().get(0)) {
                    out.functions.add(String.join(".", p).toLowerCase(Locale.ROOT));
                } else if (!KEYWORDS_BEFORE_PAREN.contains(w) && !WRAPPER_CALLS.contains(w) && !JOIN_WORDS.contains(w)
                        && !TRACE_SYNTAX.contains(w) && !(w.equals("group") && k > 0 && t.get(k - 1).isWord("within"))) {
                    out.functions.add(w);
                }
            } else if (p.size() >= 2) {
                for (EngineReading.Table table : aliases.getOrDefault(p.get(p.size() - 2).toLowerCase(Locale.ROOT),
                        Set.of())) {
                    out.columns.add(new EngineReading.ColumnRead(table, p.get(p.size() - 1)));
                }
            }
        }
    }

    /** Whether the parenthesis at {@code open} holds numbers and commas only (a type's length or precision). */
    private static boolean onlyNumbers(List<PrintedSql.Token> t, int open) {
        for (int j = open + 1; j < t.size(); j++) {
            if (t.get(j).is(")")) {
                return j > open + 1;
            }
            if (t.get(j).kind() != PrintedSql.Kind.NUMBER && !t.get(j).is(",")) {
                return false;
            }
        }
        return false;
    }

    /** Whether the parenthesis at {@code open} lists a CTE's columns: its closing one is followed by AS (. */
    private static boolean definesColumns(List<PrintedSql.Token> t, int open) {
        int depth = 0;
        for (int j = open; j < t.size(); j++) {
            if (t.get(j).is("(")) {
                depth++;
            } else if (t.get(j).is(")") && --depth == 0) {
                return j + 2 < t.size() && t.get(j + 1).isWord("as") && t.get(j + 2).is("(");
            }
        }
        return false;
    }

    @Override
    protected Set<String> clauses() {
        return CLAUSES;
    }

    @Override
    protected Set<String> selectOptions() {
        return SELECT_OPTIONS;
    }

    @Override
    protected Set<String> joinWords() {
        return JOIN_WORDS;
    }

    @Override
    protected String source() {
        return "MariaDB's printed query";
    }

    /**
     * Table aliases compare exactly: the printed query names each column's FROM item by the alias that item
     * declares, whatever case the statement wrote it in, so exact comparison finds the item MariaDB chose
     * under any {@code lower_case_table_names} ({@code E} and {@code e} are two items where it is 0).
     */
    @Override
    protected dev.sqlagent.internal.Identifiers.Rule aliasRule() {
        return dev.sqlagent.internal.Identifiers.Rule.EXACT;
    }

    @Override
    protected void fromItem(Scope s, List<int[]> ranges) {
        if (i < t.size() && t.get(i).kind() == PrintedSql.Kind.MARKER && lower(i).equals("materialize")
                && at(i + 1, "(") && isQueryStart(i + 2)) {
            // a semi-join's materialised sub-query: its columns are named <subqueryN>.column outside it
            i += 2;
            queryExpression(s);
            expect(")");
            return;
        }
        if (at(i, "(")) {
            // `((select …) `alias`)`: a parenthesised FROM list holding a derived table (a semi join's inner
            // side around a row filter's materialised derived table), not a derived table in two parentheses
            boolean listOfDerived = at(i + 1, "(") && isQueryStart(i + 2) && quotedName(close(i + 1) + 1);
            if (isQueryStart(i + 1) && !listOfDerived) {
                derived(s);
                return;
            }
            i++;
            fromList(s, ranges);
            expect(")");
            return;
        }
        if (i >= t.size() || t.get(i).kind() != PrintedSql.Kind.NAME || at(i + 1, "(")) {
            unreadable("a FROM item at " + describe(i));
            i = clauseEnd(i);
            return;
        }
        PrintedSql.Token name = t.get(i++);
        String alias;
        if (name.parts().size() == 2 && name.allQuoted()) {
            String db = name.parts().get(0).toLowerCase(Locale.ROOT);
            EngineReading.Table table = new EngineReading.Table(db, name.parts().get(1), db.equals(currentDb));
            out.tables.add(table);
            alias = quotedName(i) ? t.get(i++).text() : name.parts().get(1);
            s.items.put(aliasKey(alias, true), new Source(table, Set.of()));
            aliases.computeIfAbsent(alias.toLowerCase(Locale.ROOT), x -> new LinkedHashSet<>()).add(table);
        } else if (name.parts().size() == 1 && s.cte(columnKey(name.text(), true)) != null) {
            Set<String> columns = s.cte(columnKey(name.text(), true));
            alias = quotedName(i) ? t.get(i++).text() : name.text();
            s.items.put(aliasKey(alias, true), new Source(null, columns));
        } else {
            unreadable("the table " + String.join(".", name.parts()) + ", which names no database and no CTE");
            return;
        }
        // index hints: USE|FORCE|IGNORE INDEX|KEY [FOR JOIN|ORDER BY|GROUP BY] (names)
        while (word(i, "use") || word(i, "force") || word(i, "ignore")) {
            i++;
            if (!(word(i, "index") || word(i, "key"))) {
                unreadable("an index hint at " + describe(i));
                return;
            }
            i++;
            if (word(i, "for")) {
                i += word(i + 1, "join") ? 2 : 3;
            }
            if (!at(i, "(")) {
                unreadable("an index hint without a list at " + describe(i));
                return;
            }
            i = close(i) + 1;
        }
    }

    @Override
    protected int marker(int k, int to, Scope s) {
        String m = t.get(k).text().toLowerCase(Locale.ROOT);
        String base = m.replaceAll("[0-9,]+$", "");
        if (!MARKERS.contains(base)) {
            unreadable("the optimizer's marker <" + m + ">");
            return k;
        }
        if (m.equals("expr_cache") && at(k + 1, "<")) {
            int j = k + 2;
            while (j < to && !at(j, ">")) {
                j++;
            }
            expression(k + 2, j, s); // the cache's key: columns of the outer row
            return j;
        }
        if ((m.equals("primary_index_lookup") || m.equals("index_lookup")) && at(k + 1, "(")) {
            return lookup(k + 1, s);
        }
        return k;
    }

    /**
     * An IN sub-query turned into an index look-up: {@code (value in TABLE on INDEX [where condition])}. The
     * table is printed by bare name; its alias and database come from the condition's qualified columns, or,
     * when it has none, from the one database that has a table of that name.
     *
     * @return the index of the closing parenthesis
     */
    private int lookup(int open, Scope s) {
        int end = close(open);
        int in = -1;
        for (int j = open + 1, depth = 0; j < end; j++) {
            if (at(j, "(")) {
                depth++;
            } else if (at(j, ")")) {
                depth--;
            } else if (depth == 0 && word(j, "in")) {
                in = j;
                break;
            }
        }
        if (in < 0 || in + 3 > end || !word(in + 2, "on")) {
            unreadable("an index look-up in a shape not known");
            return end;
        }
        expression(open + 1, in, s);
        PrintedSql.Token table = t.get(in + 1);
        int rest = in + 4; // after: in TABLE on INDEX
        Scope inner = new Scope(s);
        if (table.kind() == PrintedSql.Kind.NAME && table.parts().size() == 1) {
            String name = table.text();
            Set<String> qualifiers = new LinkedHashSet<>();
            for (int j = rest; j < end; j++) {
                PrintedSql.Token tok = t.get(j);
                if (tok.kind() == PrintedSql.Kind.NAME && tok.allQuoted() && tok.parts().size() == 3
                        && s.find(aliasKey(tok.parts().get(1), true)) == null) {
                    qualifiers.add(tok.parts().get(0).toLowerCase(Locale.ROOT) + "\u0000" + tok.parts().get(1));
                }
            }
            if (qualifiers.size() == 1) {
                String[] q = qualifiers.iterator().next().split("\u0000");
                EngineReading.Table tbl = new EngineReading.Table(q[0], name, q[0].equals(currentDb));
                out.tables.add(tbl);
                inner.items.put(aliasKey(q[1], true), new Source(tbl, Set.of()));
                aliases.computeIfAbsent(q[1].toLowerCase(Locale.ROOT), x -> new LinkedHashSet<>()).add(tbl);
            } else if (qualifiers.isEmpty()) {
                lookupTables.add(name);
            } else {
                unreadable("an index look-up of " + name + " under several names");
            }
        } else if (table.kind() != PrintedSql.Kind.MARKER || !table.text().equalsIgnoreCase("temporary table")) {
            unreadable("an index look-up of " + describe(in + 1));
        }
        expression(rest, end, inner);
        return end;
    }

    @Override
    protected int name(int k, int to, Scope s) {
        PrintedSql.Token tok = t.get(k);
        boolean call = at(k + 1, "(");
        if (tok.allQuoted()) {
            if (call) {
                out.functions.add(String.join(".", tok.parts()).toLowerCase(Locale.ROOT));
                return k;
            }
            if (k > 0 && (word(k - 1, "as") || t.get(k - 1).kind() == PrintedSql.Kind.NAME
                    && t.get(k - 1).parts().size() == 1 && !t.get(k - 1).quoted().get(0)
                    && (lower(k - 1).equals("separator")))) {
                return k; // an alias
            }
            column(tok, s);
            return k;
        }
        if (tok.parts().size() != 1 || tok.quoted().contains(Boolean.TRUE)) {
            unreadable("the name " + String.join(".", tok.parts()));
            return k;
        }
        String w = lower(k);
        if (k > 0 && (word(k - 1, "collate") || word(k - 1, "charset") || word(k - 1, "using") && !call)) {
            return k; // a collation or a character set
        }
        if (w.startsWith("_") && k + 1 < to && t.get(k + 1).kind() == PrintedSql.Kind.STRING) {
            return k; // a character set introducer
        }
        if (LITERAL_PREFIXES.contains(w) && k + 1 < to && t.get(k + 1).kind() == PrintedSql.Kind.STRING) {
            return k;
        }
        if (k > 0 && word(k - 1, "as") && TYPE_WORDS.contains(w)) {
            int j = k + 1;
            while (j < to && (t.get(j).kind() == PrintedSql.Kind.NAME && TYPE_WORDS.contains(lower(j))
                    || at(j, "(") && j + 1 < to && t.get(j + 1).kind() == PrintedSql.Kind.NUMBER)) {
                j = at(j, "(") ? close(j) + 1 : j + 1;
                if (k > 0 && word(j - 1, "charset") && j < to) {
                    j++; // the character set's name
                }
            }
            return j - 1; // a type of CAST
        }
        if (UNITS.contains(w) && !call) {
            return k;
        }
        if (call) {
            if (WRAPPER_CALLS.contains(w)) {
                return k;
            }
            if (w.equals("group") && k > 0 && word(k - 1, "within")) {
                return k;
            }
            if (KEYWORDS_BEFORE_PAREN.contains(w)) {
                return k;
            }
            if (w.equals("extract")) {
                out.functions.add(w);
                return k + 2 < to && t.get(k + 2).kind() == PrintedSql.Kind.NAME && UNITS.contains(lower(k + 2))
                        ? k + 2 : k;
            }
            out.functions.add(w);
            return k;
        }
        if (w.equals("multiple") && word(k + 1, "equal")) {
            return k + 1;
        }
        if (KEYWORDS.contains(w)) {
            return k;
        }
        unreadable("the word " + w);
        return k;
    }

    private void column(PrintedSql.Token tok, Scope s) {
        List<String> p = tok.parts();
        if (p.size() == 1) {
            String n = columnKey(p.get(0), true);
            if (s.isSelectAlias(n)) {
                return; // a select-list alias
            }
            unreadable("the name `" + p.get(0) + "`, which resolves to nothing");
            return;
        }
        if (p.size() > 3) {
            unreadable("the name " + String.join(".", p));
            return;
        }
        String alias = p.get(p.size() - 2);
        if (alias.startsWith("<subquery") || alias.startsWith("<derived")) {
            return; // a materialised sub-query's column: read inside it
        }
        Source src = p.size() == 3 ? s.findTable(aliasKey(alias, true)) : s.find(aliasKey(alias, true));
        if (src == null) {
            unreadable("the column " + String.join(".", p) + ", whose qualifier names nothing in scope");
            return;
        }
        if (src.table() == null) {
            src.touch(columnKey(p.get(p.size() - 1), true)); // read where it is computed
            return;
        }
        if (p.size() == 3 && !p.get(0).equalsIgnoreCase(src.table().schema())) {
            unreadable("the column " + String.join(".", p) + ", whose database is not its table's");
            return;
        }
        out.columns.add(new EngineReading.ColumnRead(src.table(), p.get(p.size() - 1)));
    }

    private boolean quotedName(int k) {
        return k < t.size() && t.get(k).kind() == PrintedSql.Kind.NAME && t.get(k).parts().size() == 1
                && t.get(k).quoted().get(0);
    }
}
