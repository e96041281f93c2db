package dev.sqlagent.guard;

import dev.sqlagent.Dialect;

/**
 * Identifier folding as each dialect does it. A folded key is compared with the policy's lower-case
 * entries: unquoted identifiers fold to lower case everywhere; a quoted identifier keeps its exact text
 * where the dialect is case-sensitive for quoted names, so {@code "Salary"} in PostgreSQL (a different
 * table from {@code salary}) never matches the entry {@code salary}.
 *
 * <p>Folding is ASCII-only, as the engines fold names (SQLite, PostgreSQL, MySQL, H2 fold only
 * {@code A–Z}): Java's {@code toLowerCase} would map U+212A KELVIN SIGN to {@code k} and so make a name
 * match a table the engine never reads. A name whose ASCII and Unicode foldings differ is refused
 * ({@link #foldsAlike}); the lexer refuses non-ASCII names before this is reached.
 */
final class Names {

    /** Prefix of a key that can match no policy entry (quoted names of another case). */
    static final String UNMATCHABLE = "\u0000";

    private Names() {
    }

    static boolean isQuoted(String part) {
        if (part.length() < 2) {
            return false;
        }
        char f = part.charAt(0);
        char l = part.charAt(part.length() - 1);
        return f == '"' && l == '"' || f == '`' && l == '`' || f == '[' && l == ']';
    }

    static String unquote(String part) {
        if (!isQuoted(part)) {
            return part;
        }
        char q = part.charAt(0);
        String inner = part.substring(1, part.length() - 1);
        return q == '[' ? inner.replace("]]", "]") : inner.replace(String.valueOf(q) + q, String.valueOf(q));
    }

    /**
     * @param s a name
     * @return it with {@code A–Z} mapped to {@code a–z} and nothing else changed
     */
    static String lower(String s) {
        int i = 0;
        int n = s.length();
        while (i < n && !(s.charAt(i) >= 'A' && s.charAt(i) <= 'Z')) {
            i++;
        }
        if (i == n) {
            return s;
        }
        char[] c = s.toCharArray();
        for (; i < n; i++) {
            if (c[i] >= 'A' && c[i] <= 'Z') {
                c[i] = (char) (c[i] + ('a' - 'A'));
            }
        }
        return new String(c);
    }

    /**
     * @param s a name
     * @return it with {@code a–z} mapped to {@code A–Z} and nothing else changed
     */
    static String upper(String s) {
        char[] c = s.toCharArray();
        for (int i = 0; i < c.length; i++) {
            if (c[i] >= 'a' && c[i] <= 'z') {
                c[i] = (char) (c[i] - ('a' - 'A'));
            }
        }
        return new String(c);
    }

    /**
     * @param s a name
     * @return whether ASCII folding and Java's full Unicode folding agree on it (both directions)
     */
    static boolean foldsAlike(String s) {
        return lower(s).equals(s.toLowerCase(java.util.Locale.ROOT)) && upper(s).equals(s.toUpperCase(java.util.Locale.ROOT));
    }

    /**
     * @param part one identifier as written (perhaps quoted)
     * @param dialect the dialect
     * @return the key to compare with lower-case policy entries
     */
    static String fold(String part, Dialect dialect) {
        if (!isQuoted(part)) {
            return lower(part);
        }
        String exact = unquote(part);
        switch (dialect) {
            case SQLITE:
            case DUCKDB:
            case SQLSERVER:
            case MYSQL:
            case MARIADB:
                return lower(exact);
            case H2:
            case ORACLE:
                // unquoted names are stored upper case: only an all-upper quoted name is the same table
                return exact.equals(upper(exact)) ? lower(exact) : UNMATCHABLE + exact;
            default:
                // PostgreSQL and ANSI: unquoted names are stored lower case
                return exact.equals(lower(exact)) ? exact : UNMATCHABLE + exact;
        }
    }

    /** Case-sensitive (MySQL table names on Linux): the name exactly as written, unquoted. */
    static String exact(String part) {
        return unquote(part);
    }
}
