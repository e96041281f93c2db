package dev.sqlagent.engine.h2;

import dev.sqlagent.engine.PrintedQuery;
import dev.sqlagent.engine.PrintedSql;
import dev.sqlagent.engine.Reads;
import dev.sqlagent.guard.engine.EngineReading;
import dev.sqlagent.internal.Identifiers;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads the plan H2's {@code EXPLAIN} prints: the statement as H2 will run it, in H2's own canonical SQL
 * (every base table {@code "SCHEMA"."TABLE" "ALIAS"}, identifiers quoted, keywords and built-in functions
 * upper case and unquoted, the access path in comments, which the tokenizer drops). Its structure is read
 * with {@link PrintedQuery}; a bare column name resolves, by H2's rule, to the FROM items of the nearest
 * query block that has a column of that name (base tables through the catalog, derived tables and CTEs
 * through the column names H2 prints for them).
 *
 * <p>H2 prints every name quoted, as the identity it resolved it to: names compare exactly
 * ({@link Identifiers.Rule#UPPER}, whose keys keep {@code "salary"} apart from {@code SALARY}), or ignoring case
 * where the database sets {@code CASE_INSENSITIVE_IDENTIFIERS}. The catalog's column names are compared as the
 * identities they are.
 *
 * <p>Closed world: a word that is neither a keyword of H2's printed form, a function call, a literal's
 * prefix, a datetime field, a type after {@code AS}, nor a name that resolves, is recorded as unreadable,
 * as is a sequence's {@code NEXT VALUE FOR} (also a write).
 */
final class H2Query extends PrintedQuery {

    /** The catalog the reader resolves names with. */
    interface Catalog {
        /**
         * @param table a table or view
         * @return its columns, exactly as the catalog names them
         * @throws SQLException if the catalog cannot be read
         */
        Set<String> columns(EngineReading.Table table) throws SQLException;

        /**
         * @param table a table or view
         * @return for each generated column (as the catalog names it), the expression it is generated from
         * @throws SQLException if the catalog cannot be read
         */
        Map<String, String> generated(EngineReading.Table table) throws SQLException;

        /**
         * Reads a view's definition into {@code out}, as the view is expanded when the statement runs.
         *
         * @param table a table or view
         * @param out where its findings go
         * @return whether it is a view
         * @throws SQLException if the catalog or the view's plan cannot be read
         */
        boolean view(EngineReading.Table table, Reads out) throws SQLException;
    }

    /** A catalog failure inside the parse, unwrapped by the reader. */
    static final class CatalogFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CatalogFailure(SQLException cause) {
            super(cause);
        }

        @Override
        public synchronized SQLException getCause() {
            return (SQLException) super.getCause();
        }
    }

    private static final Set<String> CLAUSES = Set.of("from", "where", "group", "having", "window", "qualify",
            "order", "offset", "fetch", "limit", "for", "union", "except", "minus", "intersect");
    private static final Set<String> SELECT_OPTIONS = Set.of("distinct", "all", "top", "on");
    private static final Set<String> JOIN_WORDS = Set.of("join", "left", "right", "inner", "outer", "cross",
            "natural", "full");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "not", "is", "null", "true", "false", "unknown",
            "in", "exists", "any", "some", "all", "like", "ilike", "escape", "between", "symmetric", "asymmetric",
            "case", "when", "then", "else", "end", "asc", "desc", "nulls", "first", "last", "distinct", "from", "over",
            "partition", "by", "order", "rows", "range", "groups", "unbounded", "preceding", "following", "current",
            "row", "exclude", "ties", "others", "no", "group", "within", "filter", "where", "as", "interval", "to",
            "for", "regexp", "similar", "array", "leading", "trailing", "both", "on", "value", "of", "format", "json",
            "key", "unique", "with", "without", "time", "zone", "local", "respect", "ignore", "next", "only",
            "percent", "default", "using", "separator", "overflow", "error", "truncate", "count", "date", "timestamp");
    private static final Set<String> KEYWORDS_BEFORE_PAREN = Set.of("in", "exists", "any", "some", "all", "and", "or",
            "not", "when", "then", "else", "on", "over", "as", "values", "row", "from", "by", "between", "like",
            "ilike", "is", "case", "where", "distinct", "array", "cast", "using", "key", "index", "within", "escape",
            "to", "of", "json", "unique", "regexp", "similar", "for", "interval", "with");
    private static final Set<String> VALUE_FUNCTIONS = Set.of("current_date", "current_time", "current_timestamp",
            "localtime", "localtimestamp", "current_user", "session_user", "system_user", "user", "current_schema",
            "current_catalog", "current_role", "current_path");
    private static final Set<String> FIELDS = Set.of("year", "month", "day", "hour", "minute", "second", "millisecond",
            "microsecond", "nanosecond", "quarter", "week", "iso_week", "iso_year", "iso_day_of_week", "dow", "doy",
            "epoch", "timezone_hour", "timezone_minute", "timezone_second", "day_of_week", "day_of_year", "decade",
            "century", "millennium", "isodow", "isoyear", "dayofweek", "dayofyear");
    private static final Set<String> LITERAL_PREFIXES = Set.of("x", "date", "time", "timestamp", "interval", "n", "u&",
            "json");

    private final String currentSchema;
    private final Catalog catalog;
    private final Identifiers.Rule rule;

    private H2Query(String plan, String currentSchema, Catalog catalog, boolean caseInsensitive, Reads out) {
        super(PrintedSql.tokens(plan, '"', false), out);
        this.currentSchema = currentSchema.toLowerCase(Locale.ROOT);
        this.catalog = catalog;
        this.rule = caseInsensitive ? Identifiers.Rule.INSENSITIVE : Identifiers.Rule.UPPER;
    }

    @Override
    protected Identifiers.Rule columnRule() {
        return rule;
    }

    @Override
    protected Identifiers.Rule aliasRule() {
        return rule;
    }

    /**
     * Reads one plan into {@code out}.
     *
     * @param plan H2's plan text
     * @param currentSchema the connection's schema
     * @param catalog the catalog names resolve with
     * @param caseInsensitive whether the database sets {@code CASE_INSENSITIVE_IDENTIFIERS}
     * @param out where the findings go
     * @throws SQLException if the catalog cannot be read
     */
    static void read(String plan, String currentSchema, Catalog catalog, boolean caseInsensitive, Reads out)
            throws SQLException {
        try {
            new H2Query(plan, currentSchema, catalog, caseInsensitive, out).statement();
        } catch (CatalogFailure e) {
            throw e.getCause();
        }
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
        return "H2's plan";
    }

    @Override
    protected void fromItem(Scope s, List<int[]> ranges) {
        if (at(i, "(")) {
            if (isQueryStart(i + 1)) {
                derived(s);
                return;
            }
            i++;
            fromList(s, ranges);
            expect(")");
            return;
        }
        if (i >= t.size() || t.get(i).kind() != PrintedSql.Kind.NAME) {
            unreadable("a FROM item at " + describe(i));
            i = clauseEnd(i);
            return;
        }
        PrintedSql.Token name = t.get(i);
        if (at(i + 1, "(") && isPlainWord(i)) {
            // a table function: SYSTEM_RANGE(…), UNNEST(…), TABLE(…), CSVREAD(…)
            out.functions.add(lower(i));
            int end = close(i + 1);
            ranges.add(new int[] {i + 2, end});
            i = end + 1;
            String alias = aliasKey(name.text(), false);
            if (word(i, "as")) {
                i++;
            }
            if (quotedName(i)) {
                alias = aliasKey(i++);
            }
            if (at(i, "(")) {
                i = close(i) + 1;
            }
            s.items.put(alias, new Source(null, Set.of()));
            return;
        }
        i++;
        if (name.parts().size() == 2 && name.allQuoted()) {
            String schema = name.parts().get(0).toLowerCase(Locale.ROOT);
            EngineReading.Table table = new EngineReading.Table(schema, name.parts().get(1),
                    schema.equals(currentSchema));
            out.tables.add(table);
            String alias = quotedName(i) ? aliasKey(i++) : aliasKey(name.parts().get(1), true);
            s.items.put(alias, new Source(table, Set.of()));
            aliases.computeIfAbsent(plain(alias).toLowerCase(Locale.ROOT), x -> new java.util.LinkedHashSet<>())
                    .add(table);
            try {
                catalog.view(table, out);
            } catch (SQLException e) {
                throw new CatalogFailure(e);
            }
        } else if (name.parts().size() == 1 && name.allQuoted() && s.cte(columnKey(name.text(), true)) != null) {
            Set<String> columns = s.cte(columnKey(name.text(), true));
            String alias = quotedName(i) ? aliasKey(i++) : aliasKey(name.text(), true);
            s.items.put(alias, new Source(null, columns));
        } else {
            unreadable("the table " + String.join(".", name.parts()) + ", which names no schema and no CTE");
            return;
        }
        if (word(i, "use") && word(i + 1, "index") && at(i + 2, "(")) {
            i = close(i + 2) + 1;
        }
    }

    @Override
    protected int name(int k, int to, Scope s) {
        PrintedSql.Token tok = t.get(k);
        List<String> p = tok.parts();
        boolean call = at(k + 1, "(");
        if (!tok.quoted().get(p.size() - 1) && p.size() > 1 && tok.last().equals("_rowid_")) {
            rowid(p.subList(0, p.size() - 1), s);
            return k;
        }
        if (tok.allQuoted()) {
            if (call) {
                out.functions.add(String.join(".", p).toLowerCase(Locale.ROOT));
                return k;
            }
            if (word(k - 1, "as")) {
                return k; // an alias
            }
            column(p, s);
            return k;
        }
        if (p.size() != 1) {
            unreadable("the name " + String.join(".", p));
            return k;
        }
        String w = lower(k);
        if (w.equals("_rowid_")) {
            rowid(List.of(), s);
            return k;
        }
        if (word(k - 1, "as")) {
            return typeEnd(k, to); // CAST(… AS type): H2 prints every alias quoted
        }
        if (LITERAL_PREFIXES.contains(w) && k + 1 < to && t.get(k + 1).kind() == PrintedSql.Kind.STRING) {
            return k;
        }
        if (w.equals("u") && at(k + 1, "&") && k + 2 < to && t.get(k + 2).kind() == PrintedSql.Kind.STRING) {
            return k + 2; // a Unicode string: U&'…'
        }
        if (call) {
            if ((w.equals("filter") || w.equals("over")) && at(k - 1, ")")) {
                return k;
            }
            if (KEYWORDS_BEFORE_PAREN.contains(w) || w.equals("group") && word(k - 1, "within")) {
                return k;
            }
            out.functions.add(w);
            return k;
        }
        if (VALUE_FUNCTIONS.contains(w)) {
            out.functions.add(w);
            return k;
        }
        if (w.equals("next") && word(k + 1, "value") && word(k + 2, "for")) {
            out.writes.add("next value for");
            unreadable("a sequence's NEXT VALUE FOR");
            return k + 2;
        }
        if (FIELDS.contains(w) || KEYWORDS.contains(w)) {
            return k;
        }
        unreadable("the word " + tok.text());
        return k;
    }

    /** {@return the last token of a type after AS: words, a modifier in parentheses, ARRAY[n]} */
    private int typeEnd(int k, int to) {
        int j = k;
        while (j < to) {
            if (isPlainWord(j)) {
                j++;
            } else if (at(j, "(") || at(j, "[")) {
                int depth = 0;
                for (; j < to; j++) {
                    if (at(j, "(") || at(j, "[")) {
                        depth++;
                    } else if ((at(j, ")") || at(j, "]")) && --depth == 0) {
                        break;
                    } else if (t.get(j).kind() != PrintedSql.Kind.NUMBER && !at(j, ",") && !isPlainWord(j)
                            && t.get(j).kind() != PrintedSql.Kind.STRING) {
                        unreadable("a type modifier at " + describe(j));
                    }
                }
                j++;
            } else {
                break;
            }
        }
        return j - 1;
    }

    private void column(List<String> p, Scope s) {
        String col = columnKey(p.get(p.size() - 1), true);
        if (p.size() == 1) {
            bare(col, s);
            return;
        }
        if (p.size() > 3) {
            unreadable("the name " + String.join(".", p));
            return;
        }
        String qualifier = aliasKey(p.get(p.size() - 2), true);
        Source src = p.size() == 3 ? s.findTable(qualifier) : s.find(qualifier);
        if (src == null) {
            unreadable("the column " + String.join(".", p) + ", whose qualifier names nothing in scope");
            return;
        }
        if (src.table() == null) {
            src.touch(col); // a derived table's, CTE's or table function's column: read where it is computed
            return;
        }
        if (p.size() == 3 && !p.get(0).equalsIgnoreCase(src.table().schema())) {
            unreadable("the column " + String.join(".", p) + ", whose schema is not its table's");
            return;
        }
        read(src.table(), col);
    }

    /** A bare column: the FROM items of the nearest query block that has a column of that name. */
    private void bare(String col, Scope s) {
        for (Scope sc = s; sc != null; sc = sc.outer) {
            List<EngineReading.Table> owners = new ArrayList<>();
            boolean derived = false;
            boolean unknown = false;
            for (Source src : sc.items.values()) {
                if (src.table() != null) {
                    if (columnsOf(src.table()).contains(col)) {
                        owners.add(src.table());
                    }
                } else if (src.columns().contains(col)) {
                    derived = true;
                    src.touch(col);
                } else if (src.columns().isEmpty()) {
                    unknown = true;
                }
            }
            if (!owners.isEmpty()) {
                owners.forEach(o -> read(o, col));
                return;
            }
            if (derived) {
                return;
            }
            if (unknown) {
                unreadable("the column \"" + plain(col) + "\" beside a FROM item whose columns are not known");
                return;
            }
            if (sc.selectAliases.contains(col)) {
                return;
            }
        }
        unreadable("the column \"" + plain(col) + "\", which resolves to nothing");
    }

    private void rowid(List<String> qualifier, Scope s) {
        if (qualifier.isEmpty()) {
            for (Scope sc = s; sc != null; sc = sc.outer) {
                List<Source> bases = sc.items.values().stream().filter(x -> x.table() != null).toList();
                if (bases.size() == 1) {
                    out.systemColumns.add(new EngineReading.ColumnRead(bases.get(0).table(), "_rowid_"));
                    return;
                }
                if (!sc.items.isEmpty()) {
                    break;
                }
            }
            unreadable("a bare _ROWID_ whose table is not clear");
            return;
        }
        Source src = s.find(aliasKey(qualifier.get(qualifier.size() - 1), true));
        if (src == null || src.table() == null) {
            unreadable("the _ROWID_ of " + String.join(".", qualifier));
            return;
        }
        out.systemColumns.add(new EngineReading.ColumnRead(src.table(), "_rowid_"));
    }

    /** A read of the column {@code col} (a key) of a base table, and of the columns it is generated from. */
    private void read(EngineReading.Table table, String col) {
        out.columns.add(new EngineReading.ColumnRead(table, plain(col)));
        String expression = null;
        try {
            for (Map.Entry<String, String> g : catalog.generated(table).entrySet()) {
                if (columnKey(g.getKey(), true).equals(col)) {
                    expression = g.getValue();
                }
            }
        } catch (SQLException e) {
            throw new CatalogFailure(e);
        }
        if (expression != null) {
            Set<String> columns = columnsOf(table);
            for (PrintedSql.Token g : PrintedSql.tokens(expression, '"', false)) {
                if (g.kind() != PrintedSql.Kind.NAME) {
                    continue;
                }
                int last = g.parts().size() - 1;
                String k = columnKey(g.parts().get(last), g.quoted().get(last));
                if (columns.contains(k) && !k.equals(col)) {
                    out.columns.add(new EngineReading.ColumnRead(table, plain(k)));
                }
            }
        }
    }

    /** {@return the keys of a base table's columns} */
    private Set<String> columnsOf(EngineReading.Table table) {
        try {
            Set<String> keys = new java.util.HashSet<>();
            for (String c : catalog.columns(table)) {
                keys.add(columnKey(c, true));
            }
            return keys;
        } catch (SQLException e) {
            throw new CatalogFailure(e);
        }
    }

    private boolean quotedName(int k) {
        return k < t.size() && t.get(k).kind() == PrintedSql.Kind.NAME && t.get(k).parts().size() == 1
                && t.get(k).quoted().get(0);
    }
}
