package dev.sqlagent.engine.duckdb;

import static dev.sqlagent.engine.SqlLexer.markerIndex;
import static dev.sqlagent.engine.SqlLexer.punct;
import static dev.sqlagent.engine.SqlLexer.unquoted;
import static dev.sqlagent.engine.SqlLexer.word;

import dev.sqlagent.engine.InfixOperators;
import dev.sqlagent.engine.Respelling;
import dev.sqlagent.engine.SqlLexer;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.Dialect;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * DuckDB syntax that JSqlParser does not read, spelled for the parser before parsing and back for DuckDB
 * after the guard has printed the tree it checked. Each spelling is exact, both ways, and checked against
 * its grammar; anything that does not fit is refused with its reason, never guessed at.
 *
 * <ul>
 *   <li><b>Integer division</b> {@code a // b}: read as {@code a DIV b} (the same precedence, and a node the
 *       guard knows), printed back as {@code //}. A statement that also uses {@code div} as a name is
 *       refused: the two could not be told apart in the printing.</li>
 *   <li><b>Lambdas</b> {@code lambda x, i: body} (DuckDB's only lambda spelling from 2.0 on) as a function's
 *       argument: read as {@code (x, i) -> body}, printed back as {@code lambda x, i: body}. A statement that
 *       also has an arrow {@code ->} of its own (JSON) is refused for the same reason. The guard scopes the
 *       parameters ({@code AstAnalyzer}): inside the body an unqualified name that is a parameter is the
 *       parameter, as DuckDB reads it; a qualified name is still a table's column first.</li>
 *   <li><b>Samples</b> {@code USING SAMPLE …} at the end of a select block: one of DuckDB's two forms,
 *       {@code n [%|PERCENT|ROWS] [(method [, seed])]} and {@code method(n [%|PERCENT|ROWS]) [REPEATABLE
 *       (seed)]}, with {@code method} one of {@code reservoir}, {@code bernoulli}, {@code system}; a
 *       percentage at most 100, a number of rows an integer at most {@link #MAX_SAMPLE_ROWS}. Read as a
 *       marker the parser keeps in the same place ({@code INTO TEMP sqlagent_sample_k}), which the guard
 *       takes off the tree before its analysis and puts back for the printing, where the marker becomes
 *       the sample clause again, character for character. A sample reads nothing more than its block.</li>
 *   <li><b>The pattern operator</b> {@code left [NOT] GLOB right}: read as {@code left [NOT] MATCH_ALL right} (a
 *       {@code LikeExpression} whose operands the guard walks like any), printed back as {@code GLOB}; in the
 *       grammar of SQLite's {@code GLOB} ({@link InfixOperators#infix}), so that DuckDB and the parser group the
 *       same operands. The word {@code match_all} is refused as a name.</li>
 *   <li><b>Open slices</b> {@code x[a:]} are not read yet: refused, with the spelling the parser reads
 *       ({@code x[a:len(x)]}) as the reason.</li>
 *   <li><b>Struct literals</b> <code>{'key': value, …}</code>: the parser reads them; braces are checked here
 *       to open a struct (a key, then a colon), never a JDBC escape.</li>
 * </ul>
 */
final class DuckDbSpelling {

    /** The most rows a {@code USING SAMPLE n ROWS} may ask for (DuckDB reserves room for the sample). */
    static final long MAX_SAMPLE_ROWS = 1_000_000;

    /** The marker's table name, followed by the sample's number. */
    static final String SAMPLE_MARKER = "sqlagent_sample_";


    /** The tokens after which a {@code GLOB}'s right operand ends on DuckDB. */
    private static final Set<String> AFTER;

    static {
        Set<String> after = new java.util.HashSet<>(InfixOperators.AFTER);
        after.add("qualify");
        AFTER = Set.copyOf(after);
    }

    private static final Set<String> SAMPLE_METHODS = Set.of("reservoir", "bernoulli", "system");

    /**
     * The statement as the parser is to read it, and what must be spelled back.
     *
     * @param sql the text for the parser (the original when nothing was respelled)
     * @param samples each sample clause's text, by number (the marker {@code sqlagent_sample_k} is index k)
     * @param lambdas how many lambdas were respelled
     * @param divisions how many {@code //} were respelled
     * @param globs how many {@code GLOB} operators were respelled
     * @param violation a refusal, or null
     */
    record ForParser(String sql, List<String> samples, int lambdas, int divisions, int globs,
                     Violation violation) implements Respelling {

        @Override
        public boolean respelled() {
            return !samples.isEmpty() || lambdas > 0 || divisions > 0 || globs > 0;
        }

        /** @return the markers' folded names */
        Set<String> markers() {
            Set<String> out = new java.util.HashSet<>();
            for (int k = 0; k < samples.size(); k++) {
                out.add(SAMPLE_MARKER + k);
            }
            return out;
        }
    }

    private DuckDbSpelling() {
    }

    /**
     * @param lexed the lexer's reading of the statement on DuckDB
     * @return the text for the parser, or a refusal
     */
    static ForParser forParser(SqlLexer.Result lexed) {
        String sql = lexed.sql();
        List<SqlLexer.Tok> toks = lexed.tokens();
        boolean hasDivName = false;
        boolean hasArrow = false;
        for (int t = 0; t < toks.size(); t++) {
            SqlLexer.Tok tok = toks.get(t);
            if (tok.kind() == SqlLexer.Kind.WORD || tok.kind() == SqlLexer.Kind.IDENTIFIER) {
                String w = unquoted(tok, sql).toLowerCase(Locale.ROOT);
                if (w.startsWith(SAMPLE_MARKER)) {
                    return refuse(sql, ViolationType.UNSUPPORTED_CONSTRUCT, tok,
                            "the name " + tok.text(sql) + " is reserved by the guard");
                }
                hasDivName |= w.equals("div");
                if (w.equals(InfixOperators.GLOB_MARKER.toLowerCase(Locale.ROOT))) {
                    return refuse(sql, ViolationType.UNSUPPORTED_CONSTRUCT, tok,
                            "the name " + tok.text(sql) + " is reserved by the guard on DuckDB");
                }
            }
            if (punct(sql, tok, '-') && t + 1 < toks.size() && punct(sql, toks.get(t + 1), '>')
                    && toks.get(t + 1).start() == tok.end()) {
                hasArrow = true;
            }
            if (punct(sql, tok, '{')) {
                SqlLexer.Tok key = t + 1 < toks.size() ? toks.get(t + 1) : null;
                if (key == null || key.kind() == SqlLexer.Kind.PUNCT || key.kind() == SqlLexer.Kind.NUMBER
                        || !singleColon(sql, toks, t + 2)) {
                    return refuse(sql, ViolationType.SUSPICIOUS_CHARACTER, tok,
                            "braces are allowed only as a struct literal {'key': value, …}");
                }
            }
        }
        boolean between = false;
        for (SqlLexer.Tok tok : toks) {
            between |= word(sql, tok, "between");
        }
        StringBuilder out = new StringBuilder(sql.length() + 16);
        int copied = 0;
        List<String> samples = new ArrayList<>();
        int lambdas = 0;
        int divisions = 0;
        int globs = 0;
        for (int t = 0; t < toks.size(); t++) {
            SqlLexer.Tok tok = toks.get(t);
            if (punct(sql, tok, ':') && t + 1 < toks.size() && punct(sql, toks.get(t + 1), ']')) {
                String problem = openSlice(sql, toks, t);
                return refuse(sql, ViolationType.UNSUPPORTED_CONSTRUCT, tok,
                        problem != null ? problem : "an open slice x[a:] is not read yet; write x[a:len(x)]");
            }
            if (word(sql, tok, "glob") && InfixOperators.operatorPosition(sql, toks, t)) {
                String problem = InfixOperators.infix(sql, toks, t, t + 1, between, AFTER, "GLOB");
                if (problem != null) {
                    return refuse(sql, ViolationType.UNSUPPORTED_CONSTRUCT, tok, problem);
                }
                out.append(sql, copied, tok.start()).append(InfixOperators.GLOB_MARKER);
                copied = tok.end();
                globs++;
                continue;
            }
            if (punct(sql, tok, '/') && t + 1 < toks.size() && punct(sql, toks.get(t + 1), '/')
                    && toks.get(t + 1).start() == tok.end()) {
                if (hasDivName) {
                    return refuse(sql, ViolationType.UNSUPPORTED_CONSTRUCT, tok, "a statement with DuckDB's // "
                            + "cannot also use div as a name (quote or rename it)");
                }
                out.append(sql, copied, tok.start()).append(" DIV ");
                copied = toks.get(t + 1).end();
                divisions++;
                t++;
                continue;
            }
            if (word(sql, tok, "lambda") && t > 0 && (punct(sql, toks.get(t - 1), '(')
                    || punct(sql, toks.get(t - 1), ','))) {
                List<String> params = new ArrayList<>();
                int k = t + 1;
                while (k < toks.size() && (toks.get(k).kind() == SqlLexer.Kind.WORD
                        || toks.get(k).kind() == SqlLexer.Kind.IDENTIFIER)) {
                    params.add(toks.get(k).text(sql));
                    if (k + 1 < toks.size() && punct(sql, toks.get(k + 1), ',')) {
                        k += 2;
                    } else {
                        k++;
                        break;
                    }
                }
                if (params.isEmpty() || !singleColon(sql, toks, k)) {
                    // not a lambda (a column named lambda as an argument): left as it is
                    continue;
                }
                if (hasArrow) {
                    return refuse(sql, ViolationType.UNSUPPORTED_CONSTRUCT, tok, "a statement with a lambda "
                            + "cannot also use the arrow operator -> (use json_extract)");
                }
                out.append(sql, copied, tok.start())
                        .append(params.size() == 1 ? params.get(0) : "(" + String.join(", ", params) + ")")
                        .append(" ->");
                copied = toks.get(k).end();
                lambdas++;
                t = k;
                continue;
            }
            if (word(sql, tok, "using") && t + 1 < toks.size() && word(sql, toks.get(t + 1), "sample")) {
                int[] end = new int[1];
                String bad = sampleEnd(sql, toks, t + 2, end);
                if (bad != null) {
                    return refuse(sql, ViolationType.UNSUPPORTED_CONSTRUCT, tok, "USING SAMPLE: " + bad);
                }
                SqlLexer.Tok first = toks.get(t + 2);
                SqlLexer.Tok last = toks.get(end[0] - 1);
                out.append(sql, copied, tok.start()).append("INTO TEMP ").append(SAMPLE_MARKER)
                        .append(samples.size());
                samples.add(sql.substring(first.start(), last.end()));
                copied = last.end();
                t = end[0] - 1;
            }
        }
        if (samples.isEmpty() && lambdas == 0 && divisions == 0 && globs == 0) {
            return new ForParser(sql, List.of(), 0, 0, 0, null);
        }
        out.append(sql, copied, sql.length());
        return new ForParser(out.toString(), List.copyOf(samples), lambdas, divisions, globs, null);
    }

    /** Why the {@code :} at {@code t}, just before a {@code ]}, is no open slice's, or null when it is one. */
    private static String openSlice(String sql, List<SqlLexer.Tok> toks, int t) {
        if (t > 0 && punct(sql, toks.get(t - 1), ':') && toks.get(t - 1).end() == toks.get(t).start()) {
            return ":: before ] is not read";
        }
        int depth = 0;
        for (int k = t; k >= 0; k--) {
            SqlLexer.Tok tok = toks.get(k);
            if (punct(sql, tok, ']') || punct(sql, tok, ')') || punct(sql, tok, '}')) {
                depth++;
            } else if (punct(sql, tok, '(') || punct(sql, tok, '{')) {
                if (depth == 0) {
                    return "a slice x[a:] must be inside its brackets";
                }
                depth--;
            } else if (punct(sql, tok, '[')) {
                if (depth > 0) {
                    depth--;
                    continue;
                }
                SqlLexer.Tok before = k > 0 ? toks.get(k - 1) : null;
                boolean value = before != null && (isName(before) || punct(sql, before, ')')
                        || punct(sql, before, ']'));
                if (!value || before.kind() == SqlLexer.Kind.WORD && (InfixOperators.AFTER.contains(
                        before.text(sql).toLowerCase(Locale.ROOT)) || InfixOperators.NOT_A_CALL.contains(
                        before.text(sql).toLowerCase(Locale.ROOT)))) {
                    return "an open slice x[a:] is read only on a value (a name, a call, a subscript)";
                }
                return null;
            }
        }
        return "a slice x[a:] must be inside its brackets";
    }

    /**
     * The guard's printing spelled back for DuckDB.
     *
     * @param printed the printed statement
     * @param spelled what was respelled for the parser
     * @return the statement DuckDB is to run, or null when the printing does not hold exactly what was
     *     respelled (refused by the caller)
     */
    static String forEngine(String printed, ForParser spelled) {
        if (!spelled.respelled()) {
            return printed;
        }
        SqlLexer.Result r = SqlLexer.lex(printed, Dialect.DUCKDB, Integer.MAX_VALUE);
        if (r.violation() != null) {
            return null;
        }
        String sql = r.sql();
        List<SqlLexer.Tok> toks = r.tokens();
        StringBuilder out = new StringBuilder(printed.length() + 16);
        int copied = 0;
        int lambdas = 0;
        int divisions = 0;
        int globs = 0;
        boolean[] sampleUsed = new boolean[spelled.samples().size()];
        for (int t = 0; t < toks.size(); t++) {
            SqlLexer.Tok tok = toks.get(t);
            if (word(sql, tok, "glob") && InfixOperators.operatorPosition(sql, toks, t)) {
                return null; // a GLOB the parser's printing made up
            }
            if (word(sql, tok, InfixOperators.GLOB_MARKER)) {
                out.append(sql, copied, tok.start()).append("GLOB");
                copied = tok.end();
                globs++;
            } else if (spelled.divisions() > 0 && word(sql, tok, "div")) {
                out.append(sql, copied, tok.start()).append("//");
                copied = tok.end();
                divisions++;
            } else if (spelled.lambdas() > 0 && punct(sql, tok, '-') && t + 1 < toks.size()
                    && punct(sql, toks.get(t + 1), '>') && toks.get(t + 1).start() == tok.end()) {
                // the parameters just before: a name, or ( name, name … )
                List<String> params = new ArrayList<>();
                int start;
                if (t > 0 && isName(toks.get(t - 1))) {
                    start = t - 1;
                    params.add(toks.get(t - 1).text(sql));
                } else if (t > 0 && punct(sql, toks.get(t - 1), ')')) {
                    int k = t - 2;
                    while (k >= 0 && isName(toks.get(k))) {
                        params.add(0, toks.get(k).text(sql));
                        if (k - 1 >= 0 && punct(sql, toks.get(k - 1), ',')) {
                            k -= 2;
                        } else {
                            k--;
                            break;
                        }
                    }
                    if (k < 0 || !punct(sql, toks.get(k), '(') || params.isEmpty()) {
                        return null;
                    }
                    start = k;
                } else {
                    return null;
                }
                int from = toks.get(start).start();
                if (from < copied) {
                    return null;
                }
                out.append(sql, copied, from).append("lambda ").append(String.join(", ", params)).append(':');
                copied = toks.get(t + 1).end();
                lambdas++;
                t++;
            } else if (!spelled.samples().isEmpty() && word(sql, tok, "into") && t + 2 < toks.size()
                    && word(sql, toks.get(t + 1), "temp")) {
                String name = toks.get(t + 2).text(sql).toLowerCase(Locale.ROOT);
                int k = markerIndex(name, SAMPLE_MARKER);
                if (k < 0 || k >= sampleUsed.length || sampleUsed[k]) {
                    return null;
                }
                sampleUsed[k] = true;
                out.append(sql, copied, tok.start()).append("USING SAMPLE ").append(spelled.samples().get(k));
                copied = toks.get(t + 2).end();
                t += 2;
            }
        }
        for (boolean used : sampleUsed) {
            if (!used) {
                return null;
            }
        }
        if (lambdas != spelled.lambdas() || divisions != spelled.divisions() || globs != spelled.globs()) {
            return null;
        }
        String engine = out.append(sql, copied, sql.length()).toString();
        if (globs > 0) {
            // the same grammar, read again on what DuckDB will run
            SqlLexer.Result again = SqlLexer.lex(engine, Dialect.DUCKDB, Integer.MAX_VALUE);
            if (again.violation() != null) {
                return null;
            }
            ForParser check = forParser(again);
            if (check.violation() != null || check.globs() != globs) {
                return null;
            }
        }
        return engine;
    }

    /**
     * Checks a sample specification starting at token {@code t}; on success puts one past its last token in
     * {@code end[0]} and returns null, else says what is wrong.
     */
    private static String sampleEnd(String sql, List<SqlLexer.Tok> toks, int t, int[] end) {
        if (t >= toks.size()) {
            return "no sample size";
        }
        SqlLexer.Tok first = toks.get(t);
        if (first.kind() == SqlLexer.Kind.WORD) {
            // method(n unit) [REPEATABLE (seed)]
            if (!SAMPLE_METHODS.contains(first.text(sql).toLowerCase(Locale.ROOT))) {
                return "unknown sampling method " + first.text(sql);
            }
            if (t + 1 >= toks.size() || !punct(sql, toks.get(t + 1), '(')) {
                return "expected ( after the method";
            }
            int k = t + 2;
            int[] after = new int[1];
            String bad = size(sql, toks, k, after);
            if (bad != null) {
                return bad;
            }
            k = after[0];
            if (k >= toks.size() || !punct(sql, toks.get(k), ')')) {
                return "expected ) after the size";
            }
            k++;
            if (k < toks.size() && word(sql, toks.get(k), "repeatable")) {
                if (k + 3 >= toks.size() || !punct(sql, toks.get(k + 1), '(')
                        || !seed(sql, toks.get(k + 2)) || !punct(sql, toks.get(k + 3), ')')) {
                    return "expected REPEATABLE (seed) with an integer seed";
                }
                k += 4;
            }
            end[0] = k;
            return null;
        }
        int[] after = new int[1];
        String bad = size(sql, toks, t, after);
        if (bad != null) {
            return bad;
        }
        int k = after[0];
        if (k < toks.size() && punct(sql, toks.get(k), '(')) {
            if (k + 1 >= toks.size() || toks.get(k + 1).kind() != SqlLexer.Kind.WORD
                    || !SAMPLE_METHODS.contains(toks.get(k + 1).text(sql).toLowerCase(Locale.ROOT))) {
                return "expected a sampling method (reservoir, bernoulli, system) in the parentheses";
            }
            k += 2;
            if (k < toks.size() && punct(sql, toks.get(k), ',')) {
                if (k + 1 >= toks.size() || !seed(sql, toks.get(k + 1))) {
                    return "expected an integer seed after the method";
                }
                k += 2;
            }
            if (k >= toks.size() || !punct(sql, toks.get(k), ')')) {
                return "expected ) after the method";
            }
            k++;
        }
        end[0] = k;
        return null;
    }

    /** A size: a number, then %, PERCENT or ROWS (a bare number is rows); bounded. */
    private static String size(String sql, List<SqlLexer.Tok> toks, int t, int[] after) {
        if (t >= toks.size() || toks.get(t).kind() != SqlLexer.Kind.NUMBER) {
            return "expected a sample size";
        }
        String number = toks.get(t).text(sql);
        int k = t + 1;
        boolean percent = false;
        if (k < toks.size() && (punct(sql, toks.get(k), '%') || word(sql, toks.get(k), "percent"))) {
            percent = true;
            k++;
        } else if (k < toks.size() && word(sql, toks.get(k), "rows")) {
            k++;
        }
        if (percent) {
            if (!number.matches("[0-9]{1,3}(\\.[0-9]{0,6})?") || Double.parseDouble(number) > 100) {
                return "a percentage from 0 to 100 is expected, not " + number;
            }
        } else if (!number.matches("[0-9]{1,7}") || Long.parseLong(number) > MAX_SAMPLE_ROWS) {
            return "a number of rows from 0 to " + MAX_SAMPLE_ROWS + " is expected, not " + number;
        }
        after[0] = k;
        return null;
    }

    private static boolean seed(String sql, SqlLexer.Tok tok) {
        return tok.kind() == SqlLexer.Kind.NUMBER && tok.text(sql).matches("[0-9]{1,18}");
    }

    /** Whether token {@code t} is a colon that is neither {@code ::} nor {@code :=}. */
    private static boolean singleColon(String sql, List<SqlLexer.Tok> toks, int t) {
        if (t >= toks.size() || !punct(sql, toks.get(t), ':')) {
            return false;
        }
        if (t + 1 < toks.size() && toks.get(t + 1).start() == toks.get(t).end()) {
            char c = sql.charAt(toks.get(t + 1).start());
            return c != ':' && c != '=';
        }
        return true;
    }

    private static boolean isName(SqlLexer.Tok tok) {
        return tok.kind() == SqlLexer.Kind.WORD || tok.kind() == SqlLexer.Kind.IDENTIFIER;
    }

    private static ForParser refuse(String sql, ViolationType type, SqlLexer.Tok at, String message) {
        return new ForParser(sql, List.of(), 0, 0, 0, new Violation(type, SqlLexer.fragment(sql, at.start()), message));
    }
}
