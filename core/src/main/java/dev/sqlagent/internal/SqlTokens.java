package dev.sqlagent.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * A lenient, dialect-neutral reading of SQL text into tokens, for comparing SQL texts (is a correction
 * the same SQL? is this the failure a cached fix was learnt for?) and for simple structural questions
 * (does the statement order its rows at the top level?). It never refuses input: the guard's own lexer
 * decides what may run; this one only compares.
 *
 * <p>Words (keywords and unquoted identifiers) are folded to lower case, ASCII letters only; string
 * literals ({@code '…'} with {@code ''} inside) and quoted identifiers ({@code "…"}, {@code `…`},
 * {@code […]}) are kept exactly, quotes included; numbers and operators as written. Whitespace and
 * comments outside literals ({@code -- …} to the end of the line, {@code /* … *}{@code /}) are dropped,
 * and so are trailing semicolons.
 */
public final class SqlTokens {

    private SqlTokens() {
    }

    /** What a token is. */
    public enum Kind {
        /** A keyword or unquoted identifier. */
        WORD,
        /** A number. */
        NUMBER,
        /** A string literal, quotes included. */
        STRING,
        /** A quoted identifier, quotes included. */
        QUOTED,
        /** An operator or punctuation. */
        SYMBOL
    }

    /**
     * A token and where it stands.
     *
     * @param kind what it is
     * @param start its first character's index
     * @param end the index just past it
     */
    public record Token(Kind kind, int start, int end) {
        /** @param sql the text it was read from  @return its text as written */
        public String text(String sql) {
            return sql.substring(start, end);
        }
    }

    /**
     * @param sql a SQL text
     * @return its tokens in order, with their positions; whitespace and comments are skipped
     */
    public static List<Token> scan(String sql) {
        List<Token> out = new ArrayList<>();
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '\'' || c == '"' || c == '`' || c == '[') {
                int end = closing(sql, i, c == '[' ? ']' : c);
                out.add(new Token(c == '\'' ? Kind.STRING : Kind.QUOTED, i, end));
                i = end;
            } else if (Character.isLetter(c) || c == '_') {
                int end = i + 1;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_'
                        || sql.charAt(end) == '$')) {
                    end++;
                }
                out.add(new Token(Kind.WORD, i, end));
                i = end;
            } else if (Character.isDigit(c)) {
                int end = i + 1;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '.')) {
                    end++;
                }
                out.add(new Token(Kind.NUMBER, i, end));
                i = end;
            } else {
                int end = i + 1;
                if (c == ':' && end < n && sql.charAt(end) == ':') {
                    end++;
                } else {
                    while (end < n && end - i < 3 && OPERATOR.indexOf(sql.charAt(end)) >= 0 && OPERATOR.indexOf(c) >= 0) {
                        end++;
                    }
                }
                out.add(new Token(Kind.SYMBOL, i, end));
                i = end;
            }
        }
        return out;
    }

    private static final String OPERATOR = "<>=!|&";

    /**
     * @param sql a SQL text
     * @return its tokens in canonical form: words in lower case (ASCII letters only), everything else as
     *     written; trailing semicolons dropped
     */
    public static List<String> of(String sql) {
        List<String> out = new ArrayList<>();
        for (Token t : scan(sql)) {
            String text = t.text(sql);
            out.add(t.kind() == Kind.WORD ? asciiLower(text) : text);
        }
        while (!out.isEmpty() && out.get(out.size() - 1).equals(";")) {
            out.remove(out.size() - 1);
        }
        return out;
    }

    /**
     * @param a a SQL text
     * @param b another
     * @return whether their tokens are the same (case differs only in words; literals and quoted names
     *     exactly; whitespace, comments and trailing semicolons ignored)
     */
    public static boolean same(String a, String b) {
        return of(a).equals(of(b));
    }

    /**
     * @param sql a SQL text
     * @return its canonical text: the tokens joined by single spaces
     */
    public static String canonical(String sql) {
        return String.join(" ", of(sql));
    }

    /**
     * @param sql a SQL text
     * @return whether it has an {@code ORDER BY} outside parentheses
     */
    public static boolean ordersAtTopLevel(String sql) {
        List<String> t = of(sql);
        int depth = 0;
        for (int i = 0; i < t.size(); i++) {
            String s = t.get(i);
            if (s.equals("(")) {
                depth++;
            } else if (s.equals(")")) {
                depth--;
            } else if (depth == 0 && s.equals("order") && i + 1 < t.size() && t.get(i + 1).equals("by")) {
                return true;
            }
        }
        return false;
    }

    /** The index just past the closing quote; a doubled quote inside stays inside; unterminated runs to the end. */
    private static int closing(String sql, int open, char close) {
        int i = open + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == close) {
                if (close != ']' && i + 1 < sql.length() && sql.charAt(i + 1) == close) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }

    private static String asciiLower(String word) {
        StringBuilder sb = null;
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                if (sb == null) {
                    sb = new StringBuilder(word);
                }
                sb.setCharAt(i, (char) (c + 32));
            }
        }
        return sb == null ? word : sb.toString();
    }
}
