package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import dev.sqlagent.engine.InfixOperators;
import dev.sqlagent.engine.SqlLexer;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Names that the parser takes for keywords but the databases read as ordinary names ({@code number},
 * {@code uuid}, BIRD's table {@code Match}, PostgreSQL's unreserved {@code day}, {@code double} …): models use
 * them as table, column and alias names, and the parser then fails on valid SQL. When a parse fails, such a
 * name is quoted the way the dialect folds unquoted names, which names the same table or column, and the SQL is
 * parsed again: {@code number} and {@code uuid} wherever they are not called as a function or a type after
 * {@code ::}; any other word only where nothing but a name can stand ({@link #namePosition}): a part of a
 * dotted name, a table after {@code FROM} or {@code JOIN}, its alias, an alias after {@code AS}. The guard
 * checks the quoted statement and prints it, so what runs is what was checked whatever the quoting did.
 */
final class KeywordNames {

    /** Keywords of the parser that no supported engine reserves. */
    static final Set<String> WORDS = Set.of("number", "uuid");

    private KeywordNames() {
    }

    /**
     * @param sql the SQL as lexed
     * @param tokens its tokens
     * @param dialect the dialect
     * @return the SQL with those names quoted, or null if there are none
     */
    static String quote(String sql, List<SqlLexer.Tok> tokens, Dialect dialect) {
        StringBuilder out = null;
        int copied = 0;
        for (int t = 0; t < tokens.size(); t++) {
            SqlLexer.Tok tok = tokens.get(t);
            if (tok.kind() != SqlLexer.Kind.WORD) {
                continue;
            }
            String word = tok.text(sql).toLowerCase(Locale.ROOT);
            SqlLexer.Tok next = t + 1 < tokens.size() ? tokens.get(t + 1) : null;
            if (next != null && next.kind() == SqlLexer.Kind.PUNCT && sql.charAt(next.start()) == '(') {
                continue;
            }
            if (t >= 2 && sql.charAt(tokens.get(t - 1).start()) == ':' && sql.charAt(tokens.get(t - 2).start()) == ':') {
                continue;
            }
            if (!WORDS.contains(word) && !namePosition(sql, tokens, t)) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(sql.length() + 16);
            }
            out.append(sql, copied, tok.start()).append(quoted(tok.text(sql), dialect));
            copied = tok.end();
        }
        if (out == null) {
            return null;
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    /** Tokens that may follow a table, its alias or a column's alias, and are never a name themselves. */
    private static final Set<String> AFTER_NAME = Set.of("where", "on", "using", "join", "inner", "left", "right",
            "full", "cross", "natural", "group", "order", "having", "limit", "union", "except", "intersect",
            "window", "qualify", "from", "offset", "fetch");

    /** Words after {@code FROM} or {@code JOIN}, or after a table there, that are syntax, not a name. */
    private static final Set<String> NOT_A_TABLE = Set.of("lateral", "only", "unnest", "table", "values", "select",
            "with", "as", "rows", "tablesample", "pivot", "unpivot", "sample", "for", "force", "use", "ignore",
            "partition", "straight_join", "outer", "final", "match_recognize", "window", "lock");

    /** Words that may open a join right after a table (DuckDB's POSITIONAL, ASOF, SEMI, ANTI JOIN): never its alias. */
    private static final Set<String> JOIN_MODIFIERS = Set.of("positional", "asof", "semi", "anti", "apply");

    private static final Set<String> CASTS = Set.of("cast", "try_cast", "safe_cast");

    /** Words that are values, never quoted ({@code IS DISTINCT FROM NULL}, {@code FROM current_date}). */
    private static final Set<String> VALUES = Set.of("null", "true", "false", "unknown", "default", "current_date",
            "current_time", "current_timestamp", "localtime", "localtimestamp", "current_user", "session_user",
            "user", "current_role", "current_schema", "current_catalog", "system_user");

    /**
     * Whether only a name can stand at word {@code t}: right after a dot, or right before one that a name
     * follows (a part of a dotted name); a table after {@code FROM} or {@code JOIN}, or its alias, when a
     * token that ends a table reference follows; a name after {@code AS} (outside {@code CAST(… AS type)})
     * that such a token follows.
     */
    static boolean namePosition(String sql, List<SqlLexer.Tok> toks, int t) {
        SqlLexer.Tok prev = t > 0 ? toks.get(t - 1) : null;
        SqlLexer.Tok next = t + 1 < toks.size() ? toks.get(t + 1) : null;
        if (prev != null && SqlLexer.punct(sql, prev, '.')) {
            return t >= 2 && InfixOperators.isName(toks.get(t - 2));
        }
        if (next != null && SqlLexer.punct(sql, next, '.') && t + 2 < toks.size()
                && (InfixOperators.isName(toks.get(t + 2)) || SqlLexer.punct(sql, toks.get(t + 2), '*'))
                && (prev == null || !SqlLexer.punct(sql, prev, '.'))) {
            return true;
        }
        String w = toks.get(t).text(sql).toLowerCase(Locale.ROOT);
        if (prev == null || AFTER_NAME.contains(w) || NOT_A_TABLE.contains(w) || VALUES.contains(w)) {
            return false;
        }
        boolean ends = next == null || SqlLexer.punct(sql, next, ',') || SqlLexer.punct(sql, next, ')')
                || SqlLexer.punct(sql, next, ';') || next.kind() == SqlLexer.Kind.WORD
                && AFTER_NAME.contains(next.text(sql).toLowerCase(Locale.ROOT));
        if (SqlLexer.word(sql, prev, "from") && !(t >= 2 && SqlLexer.word(sql, toks.get(t - 2), "distinct"))
                || SqlLexer.word(sql, prev, "join")) {
            return ends || next.kind() == SqlLexer.Kind.WORD && SqlLexer.word(sql, next, "as")
                    || InfixOperators.isName(next) && !NOT_A_TABLE.contains(next.text(sql).toLowerCase(Locale.ROOT))
                    && !AFTER_NAME.contains(next.text(sql).toLowerCase(Locale.ROOT));
        }
        if (startsOperand(sql, prev) && next != null && (ends || SqlLexer.word(sql, next, "as")
                || next.kind() == SqlLexer.Kind.PUNCT && "=<>!".indexOf(sql.charAt(next.start())) >= 0)) {
            return true; // a bare column: SELECT double FROM …, WHERE integer = 1
        }
        if (!ends) {
            return false;
        }
        if (SqlLexer.word(sql, prev, "as")) {
            int depth = 0;
            for (int k = t - 1; k >= 0; k--) {
                if (SqlLexer.punct(sql, toks.get(k), ')')) {
                    depth++;
                } else if (SqlLexer.punct(sql, toks.get(k), '(')) {
                    if (depth == 0) {
                        return !(k > 0 && toks.get(k - 1).kind() == SqlLexer.Kind.WORD
                                && CASTS.contains(toks.get(k - 1).text(sql).toLowerCase(Locale.ROOT)));
                    }
                    depth--;
                }
            }
            return true;
        }
        // an alias without AS after a table named right after FROM or JOIN
        return t >= 2 && !JOIN_MODIFIERS.contains(w) && InfixOperators.isName(prev)
                && !NOT_A_TABLE.contains(prev.text(sql).toLowerCase(Locale.ROOT))
                && (SqlLexer.word(sql, toks.get(t - 2), "from") || SqlLexer.word(sql, toks.get(t - 2), "join"));
    }

    /** Whether an operand starts right after this token in a select list or a condition. */
    private static boolean startsOperand(String sql, SqlLexer.Tok prev) {
        return SqlLexer.punct(sql, prev, ',') || SqlLexer.word(sql, prev, "select") || SqlLexer.word(sql, prev, "where")
                || SqlLexer.word(sql, prev, "and") || SqlLexer.word(sql, prev, "or") || SqlLexer.word(sql, prev, "on")
                || SqlLexer.word(sql, prev, "by") || SqlLexer.word(sql, prev, "having");
    }

    private static String quoted(String word, Dialect dialect) {
        return Engines.of(dialect).guard().quoteAsBareName(word);
    }
}
