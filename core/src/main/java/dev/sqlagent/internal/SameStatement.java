package dev.sqlagent.internal;

import java.util.Set;

/**
 * A key under which two SQL texts are one statement to every engine and to the guard: the text with the
 * letter case of its reserved keywords made upper and its runs of white space made one space, and nothing
 * else changed. A model sampled n times often
 * answers the same query with {@code select} in one sample and {@code SELECT} in the next; keyed so, the
 * guard reads it once ({@link dev.sqlagent.guard.SqlGuard}'s verdicts, the agent's round of candidates).
 *
 * <p>Conservative by construction, so that equal keys can only come from texts the engines read alike:
 * <ul>
 *   <li>Only the leading part of the text made of letters, digits, {@code _}, white space and the
 *       punctuation {@code , . ( ) * = < > +} and {@code -} not followed by another is looked at. It holds no
 *       string, no quoted name, no comment, no parameter, no escape: at the first other character (a quote,
 *       {@code --}, {@code /}, {@code ;}, {@code :}, {@code ?}, a backslash, anything not ASCII) the rest of
 *       the text is kept as it is, so that no engine's rule for where a literal or a comment ends can matter.</li>
 *   <li>Only a whole word from {@link #KEYWORDS} is changed: words every engine the library supports reserves,
 *       and that the guard's printer writes in upper case whatever the input, so that the statement it prints
 *       and runs is the same for both texts. A word next to a {@code .} (a qualified name, where MySQL takes a
 *       reserved word for a name) and {@code LEFT} or {@code RIGHT} before {@code (} (a function, printed as
 *       written) are kept; {@code BY} only after {@code GROUP} or {@code ORDER}.</li>
 *   <li>In that part, each run of white space counts as one space: a run's length and its kind (a line
 *       break, a tab) mean nothing to an engine between tokens, and a run is never taken away or added, so
 *       no two tokens are joined or split. A syntax error's message, which names a line and a column, is
 *       not given to another text ({@link #givenAs}).</li>
 * </ul>
 * {@code SameStatementTest} checks over the Spider corpus that texts with one key get the same verdict.
 */
public final class SameStatement {

    /**
     * Reserved by both engines where an unquoted name's case can matter (MariaDB and MySQL for tables and
     * their aliases, H2 with {@code DATABASE_TO_UPPER=FALSE}), so never a name there; PostgreSQL, SQLite,
     * DuckDB and Trino fold or ignore the case of unquoted names anyway. JSqlParser prints each in upper case.
     * {@code BY}, {@code THEN}, {@code END}, {@code ASC}, {@code DESC} and {@code OUTER} are names to H2 or
     * MySQL and are left out; {@code BY} is taken only right after {@code GROUP} or {@code ORDER}.
     */
    static final Set<String> KEYWORDS = Set.of("SELECT", "FROM", "WHERE", "GROUP", "ORDER", "HAVING", "AND",
            "OR", "NOT", "IN", "AS", "ON", "JOIN", "INNER", "LEFT", "RIGHT", "CROSS", "UNION", "DISTINCT", "CASE",
            "WHEN", "ELSE", "IS", "NULL", "LIKE", "BETWEEN", "EXISTS", "LIMIT", "WITH");

    private SameStatement() {
    }

    /**
     * @param sql a SQL text
     * @return its key: {@code sql} itself when nothing in it is changed (most texts already write their
     *     keywords in upper case and space their words once)
     */
    public static String key(String sql) {
        int n = sql.length();
        int safe = 0;
        while (safe < n && (plain(sql.charAt(safe)) || minus(sql, safe))) {
            safe++;
        }
        char[] out = null;
        int i = 0;
        while (i < safe) {
            char c = sql.charAt(i);
            if (!word(c)) {
                i++;
                continue;
            }
            int start = i;
            while (i < safe && word(sql.charAt(i))) {
                i++;
            }
            // a word that runs past the plain part (into a quote, say) is not a whole word here
            if (i == safe && safe < n || !Character.isLetter(c)) {
                continue;
            }
            if (hasLower(sql, start, i) && foldable(sql, start, i, safe)) {
                if (out == null) {
                    out = sql.toCharArray();
                }
                for (int k = start; k < i; k++) {
                    char ch = out[k];
                    if (ch >= 'a' && ch <= 'z') {
                        out[k] = (char) (ch - 32);
                    }
                }
            }
        }
        String folded = out == null ? sql : new String(out);
        return spacedOnce(folded, safe);
    }

    /** Each run of white space in the plain part as one space: where a run is, not how long, is what counts. */
    private static String spacedOnce(String sql, int safe) {
        boolean needed = false;
        for (int k = 0; k < safe && !needed; k++) {
            char c = sql.charAt(k);
            needed = c != ' ' && space(c) || c == ' ' && k + 1 < safe && space(sql.charAt(k + 1));
        }
        if (!needed) {
            return sql;
        }
        StringBuilder b = new StringBuilder(sql.length());
        int k = 0;
        while (k < safe) {
            char c = sql.charAt(k);
            if (space(c)) {
                while (k < safe && space(sql.charAt(k))) {
                    k++;
                }
                b.append(' ');
            } else {
                b.append(c);
                k++;
            }
        }
        return b.append(sql, safe, sql.length()).toString();
    }

    /**
     * A verdict given for one text, for another text of the same statement: the same reading, the same
     * statement to run, the other text as given.
     *
     * @param v the verdict
     * @param sql the other text, whose {@link #key} is the verdict's text's
     * @return the verdict for {@code sql}; null for a syntax error, whose message names a line and a column
     *     of the text it was found in (the other text is to be read itself)
     */
    public static dev.sqlagent.guard.GuardVerdict givenAs(dev.sqlagent.guard.GuardVerdict v, String sql) {
        if (v.sql().equals(sql)) {
            return v;
        }
        if (v instanceof dev.sqlagent.guard.GuardVerdict.Unparseable) {
            return null;
        }
        if (v instanceof dev.sqlagent.guard.GuardVerdict.Accepted a) {
            return new dev.sqlagent.guard.GuardVerdict.Accepted(sql, a.statement(), a.tables(), a.columns());
        }
        return new dev.sqlagent.guard.GuardVerdict.Rejected(sql,
                ((dev.sqlagent.guard.GuardVerdict.Rejected) v).violations());
    }

    private static boolean foldable(String sql, int start, int end, int safe) {
        if (end - start > 8) {
            return false;
        }
        String w = upper(sql, start, end);
        int before = start - 1;
        while (before >= 0 && space(sql.charAt(before))) {
            before--;
        }
        if (w.equals("BY")) {
            int from = before + 1;
            while (from > 0 && word(sql.charAt(from - 1))) {
                from--;
            }
            String previous = upper(sql, from, before + 1);
            int beforePrevious = from - 1;
            while (beforePrevious >= 0 && space(sql.charAt(beforePrevious))) {
                beforePrevious--;
            }
            if (!previous.equals("GROUP") && !previous.equals("ORDER")
                    || beforePrevious >= 0 && sql.charAt(beforePrevious) == '.') {
                return false;
            }
        } else if (!KEYWORDS.contains(w)) {
            return false;
        }
        int after = end;
        while (after < safe && space(sql.charAt(after))) {
            after++;
        }
        if (before >= 0 && sql.charAt(before) == '.' || after < safe && sql.charAt(after) == '.') {
            return false;
        }
        boolean call = after < sql.length() && sql.charAt(after) == '(';
        return !(call && (w.equals("LEFT") || w.equals("RIGHT")));
    }

    private static String upper(String sql, int start, int end) {
        char[] w = new char[end - start];
        for (int k = start; k < end; k++) {
            char ch = sql.charAt(k);
            w[k - start] = ch >= 'a' && ch <= 'z' ? (char) (ch - 32) : ch;
        }
        return new String(w);
    }

    private static boolean hasLower(String sql, int start, int end) {
        for (int k = start; k < end; k++) {
            char ch = sql.charAt(k);
            if (ch >= 'a' && ch <= 'z') {
                return true;
            }
        }
        return false;
    }

    private static boolean word(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
    }

    private static boolean space(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    /** A minus sign ({@code id > -7}), never the start of a line comment. */
    private static boolean minus(String sql, int i) {
        return sql.charAt(i) == '-' && (i + 1 == sql.length() || sql.charAt(i + 1) != '-');
    }

    private static boolean plain(char c) {
        return word(c) || space(c) || c == ',' || c == '.' || c == '(' || c == ')' || c == '*' || c == '='
                || c == '<' || c == '>' || c == '+';
    }
}
