package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import java.util.Locale;

/**
 * Identifier folding as each dialect does it. A folded key is compared with the policy's lower-case
 * entries: unquoted identifiers fold to lower case everywhere; a quoted identifier keeps its exact text
 * where the dialect is case-sensitive for quoted names, so {@code "Salary"} in PostgreSQL (a different
 * table from {@code salary}) never matches the entry {@code salary}.
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
     * @param part one identifier as written (perhaps quoted)
     * @param dialect the dialect
     * @return the key to compare with lower-case policy entries
     */
    static String fold(String part, Dialect dialect) {
        if (!isQuoted(part)) {
            return part.toLowerCase(Locale.ROOT);
        }
        String exact = unquote(part);
        switch (dialect) {
            case SQLITE:
            case SQLSERVER:
            case MYSQL:
            case MARIADB:
                return exact.toLowerCase(Locale.ROOT);
            case H2:
            case ORACLE:
                // unquoted names are stored upper case: only an all-upper quoted name is the same table
                return exact.equals(exact.toUpperCase(Locale.ROOT)) ? exact.toLowerCase(Locale.ROOT)
                        : UNMATCHABLE + exact;
            default:
                // PostgreSQL and ANSI: unquoted names are stored lower case
                return exact.equals(exact.toLowerCase(Locale.ROOT)) ? exact : UNMATCHABLE + exact;
        }
    }

    /** Case-sensitive (MySQL table names on Linux): the name exactly as written, unquoted. */
    static String exact(String part) {
        return unquote(part);
    }
}
