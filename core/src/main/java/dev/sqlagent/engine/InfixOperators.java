package dev.sqlagent.engine;

import static dev.sqlagent.engine.SqlLexer.punct;
import static dev.sqlagent.engine.SqlLexer.word;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The grammar of an infix operator the parser does not read, shared by the engines' spellings that respell one
 * for it (SQLite's {@code MATCH} and {@code GLOB}, DuckDB's {@code GLOB}, {@code //}): where an operator stands,
 * what its operands may be, and the token helpers both sides use. A respelled operator must stand where this
 * grammar says, so that the printing, spelled back, reads exactly as the engine reads it.
 */
public final class InfixOperators {

    /** The operator the parser is given in place of {@code GLOB}. */
    public static final String GLOB_MARKER = "MATCH_ALL";

    /** Words that are never a function's name before a parenthesised group on an operator's left. */
    public static final Set<String> NOT_A_CALL = Set.of("exists", "in", "not", "and", "or", "is", "between",
            "like", "glob", "match", "regexp", "escape", "then", "when", "else", "on", "having", "by", "select",
            "where", "distinct", "all", "any", "some", "as", "from", "join", "using", "values", "filter", "over",
            "case", "end", "within", "collate", "qualify", "window", "limit", "offset", "set", "returning");

    private static final Set<String> BEFORE = Set.of("where", "and", "or", "on", "having", "when", "then", "else",
            "case", "select");
    public static final Set<String> AFTER = Set.of("and", "or", "then", "when", "else", "end", "order", "group", "as", "from",
            "limit", "having", "window", "union", "intersect", "except");


    /**
     * Whether the word at {@code t} stands where an infix operator does: after the end of an operand (a name, a
     * string, a number, a closing parenthesis), or after {@code NOT} that follows one. Elsewhere it is a name or a
     * function ({@code glob(…)}), left to the parser.
     */
    public static boolean operatorPosition(String sql, List<SqlLexer.Tok> toks, int t) {
        int k = t - 1;
        if (k >= 0 && word(sql, toks.get(k), "not")) {
            k--;
        }
        if (k < 0) {
            return false;
        }
        SqlLexer.Tok before = toks.get(k);
        if (word(sql, before, "end")) {
            return true; // CASE … END ends an operand
        }
        if (punct(sql, before, ')') || before.kind() == SqlLexer.Kind.STRING
                || before.kind() == SqlLexer.Kind.NUMBER || before.kind() == SqlLexer.Kind.IDENTIFIER) {
            return true;
        }
        return before.kind() == SqlLexer.Kind.WORD
                && !BEFORE.contains(before.text(sql).toLowerCase(Locale.ROOT))
                && !NOT_A_CALL.contains(before.text(sql).toLowerCase(Locale.ROOT));
    }

    /**
     * Why the infix operator at {@code t} (its right operand starting at token {@code r}) is outside the grammar,
     * or null when it is in it: its left operand a name of at most three parts, a call, a parenthesised group, a
     * string or a number, standing alone after a token that starts an expression (see {@link #BEFORE}, or
     * {@code NOT} after one); its right operand a string, a number, a name, a call or a parenthesised group,
     * followed by a token in {@code after} or the end. Shared by SQLite's and DuckDB's spellings.
     */
    public static String infix(String sql, List<SqlLexer.Tok> toks, int t, int r, boolean between, Set<String> after,
                        String op) {
        int k = t - 1;
        if (k >= 0 && word(sql, toks.get(k), "not") && !op.startsWith("IS")) {
            k--;
        }
        if (k < 0) {
            return op + " without a left operand";
        }
        SqlLexer.Tok last = toks.get(k);
        int first;
        if (last.kind() == SqlLexer.Kind.STRING || last.kind() == SqlLexer.Kind.NUMBER) {
            first = k;
        } else if (punct(sql, last, ')')) {
            first = opening(sql, toks, k);
            if (first < 0) {
                return "unbalanced parentheses before " + op;
            }
            if (first - 1 >= 0 && toks.get(first - 1).kind() == SqlLexer.Kind.WORD
                    && !BEFORE.contains(toks.get(first - 1).text(sql).toLowerCase(Locale.ROOT))
                    && !NOT_A_CALL.contains(toks.get(first - 1).text(sql).toLowerCase(Locale.ROOT))) {
                first--; // a call f(…)
                if (first - 1 >= 0 && punct(sql, toks.get(first - 1), '.')) {
                    return "the left operand of " + op + " is a name, a call, a parenthesised expression or a literal";
                }
            }
        } else if (isName(last)) {
            first = k;
            int names = 1;
            while (first - 2 >= 0 && punct(sql, toks.get(first - 1), '.') && isName(toks.get(first - 2)) && names < 3) {
                first -= 2;
                names++;
            }
            if (first - 1 >= 0 && punct(sql, toks.get(first - 1), '.')) {
                return "the left operand of " + op + " is a name of at most three parts";
            }
        } else {
            return "the left operand of " + op + " is a name, a call, a parenthesised expression or a literal";
        }
        if (!startsExpression(sql, toks, first - 1, between)) {
            return "the left operand of " + op + " must stand alone: put the " + op + " in parentheses, (a " + op
                    + " b), after any other operator";
        }
        int end = rightEnd(sql, toks, r);
        if (end == -2) {
            return op + " without a right operand";
        }
        if (end == -3) {
            return "the right operand of " + op + " is a string, a number, a name, a call or a parenthesised "
                    + "expression";
        }
        if (end < 0) {
            return "unbalanced parentheses after " + op;
        }
        if (end < toks.size() && !endsExpression(sql, toks.get(end), after)) {
            return "the right operand of " + op + " must stand alone: put it in parentheses, or the " + op
                    + " in parentheses, before " + toks.get(end).text(sql);
        }
        return null;
    }

    /** One past the right operand starting at {@code r}; -2 when there is none, -3 when it is no operand, -1 unbalanced. */
    private static int rightEnd(String sql, List<SqlLexer.Tok> toks, int r) {
        if (r >= toks.size()) {
            return -2;
        }
        SqlLexer.Tok first = toks.get(r);
        if (first.kind() == SqlLexer.Kind.STRING || first.kind() == SqlLexer.Kind.NUMBER) {
            return r + 1;
        }
        if (punct(sql, first, '(')) {
            return closing(sql, toks, r);
        }
        if (!isName(first) || first.kind() == SqlLexer.Kind.WORD
                && NOT_A_CALL.contains(first.text(sql).toLowerCase(Locale.ROOT))) {
            return -3;
        }
        int end = r + 1;
        int parts = 1;
        while (end + 1 < toks.size() && punct(sql, toks.get(end), '.') && isName(toks.get(end + 1)) && parts < 3) {
            end += 2;
            parts++;
        }
        if (end < toks.size() && punct(sql, toks.get(end), '(')) {
            end = closing(sql, toks, end);
        }
        return end;
    }

    /** The parenthesis opening the one closing at {@code close}, or -1. */
    private static int opening(String sql, List<SqlLexer.Tok> toks, int close) {
        int depth = 0;
        for (int k = close; k >= 0; k--) {
            if (punct(sql, toks.get(k), ')')) {
                depth++;
            } else if (punct(sql, toks.get(k), '(')) {
                depth--;
                if (depth == 0) {
                    return k;
                }
            }
        }
        return -1;
    }

    /** Whether an expression starts after token {@code k} (-1: the start of the statement). */
    public static boolean startsExpression(String sql, List<SqlLexer.Tok> toks, int k, boolean between) {
        if (k < 0) {
            return false;
        }
        SqlLexer.Tok tok = toks.get(k);
        if (punct(sql, tok, '(') || punct(sql, tok, ',')) {
            return true;
        }
        if (tok.kind() != SqlLexer.Kind.WORD) {
            return false;
        }
        String w = tok.text(sql).toLowerCase(Locale.ROOT);
        if (w.equals("not")) {
            return startsExpression(sql, toks, k - 1, between);
        }
        if (w.equals("and") && between) {
            // x BETWEEN a AND b MATCH c: SQLite may read (x BETWEEN a AND b) MATCH c
            return false;
        }
        return BEFORE.contains(w);
    }

    /** Whether an operand ends before this token (one of {@link #AFTER}, or a closing punctuation). */
    public static boolean endsExpression(String sql, SqlLexer.Tok tok) {
        return endsExpression(sql, tok, AFTER);
    }

    /** Whether an operand ends before this token (one of {@code after}, or a closing punctuation). */
    public static boolean endsExpression(String sql, SqlLexer.Tok tok, Set<String> after) {
        if (punct(sql, tok, ')') || punct(sql, tok, ',') || punct(sql, tok, ';')) {
            return true;
        }
        return tok.kind() == SqlLexer.Kind.WORD && after.contains(tok.text(sql).toLowerCase(Locale.ROOT));
    }

    /** One past the parenthesis closing the one at {@code open}, or -1. */
    public static int closing(String sql, List<SqlLexer.Tok> toks, int open) {
        int depth = 0;
        for (int k = open; k < toks.size(); k++) {
            if (punct(sql, toks.get(k), '(')) {
                depth++;
            } else if (punct(sql, toks.get(k), ')')) {
                depth--;
                if (depth == 0) {
                    return k + 1;
                }
            }
        }
        return -1;
    }

    /** Whether the token is a name: a word or a quoted identifier. */
    public static boolean isName(SqlLexer.Tok tok) {
        return tok.kind() == SqlLexer.Kind.WORD || tok.kind() == SqlLexer.Kind.IDENTIFIER;
    }


    private InfixOperators() {
    }
}
