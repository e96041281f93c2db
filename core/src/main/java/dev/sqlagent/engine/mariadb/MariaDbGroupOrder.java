package dev.sqlagent.engine.mariadb;

import static dev.sqlagent.engine.SqlLexer.punct;
import static dev.sqlagent.engine.SqlLexer.unquoted;
import static dev.sqlagent.engine.SqlLexer.word;

import dev.sqlagent.engine.InfixOperators;
import dev.sqlagent.engine.Respelling;
import dev.sqlagent.engine.SqlLexer;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.guard.ViolationType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * MariaDB's {@code GROUP BY x DESC} (legal in MariaDB 10.11: the groups come out sorted by the grouping keys in
 * those directions), which JSqlParser does not read: spelled for the parser as {@code GROUP BY x ORDER BY x DESC},
 * which MariaDB reads as the same query, so the guard's printing runs as it is and nothing is spelled back. When
 * the block has an {@code ORDER BY} of its own, that order is the result's and the directions are only dropped.
 * Refused, rather than guessed at: {@code WITH ROLLUP} after such a key (the directions sort the super-aggregate
 * rows too), a statement with a set operator (an {@code ORDER BY} there may belong to the whole), and a key that
 * is a bare name also used as an alias (MariaDB resolves a {@code GROUP BY} name to a column first, an
 * {@code ORDER BY} name to an alias first). MySQL 8 refuses the syntax: only MariaDB reads it.
 */
final class MariaDbGroupOrder {

    private static final Set<String> CLAUSE_END = Set.of("having", "order", "limit", "window", "union", "except",
            "intersect", "with", "into", "for", "lock", "procedure", "offset", "fetch");

    private static final Set<String> SET_OPERATORS = Set.of("union", "except", "intersect", "minus");

    /**
     * @param sql the text for the parser (the original when nothing was respelled)
     * @param respelled whether it was
     * @param violation a refusal, or null
     */
    record ForParser(String sql, boolean respelled, Violation violation) implements Respelling {
    }

    private MariaDbGroupOrder() {
    }

    /**
     * @param lexed the lexer's reading of the statement on MariaDB
     * @return the text for the parser, or a refusal
     */
    static ForParser forParser(SqlLexer.Result lexed) {
        String sql = lexed.sql();
        List<SqlLexer.Tok> toks = lexed.tokens();
        StringBuilder out = new StringBuilder(sql.length() + 32);
        int copied = 0;
        boolean respelled = false;
        for (int g = 0; g + 1 < toks.size(); g++) {
            if (!word(sql, toks.get(g), "group") || !word(sql, toks.get(g + 1), "by")) {
                continue;
            }
            // the keys, split at this depth's commas, up to the clause's end
            List<int[]> keys = new ArrayList<>(); // first token, one past the last, direction token or -1
            int depth = 0;
            int start = g + 2;
            int end = start;
            for (; end < toks.size(); end++) {
                SqlLexer.Tok tok = toks.get(end);
                if (punct(sql, tok, '(')) {
                    depth++;
                } else if (punct(sql, tok, ')')) {
                    if (depth == 0) {
                        break;
                    }
                    depth--;
                } else if (depth == 0 && (punct(sql, tok, ';') || tok.kind() == SqlLexer.Kind.WORD
                        && CLAUSE_END.contains(tok.text(sql).toLowerCase(Locale.ROOT)))) {
                    break;
                } else if (depth == 0 && punct(sql, tok, ',')) {
                    keys.add(key(sql, toks, start, end));
                    start = end + 1;
                }
            }
            keys.add(key(sql, toks, start, end));
            if (keys.stream().noneMatch(k -> k[2] >= 0)) {
                continue;
            }
            SqlLexer.Tok directed = toks.get(keys.stream().filter(k -> k[2] >= 0).findFirst().get()[2]);
            if (end < toks.size() && word(sql, toks.get(end), "with")) {
                return refuse(sql, directed, "GROUP BY … ASC|DESC WITH ROLLUP is not read; write ORDER BY");
            }
            for (SqlLexer.Tok tok : toks) {
                if (tok.kind() == SqlLexer.Kind.WORD && SET_OPERATORS.contains(tok.text(sql).toLowerCase(Locale.ROOT))) {
                    return refuse(sql, directed, "GROUP BY … ASC|DESC is read only in a statement without a set "
                            + "operator; write ORDER BY");
                }
            }
            for (int[] k : keys) {
                if (k[1] - k[0] == 1 && isName(toks.get(k[0])) && alias(sql, toks, unquoted(toks.get(k[0]), sql))) {
                    return refuse(sql, directed, "GROUP BY " + toks.get(k[0]).text(sql) + " ASC|DESC names an "
                            + "alias too, which ORDER BY would read first; write ORDER BY");
                }
            }
            // where the order goes: this block's own ORDER BY, or before its LIMIT, its end
            int at = end;
            boolean ordered = false;
            depth = 0;
            for (int k = end; k < toks.size(); k++) {
                SqlLexer.Tok tok = toks.get(k);
                if (punct(sql, tok, '(')) {
                    depth++;
                } else if (punct(sql, tok, ')')) {
                    if (depth == 0) {
                        at = k;
                        break;
                    }
                    depth--;
                } else if (depth == 0 && word(sql, tok, "order")) {
                    ordered = true;
                    break;
                } else if (depth == 0 && (punct(sql, tok, ';') || word(sql, tok, "limit") || word(sql, tok, "offset")
                        || word(sql, tok, "fetch") || word(sql, tok, "for") || word(sql, tok, "into")
                        || word(sql, tok, "lock"))) {
                    at = k;
                    break;
                }
                at = k + 1;
            }
            StringBuilder order = new StringBuilder(" ORDER BY ");
            for (int[] k : keys) {
                if (k[2] >= 0) {
                    out.append(sql, copied, toks.get(k[2]).start());
                    copied = toks.get(k[2]).end();
                }
                if (order.length() > 10) {
                    order.append(", ");
                }
                order.append(sql, toks.get(k[0]).start(), toks.get(k[1] - 1).end());
                if (k[2] >= 0) {
                    order.append(' ').append(toks.get(k[2]).text(sql).toUpperCase(Locale.ROOT));
                }
            }
            if (!ordered) {
                int pos = at < toks.size() ? toks.get(at).start() : sql.length();
                out.append(sql, copied, pos).append(order).append(' ');
                copied = pos;
            }
            respelled = true;
            g = end - 1;
        }
        if (!respelled) {
            return new ForParser(sql, false, null);
        }
        return new ForParser(out.append(sql, copied, sql.length()).toString(), true, null);
    }

    /** A key from token {@code from} to {@code to}: {from, one past its expression, its direction token or -1}. */
    private static int[] key(String sql, List<SqlLexer.Tok> toks, int from, int to) {
        if (to - from >= 2 && (word(sql, toks.get(to - 1), "asc") || word(sql, toks.get(to - 1), "desc"))) {
            return new int[] {from, to - 1, to - 1};
        }
        return new int[] {from, to, -1};
    }

    private static boolean isName(SqlLexer.Tok tok) {
        return tok.kind() == SqlLexer.Kind.WORD || tok.kind() == SqlLexer.Kind.IDENTIFIER;
    }

    /** Whether {@code name} is given as an alias anywhere: after {@code AS}, or right after an operand. */
    private static boolean alias(String sql, List<SqlLexer.Tok> toks, String name) {
        for (int t = 1; t < toks.size(); t++) {
            SqlLexer.Tok tok = toks.get(t);
            if (!isName(tok) || !unquoted(tok, sql).equalsIgnoreCase(name)) {
                continue;
            }
            SqlLexer.Tok prev = toks.get(t - 1);
            if (word(sql, prev, "as") || prev.kind() == SqlLexer.Kind.IDENTIFIER || prev.kind() == SqlLexer.Kind.STRING
                    || prev.kind() == SqlLexer.Kind.NUMBER || punct(sql, prev, ')')
                    || prev.kind() == SqlLexer.Kind.WORD && !InfixOperators.NOT_A_CALL.contains(
                            prev.text(sql).toLowerCase(Locale.ROOT)) && !Set.of("by", "where", "select", "from",
                            "join", "on", "having", "group", "order", "when", "then", "else", "case")
                            .contains(prev.text(sql).toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    private static ForParser refuse(String sql, SqlLexer.Tok at, String message) {
        return new ForParser(sql, false, new Violation(ViolationType.UNSUPPORTED_CONSTRUCT,
                SqlLexer.fragment(sql, at.start()), message));
    }
}
