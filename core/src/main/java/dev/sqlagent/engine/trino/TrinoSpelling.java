package dev.sqlagent.engine.trino;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Trino's SQL as the guard's parser (JSqlParser 5.4) reads it: a lexer-based pass over the text before
 * parsing, and back over the guard's printing before Trino runs it. Most of Trino's syntax is read exactly as
 * it is written (lambdas {@code x -> …}, {@code ROW}, {@code ARRAY[…]}, subscripts, {@code UNNEST … WITH
 * ORDINALITY}, {@code FETCH FIRST … WITH TIES}, {@code GROUPING SETS}, {@code FILTER}, {@code WITHIN GROUP},
 * {@code AT TIME ZONE}, {@code JSON_QUERY}, {@code TABLESAMPLE}, {@code try_cast}, …: see
 * {@code TrinoSpellingTest}); this class handles what is not.
 *
 * <p>Respelled, exactly both ways:
 * <ul>
 *   <li><b>Array types in a cast</b> {@code CAST(x AS array(T))} (also {@code TRY_CAST}), {@code T} one word
 *       ({@code double precision} too) with an optional precision {@code (p)} or {@code (p, s)}: read as
 *       {@code CAST(x AS T ARRAY)}, a spelling Trino also reads, so the printing needs no way back. Nested
 *       ({@code array(array(T))}), {@code map(K, V)} and nested {@code ROW} types are not read by the parser at
 *       all and stay unparseable. A cast to a one-field {@code ROW(s varchar)} parses but its printing throws
 *       (JSqlParser 5.4): the caller must take a printing that fails as a refusal.</li>
 * </ul>
 *
 * <p>Spelled back in the printing ({@link #forEngine}): the parser prints {@code OFFSET n LIMIT m} as
 * {@code LIMIT m OFFSET n}, which Trino does not read (its {@code OFFSET} comes first); it is turned back.
 *
 * <p>Refused, because the parser would read something other than what Trino runs ({@link ForParser#refusal}):
 * <ul>
 *   <li>{@code FOR TIMESTAMP AS OF …}, {@code FOR VERSION AS OF …} (time travel): the parser keeps the
 *       expression as opaque text, so a sub-query there would be hidden from the guard (the version form does
 *       not parse at all).</li>
 *   <li>Table functions {@code TABLE(…)} and {@code DESCRIPTOR(…)}: the parser reads {@code TABLE(people)} as a
 *       function of a column {@code people}, not as a table read; and a table function runs connector code
 *       ({@code system.query} passes SQL through to a remote database).</li>
 *   <li>{@code MATCH_RECOGNIZE}: not read.</li>
 *   <li>Unicode strings {@code U&'…'} (and {@code U&"…"}): read as the bitwise {@code U & '…'}.</li>
 *   <li>The form of {@code normalize(x, NFC)} (NFC, NFD, NFKC, NFKD): read as a column.</li>
 *   <li>Characters Trino's lexer has no token for but the parser reads: backquoted identifiers, {@code $},
 *       {@code #}, {@code @}, {@code \}, braces, {@code ?} parameters, and {@code :} (a named parameter to the
 *       parser); unterminated strings, identifiers and comments; the empty identifier {@code ""}.</li>
 * </ul>
 */
public final class TrinoSpelling {

    /** What a token is. */
    public enum Kind {
        /** An unquoted word: a keyword or a name. */
        WORD,
        /** A double-quoted identifier. */
        IDENTIFIER,
        /** A string literal (also {@code X'…'} after its {@code X} word). */
        STRING,
        /** A numeric literal. */
        NUMBER,
        /** One punctuation character. */
        PUNCT
    }

    /**
     * A token of the text.
     *
     * @param kind what it is
     * @param start its first character
     * @param end one past its last character
     */
    public record Token(Kind kind, int start, int end) {
        /**
         * @param sql the text it was read from
         * @return its text
         */
        public String text(String sql) {
            return sql.substring(start, end);
        }
    }

    /**
     * The statement for the parser.
     *
     * @param sql the text for the parser (the original when nothing was respelled)
     * @param arrayTypes how many {@code array(T)} types were respelled {@code T ARRAY}
     * @param refusal why the statement cannot be read exactly, or null
     */
    public record ForParser(String sql, int arrayTypes, String refusal) {
        /** @return whether the text differs from the original */
        public boolean respelled() {
            return arrayTypes > 0;
        }
    }

    private static final Set<String> NORMAL_FORMS = Set.of("nfc", "nfd", "nfkc", "nfkd");
    private static final Set<String> TIME_TRAVEL = Set.of("timestamp", "version", "system_time", "system_version");

    private TrinoSpelling() {
    }

    /**
     * Reads Trino's tokens.
     *
     * @param sql the statement
     * @param out the tokens, in order (comments and spaces left out)
     * @return why the text is refused, or null
     */
    public static String lex(String sql, List<Token> out) {
        return lex(sql, out, false);
    }

    /**
     * @param parameters whether {@code ?} and {@code :name} are tokens: the guard's own printing binds a row
     *     filter's value as a parameter; the model's SQL may hold none
     */
    static String lex(String sql, List<Token> out, boolean parameters) {
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int nl = sql.indexOf('\n', i);
                i = nl < 0 ? n : nl + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                if (close < 0) {
                    return "an unterminated comment at " + fragment(sql, i);
                }
                i = close + 2;
            } else if (c == '\'') {
                int end = quoteEnd(sql, i, '\'');
                if (end < 0) {
                    return "an unterminated string at " + fragment(sql, i);
                }
                out.add(new Token(Kind.STRING, i, end));
                i = end;
            } else if (c == '"') {
                int end = quoteEnd(sql, i, '"');
                if (end < 0) {
                    return "an unterminated identifier at " + fragment(sql, i);
                }
                if (end == i + 2) {
                    return "the empty identifier \"\" (Trino refuses it)";
                }
                out.add(new Token(Kind.IDENTIFIER, i, end));
                i = end;
            } else if (Character.isDigit(c) || c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
                int end = i;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '.'
                        || sql.charAt(end) == '_' || (sql.charAt(end) == '+' || sql.charAt(end) == '-')
                        && (sql.charAt(end - 1) == 'e' || sql.charAt(end - 1) == 'E'))) {
                    end++;
                }
                out.add(new Token(Kind.NUMBER, i, end));
                i = end;
            } else if (Character.isLetter(c) || c == '_') {
                int end = i + 1;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
                    end++;
                }
                if (end == i + 1 && (c == 'u' || c == 'U') && end + 1 < n && sql.charAt(end) == '&'
                        && (sql.charAt(end + 1) == '\'' || sql.charAt(end + 1) == '"')) {
                    return "a Unicode literal U&" + sql.charAt(end + 1) + "…" + sql.charAt(end + 1)
                            + " (the parser reads U & …)";
                }
                out.add(new Token(Kind.WORD, i, end));
                i = end;
            } else if ("(),.;+-*/%<>=!|[]^~&".indexOf(c) >= 0 || (c == '?' || c == ':') && parameters) {
                out.add(new Token(Kind.PUNCT, i, i + 1));
                i++;
            } else {
                return "the character " + (c == '`' ? "` (Trino has no backquoted identifiers)"
                        : c == '?' ? "? (parameters are not accepted)"
                        : c == ':' ? ": (Trino has no such token; the parser reads a named parameter)"
                        : "'" + c + "' (not in Trino's SQL)") + " at " + fragment(sql, i);
            }
        }
        return null;
    }

    /**
     * @param sql the statement as Trino is to read it
     * @return the text for the parser, or a refusal
     */
    public static ForParser forParser(String sql) {
        List<Token> toks = new ArrayList<>();
        String bad = lex(sql, toks);
        if (bad != null) {
            return new ForParser(sql, 0, bad);
        }
        // what each open parenthesis belongs to: a cast's, or anything else
        Deque<Boolean> casts = new ArrayDeque<>();
        StringBuilder out = new StringBuilder(sql.length());
        int copied = 0;
        int arrays = 0;
        for (int t = 0; t < toks.size(); t++) {
            Token tok = toks.get(t);
            if (tok.kind() == Kind.WORD) {
                String w = tok.text(sql).toLowerCase(Locale.ROOT);
                if (w.equals("match_recognize")) {
                    return refuse(sql, "MATCH_RECOGNIZE is not read by the guard's parser");
                }
                if (w.equals("for") && t + 3 < toks.size() && toks.get(t + 1).kind() == Kind.WORD
                        && TIME_TRAVEL.contains(toks.get(t + 1).text(sql).toLowerCase(Locale.ROOT))
                        && word(sql, toks.get(t + 2), "as") && word(sql, toks.get(t + 3), "of")) {
                    return refuse(sql, "time travel (FOR " + toks.get(t + 1).text(sql).toUpperCase(Locale.ROOT)
                            + " AS OF) is not read: the parser keeps its expression as opaque text");
                }
                if ((w.equals("table") || w.equals("descriptor")) && t + 1 < toks.size()
                        && punct(sql, toks.get(t + 1), '(')) {
                    return refuse(sql, "table functions (" + w.toUpperCase(Locale.ROOT) + "(…)) are not read:"
                            + " the parser takes their tables for columns, and they run connector code");
                }
                if (NORMAL_FORMS.contains(w) && t > 0 && punct(sql, toks.get(t - 1), ',') && t + 1 < toks.size()
                        && punct(sql, toks.get(t + 1), ')')) {
                    return refuse(sql, "the normal form " + tok.text(sql) + " of normalize(…) is read as a column;"
                            + " write normalize(x) for NFC");
                }
                if (w.equals("as") && !casts.isEmpty() && casts.peek() && t + 3 < toks.size()
                        && word(sql, toks.get(t + 1), "array") && punct(sql, toks.get(t + 2), '(')) {
                    int close = scalarType(sql, toks, t + 3);
                    if (close > 0) {
                        Token first = toks.get(t + 3);
                        Token last = toks.get(close - 1);
                        out.append(sql, copied, toks.get(t + 1).start())
                                .append(sql, first.start(), last.end()).append(" ARRAY");
                        copied = toks.get(close).end();
                        arrays++;
                        t = close;
                        continue;
                    }
                }
            } else if (punct(sql, tok, '(')) {
                casts.push(t > 0 && (word(sql, toks.get(t - 1), "cast") || word(sql, toks.get(t - 1), "try_cast")));
            } else if (punct(sql, tok, ')') && !casts.isEmpty()) {
                casts.pop();
            }
        }
        if (arrays == 0) {
            return new ForParser(sql, 0, null);
        }
        out.append(sql, copied, sql.length());
        return new ForParser(out.toString(), arrays, null);
    }

    /**
     * The guard's printing made fit for Trino: {@code LIMIT m OFFSET n}, as the parser prints it, becomes
     * {@code OFFSET n LIMIT m}. Array types stay {@code T ARRAY}, which Trino reads.
     *
     * @param printed the guard's printing of the tree it checked
     * @param spelled what {@link #forParser} gave the parser
     * @return the statement Trino is to run, or null when the printing cannot be spelled back exactly (to be
     *     refused by the caller)
     */
    public static String forEngine(String printed, ForParser spelled) {
        if (spelled.refusal() != null) {
            return null;
        }
        List<Token> toks = new ArrayList<>();
        if (lex(printed, toks, true) != null) {
            return null;
        }
        StringBuilder out = new StringBuilder(printed.length());
        int copied = 0;
        for (int t = 0; t < toks.size(); t++) {
            if (!word(printed, toks.get(t), "limit") || offsetAfter(printed, toks, t + 1) < 0) {
                continue;
            }
            Token count = toks.get(t + 1);
            if (count.kind() != Kind.NUMBER && !word(printed, count, "all")
                    || offsetAfter(printed, toks, t + 1) != t + 2 || t + 3 >= toks.size()
                    || toks.get(t + 3).kind() != Kind.NUMBER) {
                return null; // an expression the swap would have to re-read: not guessed at
            }
            int end = t + 4;
            if (end < toks.size() && (word(printed, toks.get(end), "rows") || word(printed, toks.get(end), "row"))) {
                end++;
            }
            Token last = toks.get(end - 1);
            out.append(printed, copied, toks.get(t).start())
                    .append("OFFSET ").append(printed, toks.get(t + 3).start(), last.end())
                    .append(" LIMIT ").append(count.text(printed));
            copied = last.end();
            t = end - 1;
        }
        return out.append(printed, copied, printed.length()).toString();
    }

    /**
     * The index of an {@code OFFSET} word in the same block as the clause that starts at {@code t} (at the same
     * depth of parentheses, before the block closes), or -1.
     */
    private static int offsetAfter(String sql, List<Token> toks, int t) {
        int depth = 0;
        for (int k = t; k < toks.size(); k++) {
            Token tok = toks.get(k);
            if (punct(sql, tok, '(')) {
                depth++;
            } else if (punct(sql, tok, ')')) {
                if (depth == 0) {
                    return -1;
                }
                depth--;
            } else if (depth == 0 && (punct(sql, tok, ';') || word(sql, tok, "union") || word(sql, tok, "except")
                    || word(sql, tok, "intersect"))) {
                return -1;
            } else if (depth == 0 && word(sql, tok, "offset")) {
                return k;
            }
        }
        return -1;
    }

    /**
     * Whether a scalar type name, optionally with a precision, starts at {@code t} and is closed by a
     * parenthesis: returns the index of that parenthesis, or -1.
     */
    private static int scalarType(String sql, List<Token> toks, int t) {
        if (t >= toks.size() || toks.get(t).kind() != Kind.WORD) {
            return -1;
        }
        String w = toks.get(t).text(sql).toLowerCase(Locale.ROOT);
        if (w.equals("array") || w.equals("map") || w.equals("row")) {
            return -1;
        }
        int k = t + 1;
        if (w.equals("double") && k < toks.size() && word(sql, toks.get(k), "precision")) {
            k++;
        }
        if (k < toks.size() && punct(sql, toks.get(k), '(')) {
            k++;
            if (k >= toks.size() || toks.get(k).kind() != Kind.NUMBER) {
                return -1;
            }
            k++;
            if (k + 1 < toks.size() && punct(sql, toks.get(k), ',') && toks.get(k + 1).kind() == Kind.NUMBER) {
                k += 2;
            }
            if (k >= toks.size() || !punct(sql, toks.get(k), ')')) {
                return -1;
            }
            k++;
        }
        return k < toks.size() && punct(sql, toks.get(k), ')') ? k : -1;
    }

    private static int quoteEnd(String sql, int open, char q) {
        int i = open + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == q) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == q) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return -1;
    }

    private static boolean word(String sql, Token tok, String w) {
        return tok.kind() == Kind.WORD && tok.end() - tok.start() == w.length()
                && sql.regionMatches(true, tok.start(), w, 0, w.length());
    }

    private static boolean punct(String sql, Token tok, char c) {
        return tok.kind() == Kind.PUNCT && sql.charAt(tok.start()) == c;
    }

    private static ForParser refuse(String sql, String why) {
        return new ForParser(sql, 0, why);
    }

    private static String fragment(String sql, int at) {
        int end = Math.min(sql.length(), at + 20);
        return "'" + sql.substring(at, end) + (end < sql.length() ? "…'" : "'");
    }
}
