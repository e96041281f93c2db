package dev.sqlagent.engine.sqlite;

import static dev.sqlagent.engine.InfixOperators.AFTER;
import static dev.sqlagent.engine.InfixOperators.GLOB_MARKER;
import static dev.sqlagent.engine.InfixOperators.NOT_A_CALL;
import static dev.sqlagent.engine.InfixOperators.closing;
import static dev.sqlagent.engine.InfixOperators.endsExpression;
import static dev.sqlagent.engine.InfixOperators.infix;
import static dev.sqlagent.engine.InfixOperators.isName;
import static dev.sqlagent.engine.InfixOperators.operatorPosition;
import static dev.sqlagent.engine.InfixOperators.startsExpression;
import static dev.sqlagent.engine.SqlLexer.punct;
import static dev.sqlagent.engine.SqlLexer.unquoted;
import static dev.sqlagent.engine.SqlLexer.word;

import dev.sqlagent.engine.Respelling;
import dev.sqlagent.engine.SqlLexer;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.Dialect;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * SQLite syntax that JSqlParser does not read, spelled for the parser before parsing and back for SQLite after
 * the guard has printed the tree it checked; exact both ways and checked against a closed grammar, anything
 * outside it refused with its reason, never guessed at.
 *
 * <ul>
 *   <li><b>The full-text operator</b> {@code left MATCH right}: read as {@code left MATCH_ANY right} (a
 *       {@code LikeExpression} to the parser, whose two operands the guard walks like any expression's), printed
 *       back as {@code MATCH}. The grammar: {@code left} is a column name, bare or qualified ({@code t},
 *       {@code n.body}, {@code main.t.body}); {@code right} is a string, a number, a name, a call {@code f(…)} or a
 *       parenthesised expression or subquery {@code (…)}; the token before {@code left} is one after which an
 *       expression starts ({@code WHERE}, {@code AND}, {@code OR}, {@code ON}, {@code HAVING}, {@code WHEN},
 *       {@code THEN}, {@code ELSE}, {@code CASE}, {@code SELECT}, {@code (}, {@code ,}, or {@code NOT} after one of
 *       these), and the token after {@code right} one that ends an expression ({@code AND}, {@code OR},
 *       {@code )}, {@code ,}, {@code THEN}, {@code WHEN}, {@code ELSE}, {@code END}, {@code ORDER},
 *       {@code GROUP}, {@code LIMIT}, {@code HAVING}, {@code WINDOW}, a set operator, or the end). So both
 *       SQLite and the parser read the same two operands whatever their precedences ({@code =}, {@code IS},
 *       {@code BETWEEN} and {@code ||} bind alike or tighter in SQLite and are outside the grammar). {@code NOT
 *       MATCH}, {@code ESCAPE}, an {@code AND} that may close a {@code BETWEEN} before the left operand, and
 *       {@code MATCH} as a name are refused; so is the word {@code match_any}, which the parser would read
 *       as the marker. What the operands may name is the analyser's ({@code AstAnalyzer}): only an FTS5 table
 *       or one of its columns on the left.</li>
 *   <li><b>The pattern operator</b> {@code left [NOT] GLOB right}: read as {@code left [NOT] MATCH_ALL right} (a
 *       {@code LikeExpression} whose operands the guard walks like any), printed back as {@code GLOB}. The same
 *       grammar as {@code MATCH}'s, but the left operand may also be a call {@code f(…)}, a parenthesised
 *       expression, a string or a number, and {@code NOT GLOB} is read. A {@code glob} that is not in operator
 *       position (the function {@code glob(pattern, text)}, a name) is left to the parser. The word
 *       {@code match_all} is refused as a name.</li>
 *   <li><b>SQLite's {@code IS [NOT] expr}</b>, which means {@code IS [NOT] DISTINCT FROM expr}: read as
 *       {@code IS NOT DISTINCT FROM} / {@code IS DISTINCT FROM} (the same operator to SQLite since 3.39, with the
 *       same precedence, so the guard's printing runs as it is), when the operand after {@code IS [NOT]} is not
 *       {@code NULL}, {@code TRUE}, {@code FALSE} or {@code DISTINCT} (those the parser reads itself). Both operands
 *       in {@code GLOB}'s grammar, with the same neighbours; anything else is refused.</li>
 * </ul>
 */
final class SqliteSpelling {

    /** The operator the parser is given in place of {@code MATCH}. */
    static final String MATCH_MARKER = "MATCH_ANY";


    /**
     * The statement as the parser is to read it.
     *
     * @param sql the text for the parser (the original when nothing was respelled)
     * @param matches how many {@code MATCH} operators were respelled
     * @param globs how many {@code GLOB} operators were respelled
     * @param distincts how many {@code IS [NOT] expr} were respelled
     * @param violation a refusal, or null
     */
    record ForParser(String sql, int matches, int globs, int distincts, Violation violation)
            implements Respelling {

        @Override
        public boolean respelled() {
            return matches > 0 || globs > 0 || distincts > 0;
        }
    }

    private SqliteSpelling() {
    }

    /**
     * @param lexed the lexer's reading of the statement on SQLite
     * @return the text for the parser, or a refusal
     */
    static ForParser forParser(SqlLexer.Result lexed) {
        String sql = lexed.sql();
        List<SqlLexer.Tok> toks = lexed.tokens();
        for (SqlLexer.Tok tok : toks) {
            if ((tok.kind() == SqlLexer.Kind.WORD || tok.kind() == SqlLexer.Kind.IDENTIFIER)
                    && (unquoted(tok, sql).equalsIgnoreCase(MATCH_MARKER)
                    || unquoted(tok, sql).equalsIgnoreCase(GLOB_MARKER))) {
                return refuse(sql, tok, "the name " + tok.text(sql) + " is reserved by the guard on SQLite");
            }
        }
        boolean between = false;
        for (SqlLexer.Tok tok : toks) {
            between |= word(sql, tok, "between");
        }
        StringBuilder out = new StringBuilder(sql.length() + 16);
        int copied = 0;
        int matches = 0;
        int globs = 0;
        int distincts = 0;
        for (int t = 0; t < toks.size(); t++) {
            SqlLexer.Tok tok = toks.get(t);
            if (word(sql, tok, "match") && operatorPosition(sql, toks, t)) {
                String problem = operator(sql, toks, t, between);
                if (problem != null) {
                    return refuse(sql, tok, problem);
                }
                out.append(sql, copied, tok.start()).append(MATCH_MARKER);
                copied = tok.end();
                matches++;
            } else if (word(sql, tok, "glob") && operatorPosition(sql, toks, t)) {
                String problem = infix(sql, toks, t, t + 1, between, AFTER, "GLOB");
                if (problem != null) {
                    return refuse(sql, tok, problem);
                }
                out.append(sql, copied, tok.start()).append(GLOB_MARKER);
                copied = tok.end();
                globs++;
            } else if (word(sql, tok, "is") && operatorPosition(sql, toks, t)) {
                boolean not = t + 1 < toks.size() && word(sql, toks.get(t + 1), "not");
                int r = not ? t + 2 : t + 1;
                if (r >= toks.size() || parserReadsAfterIs(sql, toks.get(r))) {
                    continue;
                }
                String problem = infix(sql, toks, t, r, between, AFTER, not ? "IS NOT" : "IS");
                if (problem != null) {
                    return refuse(sql, tok, problem);
                }
                out.append(sql, copied, tok.start()).append(not ? "IS DISTINCT FROM" : "IS NOT DISTINCT FROM");
                copied = toks.get(r - 1).end();
                distincts++;
                t = r - 1;
            }
        }
        if (matches == 0 && globs == 0 && distincts == 0) {
            return new ForParser(sql, 0, 0, 0, null);
        }
        out.append(sql, copied, sql.length());
        return new ForParser(out.toString(), matches, globs, distincts, null);
    }

    /** Whether the operand after {@code IS [NOT]} is one the parser reads itself ({@code NULL}, {@code TRUE} …). */
    private static boolean parserReadsAfterIs(String sql, SqlLexer.Tok tok) {
        return word(sql, tok, "null") || word(sql, tok, "true") || word(sql, tok, "false")
                || word(sql, tok, "distinct") || word(sql, tok, "unknown");
    }

    /**
     * The guard's printing spelled back for SQLite: each {@code MATCH_ANY} becomes {@code MATCH}, and the result
     * must hold exactly as many operators as were respelled, each in the grammar.
     *
     * @param printed the printed statement
     * @param spelled what was respelled for the parser
     * @return the statement SQLite is to run, or null when the printing does not hold exactly what was
     *     respelled (refused by the caller)
     */
    static String forEngine(String printed, ForParser spelled) {
        if (spelled.matches() == 0 && spelled.globs() == 0) {
            return printed; // IS [NOT] DISTINCT FROM is SQLite's own
        }
        SqlLexer.Result r = SqlLexer.lex(printed, Dialect.SQLITE, Integer.MAX_VALUE);
        if (r.violation() != null) {
            return null;
        }
        String sql = r.sql();
        StringBuilder out = new StringBuilder(printed.length());
        int copied = 0;
        int found = 0;
        int globs = 0;
        for (int t = 0; t < r.tokens().size(); t++) {
            SqlLexer.Tok tok = r.tokens().get(t);
            if ((word(sql, tok, "match") || word(sql, tok, "glob")) && operatorPosition(sql, r.tokens(), t)) {
                return null; // an operator the parser's printing made up
            }
            if (word(sql, tok, MATCH_MARKER)) {
                out.append(sql, copied, tok.start()).append("MATCH");
                copied = tok.end();
                found++;
            } else if (word(sql, tok, GLOB_MARKER)) {
                out.append(sql, copied, tok.start()).append("GLOB");
                copied = tok.end();
                globs++;
            }
        }
        if (found != spelled.matches() || globs != spelled.globs()) {
            return null;
        }
        String engine = out.append(sql, copied, sql.length()).toString();
        // the same grammar, read again on what SQLite will run
        SqlLexer.Result again = SqlLexer.lex(engine, Dialect.SQLITE, Integer.MAX_VALUE);
        if (again.violation() != null) {
            return null;
        }
        ForParser check = forParser(again);
        return check.violation() == null && check.matches() == found && check.globs() == globs ? engine : null;
    }

    /** Why the {@code MATCH} at token {@code t} is outside the grammar, or null when it is in it. */
    private static String operator(String sql, List<SqlLexer.Tok> toks, int t, boolean between) {
        if (t > 0 && punct(sql, toks.get(t - 1), '.')) {
            return "MATCH is read only as SQLite's full-text operator, not as a name (quote the name)";
        }
        if (t > 0 && word(sql, toks.get(t - 1), "not")) {
            return "NOT MATCH is not read; write NOT (a MATCH b)";
        }
        // the left operand: name (. name){0,2}, ending just before MATCH
        int k = t - 1;
        if (k < 0 || !isName(toks.get(k))) {
            return "MATCH is read only as column MATCH query, with a column or an FTS5 table's name on its left";
        }
        int names = 1;
        while (k - 2 >= 0 && punct(sql, toks.get(k - 1), '.') && isName(toks.get(k - 2)) && names < 3) {
            k -= 2;
            names++;
        }
        if (k - 1 >= 0 && punct(sql, toks.get(k - 1), '.')) {
            return "the left operand of MATCH is a name of at most three parts";
        }
        if (!startsExpression(sql, toks, k - 1, between)) {
            return "the left operand of MATCH must stand alone: put the MATCH in parentheses, (a MATCH b), after "
                    + "any other operator";
        }
        // the right operand: a string, a number, a name or call, or ( … )
        int r = t + 1;
        if (r >= toks.size()) {
            return "MATCH without a right operand";
        }
        SqlLexer.Tok first = toks.get(r);
        int end;
        if (first.kind() == SqlLexer.Kind.STRING || first.kind() == SqlLexer.Kind.NUMBER) {
            end = r + 1;
        } else if (punct(sql, first, '(')) {
            end = closing(sql, toks, r);
        } else if (isName(first)) {
            end = r + 1;
            int parts = 1;
            while (end + 1 < toks.size() && punct(sql, toks.get(end), '.') && isName(toks.get(end + 1)) && parts < 3) {
                end += 2;
                parts++;
            }
            if (end < toks.size() && punct(sql, toks.get(end), '(')) {
                end = closing(sql, toks, end);
            }
        } else {
            return "the right operand of MATCH is a string, a number, a name, a call or a parenthesised expression";
        }
        if (end < 0) {
            return "unbalanced parentheses after MATCH";
        }
        if (end < toks.size() && !endsExpression(sql, toks.get(end))) {
            return "the right operand of MATCH must stand alone: put it in parentheses, or the MATCH in "
                    + "parentheses, before " + toks.get(end).text(sql);
        }
        return null;
    }

    private static ForParser refuse(String sql, SqlLexer.Tok at, String message) {
        return new ForParser(sql, 0, 0, 0, new Violation(ViolationType.UNSUPPORTED_CONSTRUCT,
                SqlLexer.fragment(sql, at.start()), message));
    }
}
