package dev.sqlagent.clean;

/**
 * Finds where the SQL ends and tidies that end: explanation lines after the SQL, a closing quote or
 * backtick matching one before it, trailing semicolons, a full stop, a stray fence or closing tag.
 *
 * <p>Text after a semicolon is kept unless it reads as prose: {@code SELECT 1; DROP TABLE t} stays
 * whole, so that the guard sees (and rejects) the stacked statement instead of the cleaner hiding it.
 */
final class SqlEnd {

    private static final int NORMAL = 0;
    private static final int SINGLE = 1;
    private static final int DOUBLE = 2;
    private static final int BACKTICK = 3;
    private static final int LINE_COMMENT = 4;
    private static final int BLOCK_COMMENT = 5;

    private SqlEnd() {
    }

    /** {@return the SQL that starts at {@code start}, its end found and tidied; may be empty} */
    static String extract(String t, SqlLocator.Start start) {
        int end = regionEnd(t, start.start());
        String sql = t.substring(start.start(), end);
        if (start.inProseParenthesis()) {
            sql = cutAtUnbalancedClose(sql);
        }
        sql = unwrap(sql, start.wrapper());
        return tidy(sql);
    }

    /**
     * The end of the SQL starting at {@code start}: before the first line that reads as prose, or at a
     * semicolon followed by prose or by nothing; otherwise the end of the text. Quotes and comments are
     * followed so that a semicolon inside them does not count.
     */
    static int regionEnd(String t, int start) {
        int n = t.length();
        int state = NORMAL;
        int i = start;
        while (i < n) {
            char c = t.charAt(i);
            char d = i + 1 < n ? t.charAt(i + 1) : '\0';
            if (c == '\n' && state != BLOCK_COMMENT) {
                if (state == LINE_COMMENT) {
                    state = NORMAL;
                }
                if (Prose.isProseLine(t, i + 1)) {
                    return i;
                }
                i++;
                continue;
            }
            switch (state) {
                case NORMAL:
                    if (c == '\'') {
                        state = SINGLE;
                    } else if (c == '"') {
                        state = DOUBLE;
                    } else if (c == '`') {
                        state = BACKTICK;
                    } else if (c == '-' && d == '-') {
                        state = LINE_COMMENT;
                        i++;
                    } else if (c == '/' && d == '*') {
                        state = BLOCK_COMMENT;
                        i++;
                    } else if (c == ';') {
                        int j = Chars.skipSpaces(t, i + 1, n);
                        if (j >= n || Prose.isProseLine(t, j)) {
                            return i;
                        }
                    }
                    break;
                case SINGLE:
                    state = c == '\'' ? NORMAL : state;
                    break;
                case DOUBLE:
                    state = c == '"' ? NORMAL : state;
                    break;
                case BACKTICK:
                    state = c == '`' ? NORMAL : state;
                    break;
                case BLOCK_COMMENT:
                    if (c == '*' && d == '/') {
                        state = NORMAL;
                        i++;
                    }
                    break;
                default:
                    break;
            }
            i++;
        }
        return n;
    }

    /** For SQL that follows a parenthesis in prose: ends before the parenthesis that closes it. */
    static String cutAtUnbalancedClose(String sql) {
        int depth = 0;
        char quote = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth < 0) {
                return sql.substring(0, i);
            }
        }
        return sql;
    }

    /**
     * Removes the end of a wrapper seen before the SQL: a bold marker, or the quote or backtick that
     * closes the one before it. With a symmetric quote the closing one is the first that is followed by
     * a break (end, space, punctuation) and preceded by an even number of that quote inside the SQL, so
     * that {@code "SELECT … WHERE a = "x""} keeps its literal.
     */
    static String unwrap(String sql, String wrapper) {
        String s = sql;
        String w = wrapper;
        if (w.contains("**")) {
            int b = s.indexOf("**");
            if (b >= 0) {
                s = s.substring(0, b);
            }
            w = w.replace("*", "");
        }
        if (w.isEmpty()) {
            return s;
        }
        char open = w.charAt(w.length() - 1);
        if (open == '*') {
            return s;
        }
        char close = mirror(open);
        int count = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == close && (close != open || count % 2 == 0) && breakAt(s, i + 1)) {
                return s.substring(0, i);
            }
            if (c == open) {
                count++;
            }
        }
        return s;
    }

    private static char mirror(char open) {
        switch (open) {
            case '“':
                return '”';
            case '‘':
                return '’';
            case '「':
                return '」';
            case '『':
                return '』';
            default:
                return open;
        }
    }

    private static boolean breakAt(String s, int k) {
        if (k >= s.length()) {
            return true;
        }
        char c = s.charAt(k);
        if (Chars.isSpace(c) || ",;:!?)]}，。；：！？".indexOf(c) >= 0) {
            return true;
        }
        return c == '.' && (k + 1 >= s.length() || Chars.isSpace(s.charAt(k + 1)));
    }

    /**
     * Trims the end: spaces, semicolons (also full-width), a full stop, a stray fence, a closing tag such
     * as {@code </sql>}; repeated until nothing changes. Linear.
     */
    static String tidy(String sql) {
        int e = sql.length();
        while (true) {
            int before = e;
            while (e > 0 && Chars.isSpace(sql.charAt(e - 1))) {
                e--;
            }
            if (e == 0) {
                break;
            }
            char last = sql.charAt(e - 1);
            if (last == ';' || last == '；' || last == '。') {
                e--;
            } else if (last == '.' && !(e > 1 && sql.charAt(e - 2) == '.')) {
                e--;
            } else if (e >= 3 && sql.startsWith("```", e - 3)) {
                while (e > 0 && sql.charAt(e - 1) == '`') {
                    e--;
                }
            } else if (last == '>') {
                int lt = closingTagStart(sql, e);
                if (lt >= 0) {
                    e = lt;
                }
            }
            if (e == before) {
                break;
            }
        }
        return sql.substring(0, e);
    }

    /** {@return the start of a closing tag such as {@code </answer>} ending at {@code e}, or -1} */
    private static int closingTagStart(String s, int e) {
        int i = e - 2;
        while (i >= 0 && e - i < 32 && (Chars.isWordChar(s.charAt(i)) || s.charAt(i) == '-')) {
            i--;
        }
        return i >= 1 && i < e - 2 && s.charAt(i) == '/' && s.charAt(i - 1) == '<' ? i - 1 : -1;
    }
}
