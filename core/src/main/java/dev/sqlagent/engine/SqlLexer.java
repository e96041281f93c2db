package dev.sqlagent.engine;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.guard.ViolationType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.parser.Token;

/**
 * The guard's one reading of the characters: a lexer that splits SQL into tokens the way the dialect's
 * engine does, run before the parser, and the yardstick the parser's own tokens are compared with
 * afterwards ({@link #align}). Every later pass (nesting, placeholders, the re-check of the printed SQL)
 * uses these tokens; there is no second scanner.
 *
 * <p>Quotes as the engine reads them: {@code '…'} everywhere (the quote doubled as escape; on MySQL and
 * MariaDB a backslash escapes too, and a string is accepted only when it ends at the same character
 * whether or not {@code NO_BACKSLASH_ESCAPES} is set); {@code "…"} (an identifier, or a string on MySQL
 * without {@code ANSI_QUOTES}: the same extent); {@code `…`}; {@code […]} on SQLite (no escape) and SQL
 * Server ({@code ]]} escapes), an array bracket elsewhere. Refused as tokens, because the parser and the
 * engine disagree on them or they are never needed in a query: comments the engines may end at different
 * places ({@code #}, a stray {@code *}{@code /}, {@code //} but on DuckDB, where it is integer division, a
 * nested {@code /*}, MySQL's {@code /*!}, see {@code commentEnd}; the others are blanked, and what runs is the
 * guard's printing, which holds none),
 * {@code E''}, {@code U&''}, {@code q''}, {@code nq''}, {@code _charset''} prefixes, {@code $} (dollar
 * quoting, positional parameters), {@code ?}, JDBC braces (on DuckDB, whose driver has no JDBC escapes,
 * braces are struct literals, checked by {@code DuckDbSpelling}), a backslash outside a literal, control characters, non-ASCII characters outside
 * {@code '…'} and quoted identifiers, and in a quoted identifier any that is no letter, mark or digit or that
 * looks like another name ({@link QuotedNames}), a number running into a name ({@code 1_000}, {@code 1abc}), and
 * nesting of {@code (}, array {@code [}, struct <code>{</code> and {@code CASE} deeper than the policy allows.
 */
public final class SqlLexer {

    /** What a token is. */
    public enum Kind {
        /** An unquoted name or keyword: {@code [A-Za-z_][A-Za-z0-9_]*}. */
        WORD,
        /** A numeric literal. */
        NUMBER,
        /** A string literal, with its prefix ({@code N}, {@code X}, {@code B}) if any. */
        STRING,
        /** A quoted identifier. */
        IDENTIFIER,
        /** One punctuation character. */
        PUNCT
    }

    /**
     * One token.
     *
     * @param kind what it is
     * @param start first character
     * @param end one past the last character
     * @param prefix length of a string prefix ({@code N'…'}: 1), else 0
     */
    public record Tok(Kind kind, int start, int end, int prefix) {
        /**
         * @param sql the SQL lexed
         * @return the token's text
         */
        public String text(String sql) {
            return sql.substring(start, end);
        }
    }

    /**
     * The reading of one SQL.
     *
     * @param sql the SQL read, with tabs and line breaks between tokens replaced by spaces (same length,
     *            same offsets; inside literals nothing changes)
     * @param tokens the tokens
     * @param violation the first refusal, or null
     * @param maxDepth the deepest nesting seen
     */
    public record Result(String sql, List<Tok> tokens, Violation violation, int maxDepth) {
    }

    /**
     * Prefixes that change how a literal is read or where it ends: PostgreSQL's escape strings
     * {@code E''} and {@code U&''}, Oracle's {@code q''}/{@code nq''}, raw strings {@code r''}; and any
     * {@code _charset''} introducer.
     */
    private static final java.util.Set<String> ESCAPING_PREFIXES = java.util.Set.of("e", "u", "q", "nq", "r",
            "br", "rb", "ue", "eu");

    private SqlLexer() {
    }

    /**
     * @param sql the SQL
     * @param dialect whose engine's reading to follow
     * @param maxDepth nesting cap
     * @return the tokens, or the first refusal
     */
    public static Result lex(String sql, Dialect dialect, int maxDepth) {
        dev.sqlagent.internal.Work.LEXER_PASS.count();
        List<Tok> out = new ArrayList<>();
        char[] normal = sql.toCharArray();
        int depth = 0;
        int deepest = 0;
        int n = sql.length();
        int i = 0;
        EngineGuard engine = Engines.of(dialect).guard();
        boolean mysql = engine.backslashEscapes();
        boolean executable = engine.executableComments();
        boolean bracketQuotes = engine.squareBracketQuotes();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                normal[i] = ' ';
                i++;
                continue;
            }
            if (c < 0x20 || c == 0x7f) {
                return fail(sql, out, deepest, ViolationType.SUSPICIOUS_CHARACTER, i,
                        "control character U+" + String.format("%04X", (int) c) + " is not allowed");
            }
            if (c > 0x7e) {
                return fail(sql, out, deepest, ViolationType.SUSPICIOUS_CHARACTER, i,
                        "non-ASCII character U+" + String.format("%04X", (int) c)
                                + " outside a string literal is not allowed (look-alike identifiers)");
            }
            if (c == '\'' || c == '"') {
                int prefix = 0;
                Tok last = out.isEmpty() ? null : out.get(out.size() - 1);
                if (last != null && last.kind == Kind.WORD && last.end == i) {
                    String p = last.text(sql).toLowerCase(Locale.ROOT);
                    if (ESCAPING_PREFIXES.contains(p) || p.startsWith("_")) {
                        return fail(sql, out, deepest, ViolationType.UNSAFE_STRING_LITERAL, last.start,
                                last.text(sql) + c + "…" + c + " literals are not allowed (the parser and the "
                                        + "database may disagree where they end)");
                    }
                    if (c == '\'' && (p.equals("n") || p.equals("x") || p.equals("b"))) {
                        out.remove(out.size() - 1);
                        prefix = i - last.start;
                    }
                    // any other word (THEN'x', date'2024-01-01') is a token of its own, as to the engines
                }
                if (last != null && last.end == i && last.kind == Kind.PUNCT && sql.charAt(i - 1) == '&') {
                    return fail(sql, out, deepest, ViolationType.UNSAFE_STRING_LITERAL, i - 1,
                            "U&'…' literals and identifiers are not allowed");
                }
                int end = mysql ? mysqlQuoteEnd(sql, i) : quoteEnd(sql, i, c, false);
                if (end == -2) {
                    return fail(sql, out, deepest, ViolationType.UNSAFE_STRING_LITERAL, i,
                            "a backslash makes this literal end at a different place depending on the "
                                    + "server's NO_BACKSLASH_ESCAPES setting");
                }
                if (end < 0) {
                    // unterminated: the parser reports it as a syntax error
                    return new Result(new String(normal), out, null, deepest);
                }
                boolean backslashOk = mysql || c == '\'' && (engine.backslashLiteral()
                        || engine.backslashBySetting() && !backslashBeforeQuote(sql, i, end));
                Violation bad = checkQuoted(sql, i, end, backslashOk, c == '\'');
                if (bad == null && c == '"') {
                    bad = dotInName(sql, i, end);
                }
                if (bad != null) {
                    return new Result(new String(normal), out, bad, deepest);
                }
                out.add(new Tok(c == '\'' ? Kind.STRING : Kind.IDENTIFIER, i - prefix, end, prefix));
                i = end;
                continue;
            }
            if (c == '`' || c == '[' && bracketQuotes) {
                int end = c == '`' ? quoteEnd(sql, i, '`', false)
                        : quoteEnd(sql, i, ']', engine.doubledClosingBracket());
                if (end < 0) {
                    return new Result(new String(normal), out, null, deepest);
                }
                Violation bad = checkQuoted(sql, i, end, false, false);
                if (bad == null) {
                    bad = dotInName(sql, i, end);
                }
                if (bad == null && c == '[') {
                    for (int k = i + 1; k < end - 1; k++) {
                        char d = sql.charAt(k);
                        if (d == '\'' || d == '"' || d == '[' || d == '`' && !engine.backQuoteInBrackets()) {
                            bad = violation(ViolationType.SUSPICIOUS_CHARACTER, sql, i,
                                    "a quote inside a [bracketed] identifier is not allowed");
                            break;
                        }
                    }
                }
                if (bad != null) {
                    return new Result(new String(normal), out, bad, deepest);
                }
                out.add(new Tok(Kind.IDENTIFIER, i, end, 0));
                i = end;
                continue;
            }
            char next = i + 1 < n ? sql.charAt(i + 1) : 0;
            if (engine.slashSlashOperator() && c == '/' && next == '/') {
                // DuckDB's integer division, two tokens here; never a comment to DuckDB. '///' and '//*' are
                // refused: a scanner may read a comment opener inside them
                char after = i + 2 < n ? sql.charAt(i + 2) : 0;
                if (after == '/' || after == '*') {
                    return fail(sql, out, deepest, ViolationType.COMMENT, i, "comments are not allowed");
                }
                out.add(new Tok(Kind.PUNCT, i, i + 1, 0));
                out.add(new Tok(Kind.PUNCT, i + 1, i + 2, 0));
                i += 2;
                continue;
            }
            if (c == '-' && next == '-' || c == '/' && next == '*') {
                int end = commentEnd(sql, i, executable);
                if (end < 0) {
                    return fail(sql, out, deepest, ViolationType.COMMENT, i, end == -2
                            ? "MySQL's executable comments /*! … */ are not allowed"
                            : "a comment the engines may end at different places (nested /* */, a lone carriage "
                                    + "return, a control character, MySQL's -- without a space, no end) is not allowed");
                }
                // blanked: the parser reads the statement without it, and what runs is the guard's printing
                for (int k = i; k < end; k++) {
                    normal[k] = ' ';
                }
                i = end;
                continue;
            }
            if (c == '/' && next == '/' || c == '*' && next == '/' || c == '#') {
                return fail(sql, out, deepest, ViolationType.COMMENT, i, "comments are not allowed");
            }
            if (c == '$') {
                return fail(sql, out, deepest, ViolationType.UNSAFE_STRING_LITERAL, i,
                        "'$' (dollar quoting, positional parameters) is not allowed");
            }
            if (c == '?') {
                return fail(sql, out, deepest, ViolationType.PARAMETER, i,
                        "placeholders are not allowed in generated SQL");
            }
            if ((c == '{' || c == '}') && !engine.bracesAreSql()) {
                return fail(sql, out, deepest, ViolationType.SUSPICIOUS_CHARACTER, i,
                        "JDBC escape braces are not allowed");
            }
            if (c == '\\') {
                return fail(sql, out, deepest, ViolationType.SUSPICIOUS_CHARACTER, i,
                        "a backslash outside a literal is not allowed");
            }
            if (isWordStart(c)) {
                int end = i + 1;
                while (end < n && isWordChar(sql.charAt(end))) {
                    end++;
                }
                out.add(new Tok(Kind.WORD, i, end, 0));
                int len = end - i;
                if (len == 4 && sql.regionMatches(true, i, "case", 0, 4)) {
                    depth++;
                    if (depth > deepest) {
                        deepest = depth;
                        if (deepest > maxDepth) {
                            return fail(sql, out, deepest, ViolationType.NESTING_TOO_DEEP, i,
                                    "expressions nested deeper than " + maxDepth);
                        }
                    }
                } else if (len == 3 && sql.regionMatches(true, i, "end", 0, 3) && depth > 0) {
                    depth--;
                }
                i = end;
                continue;
            }
            if (isDigit(c) || c == '.' && isDigit(next) && !afterName(sql, out, i)) {
                int end = numberEnd(sql, i);
                if (end < n && (isWordChar(sql.charAt(end)) || sql.charAt(end) == '.')) {
                    return fail(sql, out, deepest, ViolationType.SUSPICIOUS_CHARACTER, i,
                            "a number running into a name or another number is read differently by databases");
                }
                out.add(new Tok(Kind.NUMBER, i, end, 0));
                i = end;
                continue;
            }
            if (c == '(' || c == '[' || c == '{') {
                depth++;
                if (depth > deepest) {
                    deepest = depth;
                    if (deepest > maxDepth) {
                        return fail(sql, out, deepest, ViolationType.NESTING_TOO_DEEP, i,
                                "parentheses or brackets nested deeper than " + maxDepth);
                    }
                }
            } else if (c == ')' || c == ']' || c == '}') {
                depth--;
            }
            out.add(new Tok(Kind.PUNCT, i, i + 1, 0));
            i++;
        }
        return new Result(new String(normal), out, null, deepest);
    }

    /** Whether a {@code .} at {@code at} follows a name ({@code t.5} is a qualified name, not 0.5). */
    private static boolean afterName(String sql, List<Tok> out, int at) {
        if (out.isEmpty()) {
            return false;
        }
        Tok last = out.get(out.size() - 1);
        return last.end == at && (last.kind != Kind.PUNCT || ")]".indexOf(sql.charAt(last.start)) >= 0);
    }

    /** Where a number starting at {@code i} ends: digits, a fraction, an exponent; or {@code 0x} hex digits. */
    private static int numberEnd(String sql, int i) {
        int n = sql.length();
        int k = i;
        if (sql.charAt(k) == '0' && k + 1 < n && (sql.charAt(k + 1) == 'x' || sql.charAt(k + 1) == 'X')) {
            k += 2;
            while (k < n && (isDigit(sql.charAt(k)) || "abcdefABCDEF".indexOf(sql.charAt(k)) >= 0)) {
                k++;
            }
            return k;
        }
        while (k < n && isDigit(sql.charAt(k))) {
            k++;
        }
        if (k < n && sql.charAt(k) == '.') {
            k++;
            while (k < n && isDigit(sql.charAt(k))) {
                k++;
            }
        }
        if (k < n && (sql.charAt(k) == 'e' || sql.charAt(k) == 'E')) {
            int e = k + 1;
            if (e < n && (sql.charAt(e) == '+' || sql.charAt(e) == '-')) {
                e++;
            }
            if (e < n && isDigit(sql.charAt(e))) {
                k = e;
                while (k < n && isDigit(sql.charAt(k))) {
                    k++;
                }
            }
        }
        return k;
    }

    /**
     * End (exclusive) of a literal opened at {@code open}, closed by {@code close} doubled as its escape
     * ({@code ]]} only where {@code doubledClose}); -1 if unterminated.
     */
    private static int quoteEnd(String sql, int open, char close, boolean doubledClose) {
        int n = sql.length();
        boolean doubles = close != ']' || doubledClose;
        int k = open + 1;
        while (k < n) {
            if (sql.charAt(k) == close) {
                if (doubles && k + 1 < n && sql.charAt(k + 1) == close) {
                    k += 2;
                    continue;
                }
                return k + 1;
            }
            k++;
        }
        return -1;
    }

    /**
     * MySQL and MariaDB: a quoted literal ends at the same place with and without backslash escapes, or
     * it is refused (-2). -1 if unterminated.
     */
    private static int mysqlQuoteEnd(String sql, int open) {
        char q = sql.charAt(open);
        int plain = quoteEnd(sql, open, q, false);
        int n = sql.length();
        int k = open + 1;
        int escaped = -1;
        while (k < n) {
            char d = sql.charAt(k);
            if (d == '\\') {
                k += 2;
                continue;
            }
            if (d == q) {
                if (k + 1 < n && sql.charAt(k + 1) == q) {
                    k += 2;
                    continue;
                }
                escaped = k + 1;
                break;
            }
            k++;
        }
        if (plain != escaped && q == '"') {
            return -2;
        }
        // a '…' string is read with escapes, as the server does by default and the parser is told to;
        // the guard then spells the string to run without any backslash (see AstAnalyzer)
        return escaped;
    }

    /**
     * A quoted name holding a dot is one name to the engine ({@code "a.b"}), but the parser splits it into
     * a qualified name and prints the parts back quoted differently, so the guard would check one name
     * and the engine read another. Models never need one (nor a double-quoted string with a dot).
     */
    private static Violation dotInName(String sql, int from, int to) {
        int dot = sql.indexOf('.', from);
        return dot >= 0 && dot < to ? violation(ViolationType.SUSPICIOUS_CHARACTER, sql, from,
                "a quoted name containing a dot is not allowed (the parser splits it)") : null;
    }

    /**
     * Whether a backslash stands right before a quote inside a {@code '…'} literal (its closing quote
     * included). Only there does PostgreSQL's {@code standard_conforming_strings} move where the literal
     * ends ({@code 'a\'} is closed by its second quote when it is on, and runs on when it is off); a backslash
     * before any other character changes at most the literal's value ({@code '\d'} as itself or as an escape),
     * never where it ends, so the guard and the engine read the same statement either way.
     */
    private static boolean backslashBeforeQuote(String sql, int from, int to) {
        for (int k = from + 1; k < to - 1; k++) {
            if (sql.charAt(k) == '\\' && sql.charAt(k + 1) == '\'') {
                return true;
            }
        }
        return false;
    }

    /**
     * Characters inside a quoted token: control characters never; a backslash only where the engine's
     * reading is known and the same as the parser's ({@code backslashOk}); non-ASCII only in strings.
     */
    private static Violation checkQuoted(String sql, int from, int to, boolean backslashOk, boolean string) {
        for (int k = from + 1; k < to - 1; k++) {
            char d = sql.charAt(k);
            if (d == '\\' && !backslashOk) {
                return violation(ViolationType.UNSAFE_STRING_LITERAL, sql, from,
                        "a quoted literal contains a backslash, which this database may read as an escape");
            }
            if (d < 0x20 && d != '\t' && d != '\n' && d != '\r' || d == 0x7f) {
                return violation(ViolationType.SUSPICIOUS_CHARACTER, sql, from,
                        "a quoted literal contains a control character");
            }
        }
        if (!string) {
            String why = QuotedNames.refusal(sql.substring(from + 1, to - 1));
            if (why != null) {
                return violation(ViolationType.SUSPICIOUS_CHARACTER, sql, from, why);
            }
        }
        return null;
    }

    /**
     * Compares the parser's tokens with this lexer's: the parser must have skipped nothing but
     * whitespace between its tokens (no comment it understood and the engine does not), and every
     * name, number, string and quoted identifier of the engine's reading must be exactly one token of the
     * parser's (a string's prefix may be a token of its own; a keyword of several words may span several
     * names). Punctuation may be grouped differently ({@code <=}, {@code ::}).
     *
     * @param sql the SQL both read
     * @param engine this lexer's tokens
     * @param first the parser's token before its first real one ({@code parser.token} before parsing)
     * @return null when both read the same tokens, else the disagreement
     */
    public static Violation align(String sql, List<Tok> engine, Token first) {
        int n = sql.length();
        int[] owner = new int[n];
        java.util.Arrays.fill(owner, -1);
        for (int t = 0; t < engine.size(); t++) {
            Tok tok = engine.get(t);
            for (int k = tok.start; k < tok.end; k++) {
                owner[k] = t;
            }
        }
        int pos = 0;
        for (Token t = first.next; t != null && t.kind != 0; t = t.next) {
            if (t.specialToken != null) {
                return violation(ViolationType.COMMENT, sql, pos, "the parser read a comment here");
            }
            String image = t.image;
            if (image == null || image.isEmpty()) {
                continue;
            }
            while (pos < n && sql.charAt(pos) == ' ') {
                pos++;
            }
            if (!sql.startsWith(image, pos)) {
                return violation(ViolationType.UNSAFE_STRING_LITERAL, sql, pos,
                        "the parser and the database read these characters differently");
            }
            int s = pos;
            int e = pos + image.length();
            pos = e;
            int a = owner[s];
            int b = owner[e - 1];
            if (a < 0 || b < 0) {
                return violation(ViolationType.UNSAFE_STRING_LITERAL, sql, s,
                        "the parser read a token where the database reads none");
            }
            Tok ta = engine.get(a);
            Tok tb = engine.get(b);
            boolean ok;
            if (ta.kind == Kind.PUNCT) {
                ok = ta.start == s && tb.end == e;
                for (int k = a; ok && k <= b; k++) {
                    ok = engine.get(k).kind == Kind.PUNCT;
                }
            } else if (a == b) {
                ok = s == ta.start && e == ta.end
                        || ta.prefix > 0 && (s == ta.start && e == ta.start + ta.prefix
                        || s == ta.start + ta.prefix && e == ta.end);
            } else {
                // a keyword of several words (the engine's names, whitespace between)
                ok = s == ta.start && e == tb.end;
                for (int k = a; ok && k <= b; k++) {
                    ok = engine.get(k).kind == Kind.WORD;
                }
            }
            if (!ok) {
                return violation(ViolationType.UNSAFE_STRING_LITERAL, sql, s,
                        "the parser and the database split these characters into different tokens");
            }
        }
        while (pos < n && sql.charAt(pos) == ' ') {
            pos++;
        }
        if (pos < n && !(sql.charAt(pos) == ';' && sql.substring(pos + 1).isBlank())) {
            return violation(ViolationType.UNSAFE_STRING_LITERAL, sql, pos, "the parser stopped before the end");
        }
        return null;
    }

    /**
     * Replaces the guard's own named placeholders ({@code :prefixN}) by {@code ?}, returning the order
     * in which their indices occur; the tokens say where they are (never inside a literal).
     */
    public static String positionalise(String sql, Dialect dialect, String prefix, List<Integer> order) {
        return positionalise(sql, lex(sql, dialect, Integer.MAX_VALUE), prefix, order);
    }

    /**
     * {@link #positionalise(String, Dialect, String, List)} over a lexing already made of the SQL, so that
     * the text is not read once more.
     *
     * @param sql the SQL as given (the lexing's positions are its characters')
     * @param r the lexing of exactly that SQL, without a violation
     * @param prefix the markers' prefix
     * @param order receives each marker's number, in the order of the {@code ?} that replace them
     * @return the SQL with each marker replaced by {@code ?}
     */
    public static String positionalise(String sql, Result r, String prefix, List<Integer> order) {
        if (r.sql().length() != sql.length()) {
            throw new IllegalArgumentException("the lexing is not of this SQL");
        }
        StringBuilder out = new StringBuilder(sql.length());
        int copied = 0;
        List<Tok> toks = r.tokens();
        for (int t = 1; t < toks.size(); t++) {
            Tok tok = toks.get(t);
            Tok colon = toks.get(t - 1);
            String word = tok.kind == Kind.WORD ? tok.text(sql) : "";
            if (colon.kind == Kind.PUNCT && sql.charAt(colon.start) == ':' && colon.end == tok.start
                    && word.startsWith(prefix) && word.length() > prefix.length()
                    && word.substring(prefix.length()).chars().allMatch(SqlLexer::isDigitInt)) {
                order.add(Integer.parseInt(word.substring(prefix.length())));
                out.append(sql, copied, colon.start).append('?');
                copied = tok.end;
            }
        }
        out.append(sql, copied, sql.length());
        return out.toString();
    }

    private static boolean isDigitInt(int c) {
        return c >= '0' && c <= '9';
    }

    /** Whether a token is the punctuation character {@code c}. */
    public static boolean punct(String sql, Tok tok, char c) {
        return tok.kind == Kind.PUNCT && sql.charAt(tok.start) == c;
    }

    /** Whether a token is the unquoted word {@code w}, in any case. */
    public static boolean word(String sql, Tok tok, String w) {
        return tok.kind == Kind.WORD && tok.end - tok.start == w.length()
                && sql.regionMatches(true, tok.start, w, 0, w.length());
    }

    /**
     * The number of a marker the guard gave the parser in place of syntax it cannot read
     * ({@code DuckDbSpelling}, {@code MySqlSpelling}): {@code prefix} followed by up to six digits.
     *
     * @param folded a name, folded to lower case (may be null)
     * @param prefix the marker's prefix
     * @return the marker's number, or -1 when {@code folded} is no marker of {@code prefix}
     */
    public static int markerIndex(String folded, String prefix) {
        if (folded == null || !folded.startsWith(prefix)) {
            return -1;
        }
        String digits = folded.substring(prefix.length());
        return digits.matches("[0-9]{1,6}") ? Integer.parseInt(digits) : -1;
    }

    /** A name token's text without its quotes. */
    public static String unquoted(Tok tok, String sql) {
        String text = tok.text(sql);
        return tok.kind == Kind.IDENTIFIER && text.length() >= 2 ? text.substring(1, text.length() - 1) : text;
    }

    public static boolean isWordStart(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
    }

    public static boolean isWordChar(char c) {
        return isWordStart(c) || isDigit(c);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /**
     * One past the comment starting at {@code i} ({@code --} to the end of its line, or {@code /*} to the first
     * {@code *}{@code /}), where every engine ends it alike: -1 when they may not (a block comment holding
     * {@code /*}, which PostgreSQL, H2 and DuckDB nest and SQLite and MySQL do not; a carriage return not before a
     * line feed or another control character; on MySQL {@code --} not followed by a space, which is no comment
     * there; a block comment without its end), -2 for MySQL's executable {@code /*!} and {@code /*M!}.
     */
    private static int commentEnd(String sql, int i, boolean mysql) {
        int n = sql.length();
        if (sql.charAt(i) == '-') {
            if (mysql && (i + 2 >= n || " \t\n".indexOf(sql.charAt(i + 2)) < 0)) {
                return -1;
            }
            for (int k = i + 2; k < n; k++) {
                char d = sql.charAt(k);
                if (d == '\n') {
                    return k;
                }
                if (d == '\r' && (k + 1 >= n || sql.charAt(k + 1) != '\n') || d != '\r' && d != '\t' && d < 0x20
                        || d == 0x7f) {
                    return -1;
                }
            }
            return n;
        }
        if (mysql && (sql.startsWith("/*!", i) || sql.startsWith("/*M!", i))) {
            return -2;
        }
        for (int k = i + 2; k + 1 < n; k++) {
            char d = sql.charAt(k);
            if (d == '*' && sql.charAt(k + 1) == '/') {
                return k + 2;
            }
            if (d == '/' && sql.charAt(k + 1) == '*' || d < 0x20 && d != '\t' && d != '\n' && d != '\r'
                    || d == 0x7f) {
                return -1;
            }
        }
        return -1;
    }

    private static Result fail(String sql, List<Tok> out, int deepest, ViolationType type, int at, String message) {
        return new Result(sql, out, violation(type, sql, at, message), deepest);
    }

    private static Violation violation(ViolationType type, String sql, int at, String message) {
        return new Violation(type, fragment(sql, at), message);
    }

    public static String fragment(String sql, int at) {
        int from = Math.max(0, Math.min(at, sql.length()) - 10);
        int to = Math.min(sql.length(), Math.max(from, at) + 30);
        return sql.substring(from, to);
    }
}
