package dev.sqlagent.engine.mariadb;

import static dev.sqlagent.engine.SqlLexer.markerIndex;
import static dev.sqlagent.engine.SqlLexer.punct;
import static dev.sqlagent.engine.SqlLexer.unquoted;
import static dev.sqlagent.engine.SqlLexer.word;

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
 * MySQL and MariaDB syntax that JSqlParser does not read, spelled for the parser before parsing and back for
 * the engine after the guard has printed the tree it checked. Each spelling is exact, both ways, and checked
 * against its grammar; anything that does not fit is left to the parser (which refuses it) or refused with its
 * reason, never guessed at.
 *
 * <ul>
 *   <li><b>Select options</b>: right after {@code SELECT} the engine reads every word of
 *       {@link #SELECT_OPTIONS} as an option, in any order and whatever columns the tables have ({@code SELECT
 *       sql_buffer_result x FROM t} reads {@code x}, never a column {@code sql_buffer_result} aliased {@code x}).
 *       JSqlParser reads some of them ({@code HIGH_PRIORITY}, {@code SQL_BUFFER_RESULT}, {@code SQL_SMALL_RESULT},
 *       {@code SQL_BIG_RESULT}) as a column aliased by the next name, and the others only in one order. A run of
 *       options holding any but {@code DISTINCT}, {@code DISTINCTROW} and {@code ALL} is read as a marker the
 *       parser keeps in the same place ({@code SKIP sqlagent_opts_k}, followed by {@code DISTINCT} when the run
 *       has it), which the guard takes off the tree before its analysis and puts back for the printing, where
 *       the marker becomes the run's options again. None of them changes what the query reads or returns.</li>
 *   <li><b>Index hints for one use</b> {@code USE|IGNORE|FORCE INDEX|KEY FOR JOIN|ORDER BY|GROUP BY (…)}, the
 *       empty list {@code USE INDEX ()} and {@code KEY} for {@code INDEX} (which the parser does not read after
 *       {@code IGNORE}): read as the hint {@code USE|IGNORE|FORCE INDEX} without its {@code FOR} clause, whose list
 *       starts with a marker index name ({@code USE INDEX (sqlagent_hint_k, …)}); the guard takes the marker off
 *       the hint and puts {@code INDEX} or {@code KEY} and the clause back into the hint's own printing. An index name names an index of that table
 *       only: the engine reads no data through it, and refuses a name that is not one of the table's
 *       indexes.</li>
 *   <li><b>{@code CONVERT(expr, type)}</b>: read as {@code CAST(expr AS type)}, which is the same function to the
 *       engine (MySQL's manual: "may also be expressed as CAST(expr AS type), which is equivalent"; MariaDB builds
 *       the same item for both) and printed as {@code CAST}. Only with exactly one comma at the call's own depth
 *       and a type of {@link #CONVERT_TYPES}, optionally with a precision {@code (n)} (for {@code DECIMAL}
 *       {@code (m, d)}), {@code SIGNED} and {@code UNSIGNED} optionally followed by {@code INTEGER}; any other
 *       {@code CONVERT} (with {@code USING}, another type) is left to the parser. Everything between the
 *       parentheses stays where it was, so no operand can be grouped differently.</li>
 * </ul>
 *
 * <p>A statement that uses a name starting with {@link #RESERVED} itself is refused: the markers could not be
 * told apart from it.
 */
public final class MySqlSpelling {

    /** The prefix of the guard's marker names, reserved in every statement on MySQL and MariaDB. */
    public static final String RESERVED = "sqlagent_";

    /** A select option run's marker: the name of a {@code SKIP} the parser reads, followed by the run's number. */
    static final String OPTIONS_MARKER = RESERVED + "opts_";

    /**
     * An index hint's marker: the first index name of the hint, followed by the hint's number; the hint's
     * {@code INDEX} or {@code KEY} and its {@code FOR} clause are recorded under the number.
     */
    static final String HINT_MARKER = RESERVED + "hint_";

    /** The words MariaDB reads as select options right after {@code SELECT} (its {@code select_option}). */
    static final Set<String> SELECT_OPTIONS = Set.of("all", "distinct", "distinctrow", "high_priority",
            "straight_join", "sql_small_result", "sql_big_result", "sql_buffer_result", "sql_calc_found_rows",
            "sql_cache", "sql_no_cache");

    /** The types a two-argument {@code CONVERT} is respelled for, as {@code CAST}. */
    static final Set<String> CONVERT_TYPES = Set.of("decimal", "char", "binary", "signed", "unsigned", "date",
            "datetime", "time", "double");

    /**
     * The statement as the parser is to read it, and what must be spelled back.
     *
     * @param sql the text for the parser (the original when nothing was respelled)
     * @param options each marked option run's options, as the engine is to read them, by number
     * @param hints each marked index hint's {@code INDEX} or {@code KEY} and its {@code FOR} clause, if any, by
     *     number
     * @param converts how many {@code CONVERT(expr, type)} were respelled as {@code CAST(expr AS type)}
     * @param violation a refusal, or null
     */
    record ForParser(String sql, List<String> options, List<String> hints, int converts, Violation violation)
            implements Respelling {

        @Override
        public boolean respelled() {
            return !options.isEmpty() || !hints.isEmpty() || converts > 0;
        }
    }

    private MySqlSpelling() {
    }

    /**
     * @param lexed the lexer's reading of the statement on MySQL or MariaDB
     * @return the text for the parser, or a refusal
     */
    static ForParser forParser(SqlLexer.Result lexed) {
        String sql = lexed.sql();
        List<SqlLexer.Tok> toks = lexed.tokens();
        for (SqlLexer.Tok tok : toks) {
            if ((tok.kind() == SqlLexer.Kind.WORD || tok.kind() == SqlLexer.Kind.IDENTIFIER)
                    && unquoted(tok, sql).toLowerCase(Locale.ROOT).startsWith(RESERVED)) {
                return refuse(sql, tok, "names starting with " + RESERVED + " are reserved by the guard");
            }
        }
        StringBuilder out = new StringBuilder(sql.length() + 16);
        int copied = 0;
        List<String> options = new ArrayList<>();
        List<String> hints = new ArrayList<>();
        int converts = 0;
        Set<Integer> commas = new java.util.HashSet<>();
        for (int t = 0; t < toks.size(); t++) {
            SqlLexer.Tok tok = toks.get(t);
            boolean afterDot = t > 0 && punct(sql, toks.get(t - 1), '.');
            if (word(sql, tok, "convert") && !afterDot && t + 1 < toks.size() && punct(sql, toks.get(t + 1), '(')
                    && toks.get(t + 1).start() == tok.end()) {
                int comma = convertComma(sql, toks, t + 1);
                if (comma > 0) {
                    out.append(sql, copied, tok.start()).append("CAST");
                    copied = tok.end();
                    commas.add(comma);
                    converts++;
                    // the tokens inside are scanned on (a CONVERT or SELECT within)
                    continue;
                }
            }
            if (commas.remove(t)) {
                out.append(sql, copied, tok.start()).append(" AS ");
                copied = tok.end();
                continue;
            }
            if (word(sql, tok, "select") && !afterDot) {
                int k = t + 1;
                List<String> words = new ArrayList<>();
                boolean distinct = false;
                boolean all = false;
                while (k < toks.size() && toks.get(k).kind() == SqlLexer.Kind.WORD
                        && SELECT_OPTIONS.contains(toks.get(k).text(sql).toLowerCase(Locale.ROOT))) {
                    String w = toks.get(k).text(sql).toLowerCase(Locale.ROOT);
                    if (w.equals("distinct") || w.equals("distinctrow")) {
                        distinct = true;
                    } else if (w.equals("all")) {
                        all = true;
                    } else {
                        words.add(w.toUpperCase(Locale.ROOT));
                    }
                    k++;
                }
                if (words.isEmpty()) {
                    // DISTINCT, DISTINCTROW or ALL alone: the parser reads them
                    continue;
                }
                if (distinct && all) {
                    return refuse(sql, tok, "ALL and DISTINCT in one select");
                }
                if (words.contains("SQL_CALC_FOUND_ROWS")) {
                    // it makes the server compute every row past the row cap, to count them
                    return refuse(sql, tok, "SQL_CALC_FOUND_ROWS reads the whole result past the row cap; count "
                            + "with COUNT(*) instead");
                }
                out.append(sql, copied, tok.end()).append(" SKIP ").append(OPTIONS_MARKER).append(options.size())
                        .append(distinct ? " DISTINCT " : " ");
                options.add(String.join(" ", words));
                copied = toks.get(k - 1).end();
                t = k - 1;
                continue;
            }
            if ((word(sql, tok, "use") || word(sql, tok, "ignore") || word(sql, tok, "force")) && !afterDot
                    && t + 2 < toks.size()
                    && (word(sql, toks.get(t + 1), "index") || word(sql, toks.get(t + 1), "key"))) {
                int k = t + 2;
                String purpose = "";
                if (word(sql, toks.get(k), "for")) {
                    if (k + 1 < toks.size() && word(sql, toks.get(k + 1), "join")) {
                        purpose = "FOR JOIN";
                        k += 2;
                    } else if (k + 2 < toks.size() && (word(sql, toks.get(k + 1), "order")
                            || word(sql, toks.get(k + 1), "group")) && word(sql, toks.get(k + 2), "by")) {
                        purpose = "FOR " + toks.get(k + 1).text(sql).toUpperCase(Locale.ROOT) + " BY";
                        k += 3;
                    } else {
                        return refuse(sql, toks.get(k), "an index hint is FOR JOIN, FOR ORDER BY or FOR GROUP BY");
                    }
                }
                if (k >= toks.size() || !punct(sql, toks.get(k), '(')) {
                    // not a hint the grammar has: left to the parser
                    continue;
                }
                boolean empty = k + 1 < toks.size() && punct(sql, toks.get(k + 1), ')');
                boolean key = word(sql, toks.get(t + 1), "key");
                if (purpose.isEmpty() && !empty && !key) {
                    // the parser reads a plain hint itself
                    continue;
                }
                // KEY is INDEX to the engine; the parser reads INDEX after every action
                out.append(sql, copied, tok.end()).append(" INDEX (").append(HINT_MARKER).append(hints.size())
                        .append(empty ? "" : ", ");
                hints.add(((key ? "KEY" : "INDEX") + " " + purpose).trim());
                copied = toks.get(k).end();
                t = k;
            }
        }
        if (options.isEmpty() && hints.isEmpty() && converts == 0) {
            return new ForParser(sql, List.of(), List.of(), 0, null);
        }
        out.append(sql, copied, sql.length());
        return new ForParser(out.toString(), List.copyOf(options), List.copyOf(hints), converts, null);
    }

    /**
     * The one comma at the depth of the call whose {@code (} is at {@code open}, when what follows it up to the
     * closing {@code )} is a type of the grammar; else -1.
     */
    private static int convertComma(String sql, List<SqlLexer.Tok> toks, int open) {
        int depth = 0;
        int comma = -1;
        int close = -1;
        for (int k = open; k < toks.size(); k++) {
            SqlLexer.Tok tok = toks.get(k);
            if (punct(sql, tok, '(')) {
                depth++;
            } else if (punct(sql, tok, ')')) {
                depth--;
                if (depth == 0) {
                    close = k;
                    break;
                }
            } else if (depth == 1 && punct(sql, tok, ',')) {
                if (comma >= 0) {
                    return -1;
                }
                comma = k;
            } else if (depth == 1 && (word(sql, tok, "using") || word(sql, tok, "as"))) {
                return -1;
            }
        }
        if (comma < 0 || close < 0 || comma == open + 1) {
            return -1;
        }
        // the type: word [INTEGER] [( n [, n] )]
        int k = comma + 1;
        if (k >= close || toks.get(k).kind() != SqlLexer.Kind.WORD) {
            return -1;
        }
        String type = toks.get(k).text(sql).toLowerCase(Locale.ROOT);
        if (!CONVERT_TYPES.contains(type)) {
            return -1;
        }
        k++;
        if ((type.equals("signed") || type.equals("unsigned")) && k < close && word(sql, toks.get(k), "integer")) {
            k++;
        }
        if (k < close && punct(sql, toks.get(k), '(') && !type.equals("signed") && !type.equals("unsigned")
                && !type.equals("date") && !type.equals("double")) {
            int numbers = 0;
            k++;
            while (k < close && toks.get(k).kind() == SqlLexer.Kind.NUMBER
                    && toks.get(k).text(sql).matches("[0-9]{1,3}")) {
                numbers++;
                k++;
                if (k < close && punct(sql, toks.get(k), ',')) {
                    k++;
                } else {
                    break;
                }
            }
            if (numbers == 0 || numbers > (type.equals("decimal") ? 2 : 1) || k >= close
                    || !punct(sql, toks.get(k), ')')) {
                return -1;
            }
            k++;
        }
        return k == close ? comma : -1;
    }

    /**
     * The guard's printing spelled back for the engine: each option marker ({@code SKIP sqlagent_opts_k}) becomes
     * its run's options. Index hints need nothing here: the guard put their clause back into the tree.
     *
     * @param printed the printed statement
     * @param spelled what was respelled for the parser
     * @param dialect the dialect (MySQL or MariaDB)
     * @return the statement the engine is to run, or null when the printing does not hold each marker exactly
     *     once (refused by the caller)
     */
    static String forEngine(String printed, ForParser spelled, Dialect dialect) {
        if (spelled.options().isEmpty()) {
            return printed; // a respelled CONVERT is printed as the CAST it is
        }
        SqlLexer.Result r = SqlLexer.lex(printed, dialect, Integer.MAX_VALUE);
        if (r.violation() != null) {
            return null;
        }
        String sql = r.sql();
        List<SqlLexer.Tok> toks = r.tokens();
        StringBuilder out = new StringBuilder(printed.length() + 32);
        int copied = 0;
        boolean[] used = new boolean[spelled.options().size()];
        for (int t = 0; t + 1 < toks.size(); t++) {
            SqlLexer.Tok tok = toks.get(t);
            if (!word(sql, tok, "skip")) {
                continue;
            }
            String name = toks.get(t + 1).text(sql).toLowerCase(Locale.ROOT);
            if (toks.get(t + 1).kind() != SqlLexer.Kind.WORD || !name.startsWith(OPTIONS_MARKER)) {
                continue;
            }
            int k = markerIndex(name, OPTIONS_MARKER);
            if (k < 0 || k >= used.length || used[k] || t == 0 || !word(sql, toks.get(t - 1), "select")) {
                return null;
            }
            used[k] = true;
            out.append(sql, copied, tok.start()).append(spelled.options().get(k));
            copied = toks.get(t + 1).end();
            t++;
        }
        for (boolean u : used) {
            if (!u) {
                return null;
            }
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    private static ForParser refuse(String sql, SqlLexer.Tok at, String message) {
        return new ForParser(sql, List.of(), List.of(), 0, new Violation(ViolationType.UNSUPPORTED_CONSTRUCT,
                SqlLexer.fragment(sql, at.start()), message));
    }
}
