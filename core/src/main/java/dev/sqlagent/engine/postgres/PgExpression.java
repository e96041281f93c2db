package dev.sqlagent.engine.postgres;

import dev.sqlagent.engine.PrintedSql;
import dev.sqlagent.engine.Reads;
import dev.sqlagent.guard.engine.EngineReading;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads one expression of a PostgreSQL plan as {@code EXPLAIN (VERBOSE)} prints it (the deparser's fixed
 * style: every column {@code alias.column} through the plan's unique aliases, or bare when the plan has one
 * range table entry; whole rows as {@code alias.*}; functions by name, quoted when their name is a keyword;
 * casts as {@code ::type}; sub-plans as {@code (SubPlan n)}). Every token must be one of: a literal, a
 * parameter, an operator character, a column or whole row of an alias of the plan, a function call, a type
 * after {@code ::}, a collation after {@code COLLATE}, or a word of the deparser's closed vocabulary.
 * Anything else is recorded as unreadable, naming it.
 */
final class PgExpression {

    /** PostgreSQL's system columns: never in a whole row, always named. */
    static final Set<String> SYSTEM_COLUMNS = Set.of("tableoid", "ctid", "xmin", "xmax", "cmin", "cmax");

    /**
     * Words the deparser prints as syntax. A bare word is first tried as a column of the plan's one range
     * table entry (an unreserved keyword can name a column and is then printed bare), then as one of these.
     */
    private static final Set<String> SYNTAX = Set.of("CASE", "WHEN", "THEN", "ELSE", "END", "AND", "OR", "NOT", "IS",
            "NULL", "TRUE", "FALSE", "UNKNOWN", "DISTINCT", "FROM", "IN", "FOR", "BOTH", "LEADING", "TRAILING",
            "PLACING", "ARRAY", "ROW", "ANY", "ALL", "SOME", "EXISTS", "WHERE", "ORDER", "BY", "ASC", "DESC", "USING",
            "NULLS", "FIRST", "LAST", "DEFAULT", "AT", "TIME", "ZONE", "LOCAL", "OVER", "FILTER", "WITHIN", "GROUP",
            "PARTITION", "ROWS", "RANGE", "GROUPS", "BETWEEN", "UNBOUNDED", "PRECEDING", "FOLLOWING", "CURRENT",
            "EXCLUDE", "TIES", "OTHERS", "NO", "SYMMETRIC", "VARIADIC", "AS", "ESCAPE", "LIKE", "ILIKE", "SIMILAR",
            "TO", "NORMALIZED", "NFC", "NFD", "NFKC", "NFKD", "PARTIAL", "FINALIZE", "ON", "ORDINALITY", "WITH");
    /** Keywords that open a parenthesis as syntax, not as a call. */
    private static final Set<String> SYNTAX_BEFORE_PAREN = Set.of("ANY", "ALL", "SOME", "ARRAY", "ROW", "IN",
            "EXISTS", "AND", "OR", "NOT", "WHEN", "THEN", "ELSE", "CASE", "FROM", "FOR", "BY", "WHERE", "DISTINCT",
            "USING", "PLACING", "AS", "ON", "IS", "LIKE", "ILIKE", "SIMILAR", "ESCAPE", "BETWEEN", "GROUP", "TO",
            "VARIADIC", "SYMMETRIC", "AT", "LOCAL");
    /** SQL value functions the deparser prints as keywords, with or without a precision. */
    private static final Set<String> VALUE_FUNCTIONS = Set.of("CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP",
            "LOCALTIME", "LOCALTIMESTAMP", "CURRENT_ROLE", "CURRENT_USER", "USER", "SESSION_USER",
            "CURRENT_CATALOG", "CURRENT_SCHEMA", "SYSTEM_USER");
    /** Words that may follow a type's first word inside the type's name. */
    private static final Set<String> TYPE_WORDS = Set.of("VARYING", "PRECISION", "WITHOUT", "WITH", "TIME", "ZONE",
            "YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "TO");
    private static final String OPERATOR_CHARS = "+-*/%^<>=~!@#&|:";

    /**
     * A range table entry the plan names by an alias.
     *
     * @param alias the plan's (unique) alias
     * @param relation the relation it scans, or null for a sub-query, CTE, function, values or work table
     */
    record Rte(String alias, PostgresReader.Relation relation) {
    }

    /**
     * What the expressions of a plan resolve their names against.
     *
     * @param aliases every alias of the plan
     * @param single the plan's one range table entry when it has exactly one (bare names are its), else null
     */
    record Context(Map<String, Rte> aliases, Rte single) {
    }

    private final Context context;
    private final boolean provenEmpty;
    private final Reads out;
    private final String where;
    private final List<PrintedSql.Token> tokens;
    private boolean subPlan;

    private PgExpression(String text, Context context, boolean provenEmpty, Reads out, String where) {
        this.context = context;
        this.provenEmpty = provenEmpty;
        this.out = out;
        this.where = where;
        this.tokens = PrintedSql.tokens(text, '"', false);
    }

    /**
     * Reads one printed expression into {@code out}.
     *
     * @param text the expression as the plan prints it
     * @param context the plan's aliases
     * @param provenEmpty whether the node is above a {@code Result} the planner proved returns no row: a
     *     relation it pruned is named without being scanned, and no row of it is ever read
     * @param out where columns, system columns, functions and unreadable findings go
     * @param where the plan node and key the text is from, for findings
     * @return whether it refers to a sub-plan, whose comparison PostgreSQL does not print
     */
    static boolean read(String text, Context context, boolean provenEmpty, Reads out, String where) {
        PgExpression e = new PgExpression(text, context, provenEmpty, out, where);
        e.walk();
        return e.subPlan;
    }

    private void walk() {
        for (int k = 0; k < tokens.size(); k++) {
            PrintedSql.Token t = tokens.get(k);
            switch (t.kind()) {
                case STRING, NUMBER, PARAM -> {
                }
                case PUNCT -> {
                    if (t.is("::")) {
                        int from = k + 1;
                        k = skipType(from);
                        out.types.add(typeText(from, k));
                    } else if (!t.is("(") && !t.is(")") && !t.is(",") && !t.is("[") && !t.is("]") && !t.is(".")
                            && OPERATOR_CHARS.indexOf(t.text().charAt(0)) < 0) {
                        unreadable("the character '" + t.text() + "'");
                    }
                }
                case NAME -> k = name(k);
                default -> unreadable("a token " + t);
            }
        }
    }

    /** {@return the index of the last token the name at {@code k} took} */
    private int name(int k) {
        PrintedSql.Token t = tokens.get(k);
        PrintedSql.Token prev = k > 0 ? tokens.get(k - 1) : null;
        boolean call = at(k + 1, "(");
        String word = t.parts().size() == 1 && !t.quoted().get(0) ? t.text().toUpperCase(Locale.ROOT) : null;
        if (prev != null && prev.isWord("COLLATE")) {
            return k; // a collation's name
        }
        if (prev != null && prev.is(".")) {
            return k; // a field of a composite value: (expression).field
        }
        if (at(k + 1, ".") && at(k + 2, "*")) {
            if (t.parts().size() != 1) {
                unreadable("the whole row " + String.join(".", t.parts()) + ".*");
            } else {
                wholeRow(t.text());
            }
            return k + 2;
        }
        if (call) {
            return call(k, word, prev);
        }
        if (t.parts().size() == 2) {
            qualified(t.parts().get(0), t.parts().get(1));
            return k;
        }
        if (t.parts().size() > 2) {
            unreadable("the name " + String.join(".", t.parts()));
            return k;
        }
        if (word != null && (word.equals("E") || word.equals("B") || word.equals("X") || word.equals("N"))
                && k + 1 < tokens.size() && tokens.get(k + 1).kind() == PrintedSql.Kind.STRING) {
            return k; // a string literal's prefix: E'…', B'…'
        }
        if (word != null) {
            if (VALUE_FUNCTIONS.contains(word)) {
                out.functions.add(word.toLowerCase(Locale.ROOT));
                return k;
            }
            if (word.equals("SUBPLAN") && k + 1 < tokens.size() && tokens.get(k + 1).kind() == PrintedSql.Kind.NUMBER) {
                subPlan = true;
                return k + 1;
            }
            if (word.equals("INITPLAN") && k + 1 < tokens.size()
                    && tokens.get(k + 1).kind() == PrintedSql.Kind.NUMBER) {
                return k + 1;
            }
            if (word.equals("HASHED") && k + 1 < tokens.size() && tokens.get(k + 1).isWord("SubPlan")) {
                return k;
            }
            if (word.equals("COLLATION") && k + 1 < tokens.size() && tokens.get(k + 1).isWord("FOR")) {
                out.functions.add("pg_collation_for"); // COLLATION FOR (value)
                return k + 1;
            }
            if (word.equals("NULLS") && k + 1 < tokens.size()
                    && (tokens.get(k + 1).isWord("FIRST") || tokens.get(k + 1).isWord("LAST"))) {
                return k + 1;
            }
        }
        Rte single = context.single();
        if (single != null && single.relation() != null && isColumn(single.relation(), t.text())) {
            column(single, t.text());
            return k;
        }
        if (word != null && SYNTAX.contains(word)) {
            return k;
        }
        if (single != null && single.relation() == null) {
            return k; // a column of the plan's one function, values or sub-query scan
        }
        unreadable("the name " + (t.quoted().get(0) ? '"' + t.text() + '"' : t.text())
                + ", which resolves to no column of the plan");
        return k;
    }

    private int call(int k, String word, PrintedSql.Token prev) {
        PrintedSql.Token t = tokens.get(k);
        if (word == null) {
            out.functions.add(String.join(".", t.parts()).toLowerCase(Locale.ROOT));
            return k;
        }
        if (word.equals("OPERATOR")) {
            unreadable("an operator named with OPERATOR(…)");
            return k;
        }
        if ((word.equals("FILTER") || word.equals("OVER")) && prev != null && prev.is(")")) {
            return k;
        }
        if (word.equals("ZONE") && prev != null && prev.isWord("TIME")) {
            return k;
        }
        if (SYNTAX_BEFORE_PAREN.contains(word)) {
            return k;
        }
        if (word.equals("EXTRACT")) {
            out.functions.add("extract");
            // EXTRACT(field FROM value): the field is a word or a string, not a column
            PrintedSql.Token field = k + 2 < tokens.size() ? tokens.get(k + 2) : null;
            if (field != null && (field.kind() == PrintedSql.Kind.STRING
                    || field.kind() == PrintedSql.Kind.NAME && field.parts().size() == 1)
                    && k + 3 < tokens.size() && tokens.get(k + 3).isWord("FROM")) {
                return k + 2;
            }
            unreadable("EXTRACT in a shape not known");
            return k;
        }
        if (VALUE_FUNCTIONS.contains(word)) {
            out.functions.add(word.toLowerCase(Locale.ROOT));
            return k;
        }
        out.functions.add(word.toLowerCase(Locale.ROOT));
        return k;
    }

    private void qualified(String alias, String name) {
        Rte rte = context.aliases().get(alias);
        if (rte == null && provenEmpty) {
            return; // a relation the planner pruned: never scanned
        }
        if (rte == null) {
            unreadable("the name " + alias + "." + name + ", whose qualifier names nothing in the plan");
        } else if (rte.relation() != null) {
            column(rte, name);
        }
        // a column of a sub-query, CTE, function or values scan: read where that source is planned
    }

    private void wholeRow(String alias) {
        Rte rte = context.aliases().get(alias);
        if (rte == null && provenEmpty) {
            return;
        }
        if (rte == null) {
            unreadable("the whole row " + alias + ".*, whose qualifier names nothing in the plan");
            return;
        }
        if (rte.relation() != null) {
            for (String c : rte.relation().columns()) {
                out.columns.add(new EngineReading.ColumnRead(rte.relation().table(), c));
            }
        }
        // a sub-query's or CTE's whole row: its source's outputs are read where that source is planned
    }

    private static boolean isColumn(PostgresReader.Relation r, String name) {
        return r.columns().contains(name) || SYSTEM_COLUMNS.contains(name);
    }

    private void column(Rte rte, String name) {
        PostgresReader.Relation r = rte.relation();
        if (r.columns().contains(name)) {
            out.columns.add(new EngineReading.ColumnRead(r.table(), name));
            for (String source : r.generatedFrom().getOrDefault(name, List.of())) {
                out.columns.add(new EngineReading.ColumnRead(r.table(), source));
            }
        } else if (SYSTEM_COLUMNS.contains(name)) {
            out.systemColumns.add(new EngineReading.ColumnRead(r.table(), name));
        } else {
            unreadable("the name " + rte.alias() + "." + name + ", which is no column of " + r.table());
        }
    }

    /** Skips a type name: words, a modifier in parentheses, array brackets. {@return its last token's index} */
    private int skipType(int k) {
        int j = k;
        if (j >= tokens.size() || tokens.get(j).kind() != PrintedSql.Kind.NAME) {
            unreadable("a cast to something that is not a type name");
            return k - 1;
        }
        j++;
        while (j < tokens.size()) {
            PrintedSql.Token t = tokens.get(j);
            if (t.kind() == PrintedSql.Kind.NAME && t.parts().size() == 1 && !t.quoted().get(0)
                    && TYPE_WORDS.contains(t.text().toUpperCase(Locale.ROOT))) {
                j++;
            } else if (t.is("(")) {
                j++;
                while (j < tokens.size() && !tokens.get(j).is(")")) {
                    if (tokens.get(j).kind() != PrintedSql.Kind.NUMBER && !tokens.get(j).is(",")) {
                        unreadable("a type modifier that is not a number");
                    }
                    j++;
                }
                j++;
            } else if (t.is("[") && j + 1 < tokens.size() && tokens.get(j + 1).is("]")) {
                j += 2;
            } else {
                break;
            }
        }
        return j - 1;
    }

    /** A cast's type as printed, for the catalog to resolve ({@code pg_catalog.to_regtype}). */
    private String typeText(int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int j = from; j <= to && j < tokens.size(); j++) {
            PrintedSql.Token t = tokens.get(j);
            if (b.length() > 0) {
                b.append(' ');
            }
            if (t.kind() == PrintedSql.Kind.NAME) {
                for (int p = 0; p < t.parts().size(); p++) {
                    String part = t.parts().get(p);
                    b.append(p == 0 ? "" : ".").append(t.quoted().get(p) ? '"' + part.replace("\"", "\"\"") + '"' : part);
                }
            } else {
                b.append(t.text());
            }
        }
        return b.toString();
    }

    private boolean at(int k, String punct) {
        return k < tokens.size() && tokens.get(k).is(punct);
    }

    private void unreadable(String what) {
        out.unreadable(what + " in " + where);
    }
}
