package dev.sqlagent.clean;

import java.util.Locale;
import java.util.Set;

/** Character and word helpers shared by the cleaner's stages. All linear, none uses a regex. */
final class Chars {

    /** Words of SQL; a line or a run of words that starts with one of them is not prose. */
    static final Set<String> SQL_WORDS = Set.of("SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "JOIN", "INNER",
            "LEFT", "RIGHT", "FULL", "OUTER", "CROSS", "NATURAL", "ON", "USING", "GROUP", "BY", "ORDER", "HAVING",
            "LIMIT", "OFFSET", "FETCH", "UNION", "INTERSECT", "EXCEPT", "MINUS", "ALL", "DISTINCT", "AS", "CASE",
            "WHEN", "THEN", "ELSE", "END", "IN", "IS", "NULL", "LIKE", "ILIKE", "BETWEEN", "EXISTS", "ASC", "DESC",
            "WITH", "RECURSIVE", "VALUES", "INSERT", "UPDATE", "DELETE", "SET", "INTO", "DROP", "CREATE", "ALTER",
            "TABLE", "VIEW", "INDEX", "OVER", "PARTITION", "WINDOW", "FILTER", "LATERAL", "ESCAPE", "COLLATE",
            "CAST", "RETURNING", "TOP", "ANY", "SOME", "TRUE", "FALSE", "INTERVAL", "NULLS", "FIRST", "LAST",
            "ROWS", "ROW", "ONLY", "PRECEDING", "FOLLOWING", "UNBOUNDED", "CURRENT", "QUALIFY", "GLOB", "REGEXP",
            "RLIKE", "SIMILAR", "DIV", "MOD", "XOR", "DISTINCTROW", "STRAIGHT_JOIN", "APPLY", "PIVOT",
            "UNPIVOT", "TABLESAMPLE", "FOR", "SHARE", "NOWAIT", "SKIP", "LOCKED", "MATERIALIZED", "CONNECT",
            "START", "PRIOR", "DEFAULT", "DATE", "TIME", "TIMESTAMP");

    private Chars() {
    }

    static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    /** A character that continues an identifier or keyword. */
    static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /** Whitespace including the ideographic space (U+3000) and no-break space. */
    static boolean isSpace(char c) {
        return Character.isWhitespace(c) || c == '\u00A0' || c == '\u3000' || c == '\uFEFF';
    }

    static boolean isBlankLineChar(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\u00A0' || c == '\u3000';
    }

    /** A Chinese, Japanese or Korean character, or a full-width form. */
    static boolean isCjk(char c) {
        if (c < 0x2E80) {
            return false;
        }
        Character.UnicodeBlock b = Character.UnicodeBlock.of(c);
        return b == Character.UnicodeBlock.CJK_UNIFIED_IDEOGRAPHS
                || b == Character.UnicodeBlock.CJK_UNIFIED_IDEOGRAPHS_EXTENSION_A
                || b == Character.UnicodeBlock.CJK_COMPATIBILITY_IDEOGRAPHS
                || b == Character.UnicodeBlock.CJK_SYMBOLS_AND_PUNCTUATION
                || b == Character.UnicodeBlock.HALFWIDTH_AND_FULLWIDTH_FORMS
                || b == Character.UnicodeBlock.HIRAGANA
                || b == Character.UnicodeBlock.KATAKANA
                || b == Character.UnicodeBlock.HANGUL_SYLLABLES
                || b == Character.UnicodeBlock.CJK_RADICALS_SUPPLEMENT
                || b == Character.UnicodeBlock.HIGH_SURROGATES;
    }

    /** Full-width and CJK punctuation that never appears in SQL outside a string literal. */
    static boolean isCjkPunctuation(char c) {
        switch (c) {
            case '，': case '。': case '：': case '；': case '！': case '？': case '、': case '（': case '）':
            case '【': case '】': case '「': case '」': case '《': case '》': case '“': case '”': case '‘':
            case '’': case '…':
                return true;
            default:
                return false;
        }
    }

    /** Case-insensitive (ASCII) search of a short needle; linear in the text for a fixed needle. */
    static int indexOfIgnoreCase(String text, String needle, int from) {
        int last = text.length() - needle.length();
        char first = needle.charAt(0);
        char firstLower = Character.toLowerCase(first);
        char firstUpper = Character.toUpperCase(first);
        for (int i = Math.max(from, 0); i <= last; i++) {
            char c = text.charAt(i);
            if ((c == firstLower || c == firstUpper) && text.regionMatches(true, i, needle, 0, needle.length())) {
                return i;
            }
        }
        return -1;
    }

    /** {@return the index after the run of spaces, tabs and newlines starting at {@code i}, at most {@code limit}} */
    static int skipSpaces(String t, int i, int limit) {
        int end = Math.min(limit, t.length());
        while (i < end && isSpace(t.charAt(i))) {
            i++;
        }
        return i;
    }

    /**
     * {@return the first index at or after {@code i} that is neither a space nor inside an SQL comment
     * ({@code /* … *}{@code /}, {@code --} to the end of the line), at most {@code limit}} A comment is a space to
     * SQL: a model that comments its query ({@code WITH /* totals *}{@code / t AS (…)}) still wrote SQL there.
     */
    static int skipSpacesAndComments(String t, int i, int limit) {
        int end = Math.min(limit, t.length());
        while (i < end) {
            if (isSpace(t.charAt(i))) {
                i++;
            } else if (t.startsWith("/*", i)) {
                int close = t.indexOf("*/", i + 2);
                if (close < 0 || close + 2 > end) {
                    return i;
                }
                i = close + 2;
            } else if (t.startsWith("--", i)) {
                int nl = t.indexOf('\n', i);
                if (nl < 0 || nl >= end) {
                    return i;
                }
                i = nl + 1;
            } else {
                break;
            }
        }
        return i;
    }

    /** {@return the end of the ASCII-letter word starting at {@code i}} */
    static int asciiWordEnd(String t, int i) {
        int n = t.length();
        while (i < n && isAsciiLetter(t.charAt(i))) {
            i++;
        }
        return i;
    }

    /** {@return the ASCII word at {@code i}, upper-cased, or "" when none starts there} */
    static String upperWordAt(String t, int i) {
        if (i >= t.length() || !isAsciiLetter(t.charAt(i))) {
            return "";
        }
        int end = Math.min(asciiWordEnd(t, i), i + 24);
        if (end < t.length() && (isWordChar(t.charAt(end)))) {
            int e = end;
            while (e < t.length() && e < i + 40 && isWordChar(t.charAt(e))) {
                e++;
            }
            return t.substring(i, e).toUpperCase(Locale.ROOT);
        }
        return t.substring(i, end).toUpperCase(Locale.ROOT);
    }

    /** One line of a short preview: whitespace collapsed, at most {@code max} characters. */
    static String preview(String text, int max) {
        StringBuilder sb = new StringBuilder();
        boolean space = false;
        for (int i = 0; i < text.length() && sb.length() < max; i++) {
            char c = text.charAt(i);
            if (isSpace(c) || Character.isISOControl(c)) {
                space = sb.length() > 0;
            } else {
                if (space) {
                    sb.append(' ');
                    space = false;
                }
                sb.append(c);
            }
        }
        if (sb.length() >= max) {
            sb.append('…');
        }
        return sb.toString();
    }
}
