package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.internal.Identifiers;

/**
 * Identifier folding as each dialect does it (the rules themselves are {@link Identifiers}). A folded key is
 * compared with the policy's lower-case entries: unquoted identifiers fold to lower case everywhere; a quoted identifier keeps its exact text
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
    static final String UNMATCHABLE = Identifiers.UNMATCHABLE;

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

    static String lower(String s) {
        return Identifiers.lower(s);
    }

    static String upper(String s) {
        return Identifiers.upper(s);
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
        return fold(part, Identifiers.columns(dialect));
    }

    /**
     * @param part one identifier as written (perhaps quoted)
     * @param rule the comparison rule
     * @return its key under the rule ({@link Identifiers#key})
     */
    static String fold(String part, Identifiers.Rule rule) {
        String p = part.trim();
        return Identifiers.key(rule, unquote(p), isQuoted(p));
    }

    /** Case-sensitive (MySQL table names on Linux): the name exactly as written, unquoted. */
    static String exact(String part) {
        return unquote(part);
    }
}
