package dev.sqlagent.engine.sqlite;

import static dev.sqlagent.engine.SqlLexer.punct;

import dev.sqlagent.engine.InfixOperators;
import dev.sqlagent.engine.Respelling;
import dev.sqlagent.engine.SqlLexer;
import dev.sqlagent.guard.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * SQLite's chained comparisons {@code 10 < x < 17}, which JSqlParser does not read: SQLite gives {@code <},
 * {@code <=}, {@code >}, {@code >=} one precedence, grouped from the left, so the chain is
 * {@code (10 < x) < 17} (a truth value, 0 or 1, compared with 17), and it is spelled so for the parser: the
 * same query to SQLite, so the guard's printing runs as it is and nothing is spelled back. Read only when every
 * operand is a string, a number, a name of at most three parts, a call or a parenthesised group, the chain
 * stands alone after a token that starts an expression ({@link InfixOperators#startsExpression}) and ends
 * before one that ends it; any other chain is left to the parser, which refuses it.
 */
final class SqliteChains {

    /**
     * @param sql the text for the parser (the original when nothing was respelled)
     * @param respelled whether it was
     * @param violation always null: what does not fit is left to the parser
     */
    record ForParser(String sql, boolean respelled, Violation violation) implements Respelling {
    }

    private SqliteChains() {
    }

    /**
     * @param lexed the lexer's reading of the statement on SQLite
     * @return the text for the parser
     */
    static ForParser forParser(SqlLexer.Result lexed) {
        String sql = lexed.sql();
        List<SqlLexer.Tok> toks = lexed.tokens();
        boolean between = false;
        for (SqlLexer.Tok tok : toks) {
            between |= SqlLexer.word(sql, tok, "between");
        }
        // where each inserted "(" goes (token start), and each ")" (token end)
        List<Integer> opens = new ArrayList<>();
        List<Integer> closes = new ArrayList<>();
        int t = 0;
        while (t < toks.size()) {
            int first = t;
            int end = operandEnd(sql, toks, first);
            if (end < 0 || !InfixOperators.startsExpression(sql, toks, first - 1, between)) {
                t++;
                continue;
            }
            List<Integer> operandEnds = new ArrayList<>();
            int k = end;
            while (true) {
                int width = comparison(sql, toks, k);
                if (width == 0) {
                    break;
                }
                int next = operandEnd(sql, toks, k + width);
                if (next < 0) {
                    operandEnds.clear();
                    break;
                }
                operandEnds.add(k);
                k = next;
            }
            if (operandEnds.size() < 2 || k < toks.size() && !endsExpression(sql, toks.get(k))) {
                t++;
                continue;
            }
            // a < b < c < d: ((a < b) < c) < d
            for (int j = 1; j < operandEnds.size(); j++) {
                opens.add(toks.get(first).start());
                closes.add(toks.get(operandEnds.get(j) - 1).end());
            }
            t = k;
        }
        if (opens.isEmpty()) {
            return new ForParser(sql, false, null);
        }
        StringBuilder out = new StringBuilder(sql.length() + 2 * opens.size());
        for (int i = 0; i < sql.length(); i++) {
            for (int c : closes) {
                if (c == i) {
                    out.append(')');
                }
            }
            for (int o : opens) {
                if (o == i) {
                    out.append('(');
                }
            }
            out.append(sql.charAt(i));
        }
        for (int c : closes) {
            if (c == sql.length()) {
                out.append(')');
            }
        }
        return new ForParser(out.toString(), true, null);
    }

    /** The width in tokens of a comparison {@code <}, {@code <=}, {@code >}, {@code >=} at {@code k}, or 0. */
    private static int comparison(String sql, List<SqlLexer.Tok> toks, int k) {
        if (k >= toks.size() || !(punct(sql, toks.get(k), '<') || punct(sql, toks.get(k), '>'))) {
            return 0;
        }
        SqlLexer.Tok op = toks.get(k);
        SqlLexer.Tok next = k + 1 < toks.size() ? toks.get(k + 1) : null;
        if (next != null && next.start() == op.end()) {
            if (punct(sql, next, '=')) {
                return 2;
            }
            if (next.kind() == SqlLexer.Kind.PUNCT && "<>=!".indexOf(sql.charAt(next.start())) >= 0) {
                return 0; // <>, <<, >>, <=>
            }
        }
        if (k > 0 && toks.get(k - 1).end() == op.start() && toks.get(k - 1).kind() == SqlLexer.Kind.PUNCT
                && "-<>=!".indexOf(sql.charAt(toks.get(k - 1).start())) >= 0) {
            return 0; // ->, ->>, the second half of << or >>
        }
        return 1;
    }

    /** One past the operand starting at {@code r}, or -1 when none of the grammar starts there. */
    private static int operandEnd(String sql, List<SqlLexer.Tok> toks, int r) {
        if (r >= toks.size()) {
            return -1;
        }
        SqlLexer.Tok first = toks.get(r);
        if (first.kind() == SqlLexer.Kind.STRING || first.kind() == SqlLexer.Kind.NUMBER) {
            return r + 1;
        }
        if (punct(sql, first, '(')) {
            return InfixOperators.closing(sql, toks, r);
        }
        if (!InfixOperators.isName(first) || first.kind() == SqlLexer.Kind.WORD
                && (InfixOperators.NOT_A_CALL.contains(first.text(sql).toLowerCase(Locale.ROOT))
                || first.text(sql).equalsIgnoreCase("null") || first.text(sql).equalsIgnoreCase("cast"))) {
            return -1;
        }
        int end = r + 1;
        int parts = 1;
        while (end + 1 < toks.size() && punct(sql, toks.get(end), '.') && InfixOperators.isName(toks.get(end + 1))
                && parts < 3) {
            end += 2;
            parts++;
        }
        if (end < toks.size() && punct(sql, toks.get(end), '(')) {
            end = InfixOperators.closing(sql, toks, end);
        }
        return end;
    }

    private static boolean endsExpression(String sql, SqlLexer.Tok tok) {
        if (punct(sql, tok, ')') || punct(sql, tok, ',') || punct(sql, tok, ';')) {
            return true;
        }
        return tok.kind() == SqlLexer.Kind.WORD && InfixOperators.AFTER.contains(tok.text(sql).toLowerCase(Locale.ROOT));
    }
}
