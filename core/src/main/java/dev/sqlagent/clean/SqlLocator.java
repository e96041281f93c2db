package dev.sqlagent.clean;

import java.util.Locale;
import java.util.Set;

/**
 * Finds where the SQL starts in a reply: the first statement keyword that sits where SQL begins (at the
 * start of a line, after a colon or a tag) and is followed by SQL-looking text; failing that, the first
 * upper-case one anywhere. Lower-case keywords count only where SQL begins ("we select the names" is
 * prose); capitalised ones ("Select the rows…") never count.
 *
 * <p>Not only SELECT and WITH are found: INSERT, DELETE, DROP and the other statements are found too,
 * so that a reply that writes one reaches the guard, which rejects it with a reason, instead of being
 * mistaken for "no SQL" or, worse, cut down to a SELECT nested inside it.
 */
final class SqlLocator {

    /** At most this many keywords are examined, and each over at most {@link #WINDOW} characters. */
    private static final int MAX_CHECKS = 2_000;
    private static final int WINDOW = 4_000;

    /** Statements that need nothing but a plausible next word; checked by {@link #statementFollows}. */
    private static final Set<String> STATEMENTS = Set.of("SELECT", "WITH", "VALUES", "INSERT", "UPDATE", "DELETE",
            "MERGE", "UPSERT", "REPLACE", "DROP", "CREATE", "ALTER", "TRUNCATE", "RENAME", "GRANT", "REVOKE", "EXEC",
            "EXECUTE", "CALL", "PRAGMA", "ATTACH", "DETACH", "VACUUM", "COPY", "LOAD", "SHOW", "DESCRIBE", "EXPLAIN",
            "SET", "USE", "BEGIN", "COMMIT", "ROLLBACK", "LOCK", "UNLOCK", "ANALYZE", "DECLARE", "KILL", "SHUTDOWN",
            "HANDLER", "REINDEX", "OPTIMIZE", "INSTALL", "UNINSTALL", "FORCE", "EXPORT", "IMPORT", "RESET",
            "CHECKPOINT", "SUMMARIZE");

    /** Statements so rare in prose that an upper-case spelling is required. */
    private static final Set<String> UPPER_ONLY = Set.of("PRAGMA", "ATTACH", "DETACH", "VACUUM", "COPY", "LOAD",
            "SHOW", "DESCRIBE", "SET", "USE", "BEGIN", "COMMIT", "ROLLBACK", "LOCK", "UNLOCK", "ANALYZE", "DECLARE",
            "KILL", "SHUTDOWN", "HANDLER", "REINDEX", "OPTIMIZE", "CALL", "EXEC", "EXECUTE", "INSTALL", "UNINSTALL",
            "FORCE", "EXPORT", "IMPORT", "RESET", "CHECKPOINT", "SUMMARIZE");

    private static final Set<String> OBJECTS = Set.of("TABLE", "VIEW", "INDEX", "DATABASE", "SCHEMA", "USER", "ROLE",
            "FUNCTION", "PROCEDURE", "TRIGGER", "SEQUENCE", "OR", "TEMP", "TEMPORARY", "UNIQUE", "MATERIALIZED",
            "EXTENSION", "IF", "TYPE", "COLUMN", "TABLESPACE", "OWNED", "POLICY", "EVENT", "VIRTUAL", "ALGORITHM",
            "DEFINER", "GLOBAL", "LOCAL", "UNLOGGED", "CLUSTERED", "NONCLUSTERED", "FULLTEXT", "SPATIAL", "SYNONYM",
            "PACKAGE", "DOMAIN", "RULE", "SERVER", "LOGIN", "PUBLICATION", "SUBSCRIPTION");

    private static final Set<String> PRIVILEGES = Set.of("SELECT", "INSERT", "UPDATE", "DELETE", "ALL", "USAGE",
            "EXECUTE", "CREATE", "ALTER", "DROP", "REFERENCES", "TRIGGER", "CONNECT", "TEMPORARY", "TRUNCATE",
            "GRANT", "ROLE", "FILE", "SUPER", "PROCESS", "RELOAD");

    /** A statement keyword right after one of these words or characters continues a statement. */
    private static final Set<String> CONTINUING_WORDS = Set.of("UNION", "ALL", "INTERSECT", "EXCEPT", "MINUS", "AS",
            "IN", "EXISTS", "FROM", "JOIN", "ON", "AND", "OR", "NOT", "WHERE", "SELECT", "WITH", "THEN", "ELSE", "WHEN",
            "ANY", "SOME", "DISTINCT", "BY", "HAVING", "LATERAL", "APPLY", "INTO", "EXPLAIN", "ANALYZE");

    private static final Set<String> SELECT_MODIFIERS = Set.of("DISTINCT", "ALL", "TOP", "DISTINCTROW",
            "SQL_NO_CACHE", "SQL_CALC_FOUND_ROWS", "STRAIGHT_JOIN", "HIGH_PRIORITY", "SQL_SMALL_RESULT",
            "SQL_BIG_RESULT", "SQL_BUFFER_RESULT", "SQL_CACHE", "ON");

    private SqlLocator() {
    }

    /**
     * Where the SQL starts.
     *
     * @param start first character of the SQL (an opening parenthesis or the keyword)
     * @param wrapper quote, backtick or bold marker right before the keyword, to be matched at the end
     * @param inProseParenthesis whether the keyword follows a parenthesis that belongs to the prose
     */
    record Start(int start, String wrapper, boolean inProseParenthesis) {
    }

    /** {@return where the SQL starts in {@code t}, or null when nothing there looks like SQL} */
    static Start find(String t) {
        int n = t.length();
        int checks = 0;
        Start fallback = null;
        for (int i = 0; i < n; i++) {
            char c = t.charAt(i);
            if (!Chars.isAsciiLetter(c) || (i > 0 && Chars.isWordChar(t.charAt(i - 1)))) {
                continue;
            }
            int j = i;
            while (j < n && j - i < 10 && Chars.isAsciiLetter(t.charAt(j))) {
                j++;
            }
            if (j < n && Chars.isWordChar(t.charAt(j))) {
                i = j;
                continue;
            }
            String word = t.substring(i, j);
            String upper = word.toUpperCase(Locale.ROOT);
            if (!STATEMENTS.contains(upper)) {
                i = j - 1;
                continue;
            }
            boolean isUpper = word.equals(upper);
            boolean isLower = word.equals(word.toLowerCase(Locale.ROOT));
            Position pos = position(t, i);
            // a rare statement in lower case counts only where SQL begins and before a parenthesis or a
            // quote ("copy (select …) to 'f'", "attach 'f.db'"): never cut down to the query inside it
            boolean rareLower = isLower && UPPER_ONLY.contains(upper) && pos.strong && opensArgument(t, j);
            if (!isUpper && !(isLower && !UPPER_ONLY.contains(upper)) && !rareLower) {
                i = j - 1;
                continue;
            }
            if ((!pos.strong && !isUpper) || (fallback != null && !pos.strong)) {
                i = j - 1;
                continue;
            }
            if (++checks > MAX_CHECKS) {
                break;
            }
            if (statementFollows(t, j, upper, pos.strong)) {
                Start s = new Start(pos.start, pos.wrapper, pos.proseParen);
                if (pos.strong) {
                    return s;
                }
                fallback = s;
            }
            i = j - 1;
        }
        return fallback;
    }

    private record Position(boolean strong, int start, String wrapper, boolean proseParen) {
    }

    /** Whether the word ending at {@code j} is followed (after spaces) by an opening parenthesis or a quote. */
    private static boolean opensArgument(String t, int j) {
        int k = Chars.skipSpaces(t, j, j + 200);
        return k < t.length() && (t.charAt(k) == '(' || t.charAt(k) == '\'');
    }

    /**
     * Whether the keyword at {@code kw} stands where SQL begins: at the start of the text or of a line
     * (unless the line before ends in a way that continues a statement), after a colon, or after a tag
     * such as {@code <sql>}; allowing spaces, opening parentheses and a wrapping quote, backtick or bold
     * marker in between.
     */
    private static Position position(String t, int kw) {
        int w = kw;
        while (w > 0 && kw - w < 3 && isWrapper(t.charAt(w - 1))) {
            w--;
        }
        String wrapper = t.substring(w, kw);
        int q = w;
        int paren = -1;
        while (q > 0 && kw - q < 200) {
            char c = t.charAt(q - 1);
            if (c == '(') {
                paren = q - 1;
            } else if (!(c == ' ' || c == '\t' || c == '\u3000')) {
                break;
            }
            q--;
        }
        boolean strong;
        if (q == 0) {
            strong = true;
        } else {
            char before = t.charAt(q - 1);
            if (before == '\n' || before == '\r') {
                strong = !continuesStatement(t, q - 1);
            } else if (before == ':') {
                strong = !(q >= 2 && t.charAt(q - 2) == ':');
            } else if (before == '：') {
                strong = true;
            } else if (before == '>') {
                strong = afterTag(t, q - 1);
            } else {
                strong = false;
            }
        }
        if (paren >= 0) {
            return strong ? new Position(true, paren, "", false) : new Position(false, kw, "", true);
        }
        return new Position(strong, kw, wrapper, false);
    }

    private static boolean isWrapper(char c) {
        return c == '"' || c == '\'' || c == '`' || c == '“' || c == '‘' || c == '*' || c == '「' || c == '『';
    }

    /** {@code >} at {@code gt} closes a tag such as {@code <sql>} or {@code <answer>}. */
    private static boolean afterTag(String t, int gt) {
        int i = gt - 1;
        while (i >= 0 && gt - i < 32 && (Chars.isWordChar(t.charAt(i)) || t.charAt(i) == '-')) {
            i--;
        }
        return i >= 0 && i < gt - 1 && t.charAt(i) == '<';
    }

    /** Whether the text before the line break at {@code nl} ends like an unfinished statement. */
    private static boolean continuesStatement(String t, int nl) {
        int i = nl;
        while (i > 0 && nl - i < 1_000 && Chars.isSpace(t.charAt(i - 1))) {
            i--;
        }
        if (i == 0) {
            return false;
        }
        char c = t.charAt(i - 1);
        if ("(,=<>+-*/|&".indexOf(c) >= 0) {
            return true;
        }
        if (!Chars.isAsciiLetter(c)) {
            return false;
        }
        int s = i;
        while (s > 0 && i - s < 12 && Chars.isAsciiLetter(t.charAt(s - 1))) {
            s--;
        }
        String word = t.substring(s, i);
        return word.equals(word.toUpperCase(Locale.ROOT)) || word.equals(word.toLowerCase(Locale.ROOT))
                ? CONTINUING_WORDS.contains(word.toUpperCase(Locale.ROOT)) : false;
    }

    /** Whether what follows the keyword ending at {@code j} reads as that statement. */
    private static boolean statementFollows(String t, int j, String verb, boolean strong) {
        int n = t.length();
        if (j >= n) {
            return false;
        }
        char right = t.charAt(j);
        if (!(Chars.isSpace(right) || right == '(' || right == '*' || right == '"' || right == '`'
                || right == '[' || t.startsWith("/*", j))) {
            return false;
        }
        int k = Chars.skipSpacesAndComments(t, j, j + 200);
        if (k >= n) {
            return false;
        }
        String next = Chars.upperWordAt(t, k);
        switch (verb) {
            case "SELECT":
                return new SelectList(t, k, strong).looksLikeSql();
            case "WITH":
                return withClause(t, k);
            case "VALUES":
                return t.charAt(k) == '(';
            case "INSERT":
                return next.equals("INTO") || next.equals("OR") || next.equals("IGNORE") || next.equals("OVERWRITE")
                        || next.equals("ALL") || next.equals("FIRST");
            case "REPLACE":
            case "MERGE":
            case "UPSERT":
                return next.equals("INTO");
            case "UPDATE":
                return isIdentifierStart(t, k) && wordWithin(t, k, "SET", 300);
            case "DELETE":
                return next.equals("FROM") || (isIdentifierStart(t, k) && wordWithin(t, k, "FROM", 100));
            case "DROP":
            case "CREATE":
            case "ALTER":
            case "RENAME":
                return OBJECTS.contains(next);
            case "TRUNCATE":
                return next.equals("TABLE") || isIdentifierStart(t, k);
            case "GRANT":
            case "REVOKE":
                return PRIVILEGES.contains(next);
            case "EXPLAIN":
                return next.equals("SELECT") || next.equals("WITH") || next.equals("ANALYZE") || next.equals("QUERY")
                        || next.equals("FORMAT") || next.equals("VERBOSE") || next.equals("INSERT")
                        || next.equals("UPDATE") || next.equals("DELETE") || t.charAt(k) == '(';
            case "SHOW":
                return Set.of("TABLES", "DATABASES", "COLUMNS", "CREATE", "GRANTS", "VARIABLES", "PROCESSLIST",
                        "STATUS", "INDEX", "INDEXES", "SCHEMAS", "FULL", "ALL", "SEARCH_PATH", "TRIGGERS", "USERS")
                        .contains(next);
            case "SET":
                return (isIdentifierStart(t, k) || t.charAt(k) == '@')
                        && (charWithinLine(t, k, '=') || wordWithin(t, k, "TO", 80));
            default:
                // a parenthesis too: COPY (SELECT …) TO 'file' is a COPY, never the SELECT inside it
                return isIdentifierStart(t, k) || t.charAt(k) == '\'' || t.charAt(k) == ';' || t.charAt(k) == '@'
                        || t.charAt(k) == '(';
        }
    }

    private static boolean isIdentifierStart(String t, int k) {
        char c = t.charAt(k);
        return Character.isLetter(c) || c == '_' || c == '"' || c == '`' || c == '[';
    }

    /** Whether {@code word} (any case) occurs as a whole word within {@code limit} characters of {@code k}. */
    private static boolean wordWithin(String t, int k, String word, int limit) {
        int last = Math.min(t.length(), k + limit) - word.length();
        for (int at = k; at <= last; at++) {
            if (t.regionMatches(true, at, word, 0, word.length())
                    && (at == 0 || !Chars.isWordChar(t.charAt(at - 1)))
                    && (at + word.length() >= t.length() || !Chars.isWordChar(t.charAt(at + word.length())))) {
                return true;
            }
        }
        return false;
    }

    private static boolean charWithinLine(String t, int k, char c) {
        int end = Math.min(t.length(), k + 200);
        for (int i = k; i < end && t.charAt(i) != '\n'; i++) {
            if (t.charAt(i) == c) {
                return true;
            }
        }
        return false;
    }

    /** {@code WITH [RECURSIVE] name [(columns)] AS [NOT] [MATERIALIZED] (}. */
    private static boolean withClause(String t, int k) {
        int n = t.length();
        int p = k;
        if (Chars.upperWordAt(t, p).equals("RECURSIVE")) {
            p = Chars.skipSpacesAndComments(t, p + "RECURSIVE".length(), p + 200);
        }
        p = skipIdentifier(t, p);
        if (p < 0) {
            return false;
        }
        p = Chars.skipSpacesAndComments(t, p, p + 200);
        if (p < n && t.charAt(p) == '(') {
            int close = t.indexOf(')', p);
            if (close < 0 || close - p > 1_000) {
                return false;
            }
            p = Chars.skipSpacesAndComments(t, close + 1, close + 200);
        }
        if (!Chars.upperWordAt(t, p).equals("AS")) {
            return false;
        }
        p = Chars.skipSpacesAndComments(t, p + 2, p + 200);
        for (String optional : new String[] {"NOT", "MATERIALIZED"}) {
            if (Chars.upperWordAt(t, p).equals(optional)) {
                p = Chars.skipSpacesAndComments(t, p + optional.length(), p + 200);
            }
        }
        return p < n && t.charAt(p) == '(';
    }

    /** {@return the index after an identifier (plain, quoted, backticked or bracketed) at {@code p}, or -1} */
    private static int skipIdentifier(String t, int p) {
        int n = t.length();
        if (p >= n) {
            return -1;
        }
        char c = t.charAt(p);
        if (c == '"' || c == '`' || c == '[') {
            char close = c == '[' ? ']' : c;
            int e = t.indexOf(close, p + 1);
            return e < 0 || e - p > 200 ? -1 : e + 1;
        }
        if (!(Character.isLetter(c) || c == '_')) {
            return -1;
        }
        int e = p;
        while (e < n && e - p < 200 && Chars.isWordChar(t.charAt(e))) {
            e++;
        }
        return e;
    }

    /**
     * Reads what follows SELECT up to FROM and decides whether it is a select list: no sentence
     * punctuation, no run of three plain words ("SELECT clause picks columns"), and a FROM followed by a
     * table; or, at a place where SQL begins, a short list of expressions without FROM ({@code SELECT 1}).
     */
    private static final class SelectList {
        private final String t;
        private final int from;
        private final boolean strong;

        SelectList(String t, int from, boolean strong) {
            this.t = t;
            this.from = from;
            this.strong = strong;
        }

        boolean looksLikeSql() {
            int n = t.length();
            int limit = Math.min(n, from + WINDOW);
            int depth = 0;
            int run = 0; // consecutive plain words at depth 0
            boolean itemEmpty = true;
            boolean itemHasSqlChar = false;
            boolean allItemsHaveSqlChar = true;
            int items = 0;
            int i = from;
            while (i < limit) {
                char c = t.charAt(i);
                if (c == '\'' || c == '"' || c == '`' || c == '[') {
                    char close = c == '[' ? ']' : c;
                    int e = t.indexOf(close, i + 1);
                    if (e < 0 || e >= limit) {
                        return strong;
                    }
                    i = e + 1;
                    itemEmpty = false;
                    itemHasSqlChar = true;
                    run = 0;
                    continue;
                }
                if (c == '(' || c == '{') {
                    // a brace opens DuckDB's struct literal {'key': value}, nested like a parenthesis
                    depth++;
                    itemEmpty = false;
                    itemHasSqlChar = true;
                    run = 0;
                    i++;
                    continue;
                }
                if (c == ')' || c == '}') {
                    depth--;
                    if (depth < 0) {
                        return false;
                    }
                    i++;
                    continue;
                }
                if (depth > 0) {
                    i++;
                    continue;
                }
                if (c == '\n') {
                    int next = i + 1;
                    int k = next;
                    while (k < limit && Chars.isBlankLineChar(t.charAt(k))) {
                        k++;
                    }
                    if (k >= limit || t.charAt(k) == '\n' || Prose.isProseLine(t, next)) {
                        break;
                    }
                    i++;
                    continue;
                }
                if (Chars.isSpace(c) || c == '/' && t.startsWith("/*", i) || c == '-' && t.startsWith("--", i)) {
                    int after = Chars.skipSpacesAndComments(t, i, limit);
                    i = after > i ? after : i + 1;
                    continue;
                }
                if (c == ',') {
                    if (itemEmpty) {
                        return false;
                    }
                    allItemsHaveSqlChar &= itemHasSqlChar;
                    items++;
                    itemEmpty = true;
                    itemHasSqlChar = false;
                    run = 0;
                    i++;
                    continue;
                }
                if (c == ';' || Chars.isCjkPunctuation(c)) {
                    if (c == ';') {
                        break;
                    }
                    return false;
                }
                char d = i + 1 < n ? t.charAt(i + 1) : '\n';
                if (c == ':') {
                    if (d == ':' || d == '=') {
                        i += 2;
                        itemHasSqlChar = true;
                        continue;
                    }
                    return false;
                }
                if ((c == '.' || c == '?' || c == '!') && Chars.isSpace(d)) {
                    return false; // the end of a sentence
                }
                if (Character.isLetter(c) || c == '_') {
                    int e = i;
                    while (e < limit && (Chars.isWordChar(t.charAt(e)) || (t.charAt(e) == '.' && e + 1 < limit
                            && (Chars.isWordChar(t.charAt(e + 1)) || t.charAt(e + 1) == '"' || t.charAt(e + 1) == '`'
                            || t.charAt(e + 1) == '*')))) {
                        e++;
                    }
                    String word = t.substring(i, e);
                    String upper = word.toUpperCase(Locale.ROOT);
                    if (upper.equals("FROM")) {
                        if (itemEmpty && items == 0) {
                            return false;
                        }
                        return afterFrom(e);
                    }
                    if (itemEmpty && items == 0 && SELECT_MODIFIERS.contains(upper)) {
                        i = e;
                        continue;
                    }
                    itemEmpty = false;
                    if (Chars.SQL_WORDS.contains(upper) || word.indexOf('.') >= 0
                            || (e < limit && t.charAt(e) == '(')) {
                        run = 0;
                        itemHasSqlChar = true;
                    } else if (++run > 2) {
                        return false;
                    }
                    i = e;
                    continue;
                }
                // digits, operators, '*', '@', '$' and the like
                itemEmpty = false;
                itemHasSqlChar = true;
                run = 0;
                i++;
            }
            if (i >= limit && limit == from + WINDOW) {
                return strong; // a very long select list
            }
            // no FROM: only a short list of expressions where SQL begins, e.g. SELECT 1 or SELECT now()
            return strong && !itemEmpty && allItemsHaveSqlChar && itemHasSqlChar;
        }

        private boolean afterFrom(int e) {
            int k = Chars.skipSpaces(t, e, e + 200);
            if (k >= t.length()) {
                return false;
            }
            char c = t.charAt(k);
            // a quote: DuckDB reads a file or URL as a table (FROM 'data/x.csv'), for the guard to refuse
            return Character.isLetter(c) || c == '_' || c == '"' || c == '`' || c == '[' || c == '(' || c == '\'';
        }
    }
}
