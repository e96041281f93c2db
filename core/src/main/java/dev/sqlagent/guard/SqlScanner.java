package dev.sqlagent.guard;

import java.util.List;

/**
 * A lexical pass over the raw SQL, before the parser: JSqlParser drops comments silently and reads some
 * literals differently from some databases, so those are refused here, from the characters themselves.
 *
 * <p>Quotes tracked: {@code '…'}, {@code "…"} and {@code `…`}, each ending at its closing quote with
 * the quote doubled as the only escape. A backslash inside any of them is refused, which is what keeps
 * this reading equal to every database's (MySQL's backslash escapes are the one disagreement). Brackets
 * are not treated as quotes, so a comment marker inside {@code […]} is refused too.
 */
final class SqlScanner {

    private SqlScanner() {
    }

    /** What the scan found: the first problem, if any, and the deepest nesting of parentheses. */
    record Result(Violation violation, int maxDepth) {
    }

    static Result scan(String sql, int maxDepth) {
        int depth = 0;
        int deepest = 0;
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                Violation prefix = quotePrefix(sql, i);
                if (prefix != null) {
                    return new Result(prefix, deepest);
                }
                int end = i + 1;
                while (true) {
                    if (end >= n) {
                        // unterminated: the parser reports it as a syntax error
                        return new Result(null, deepest);
                    }
                    char d = sql.charAt(end);
                    if (d == '\\') {
                        return new Result(new Violation(ViolationType.UNSAFE_STRING_LITERAL, fragment(sql, i),
                                "a quoted literal contains a backslash, which databases read differently"), deepest);
                    }
                    if (d < 0x20 && d != '\t' && d != '\n' && d != '\r' || d == 0x7f) {
                        return new Result(new Violation(ViolationType.SUSPICIOUS_CHARACTER, fragment(sql, i),
                                "a quoted literal contains a control character"), deepest);
                    }
                    if (c != '\'' && d > 0x7e) {
                        return new Result(new Violation(ViolationType.SUSPICIOUS_CHARACTER, fragment(sql, i),
                                "a quoted identifier contains a non-ASCII character (look-alike names)"), deepest);
                    }
                    if (d == c) {
                        if (end + 1 < n && sql.charAt(end + 1) == c) {
                            end += 2;
                            continue;
                        }
                        break;
                    }
                    end++;
                }
                i = end + 1;
                continue;
            }
            if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-'
                    || c == '/' && i + 1 < n && sql.charAt(i + 1) == '*'
                    || c == '*' && i + 1 < n && sql.charAt(i + 1) == '/'
                    || c == '#') {
                return new Result(new Violation(ViolationType.COMMENT, fragment(sql, i),
                        "comments are not allowed"), deepest);
            }
            if (c == '$') {
                return new Result(new Violation(ViolationType.UNSAFE_STRING_LITERAL, fragment(sql, i),
                        "'$' (dollar quoting, positional parameters) is not allowed"), deepest);
            }
            if (c == '?') {
                return new Result(new Violation(ViolationType.PARAMETER, fragment(sql, i),
                        "placeholders are not allowed in generated SQL"), deepest);
            }
            if (c == '{' || c == '}') {
                return new Result(new Violation(ViolationType.SUSPICIOUS_CHARACTER, fragment(sql, i),
                        "JDBC escape braces are not allowed"), deepest);
            }
            if (c == '\\') {
                return new Result(new Violation(ViolationType.SUSPICIOUS_CHARACTER, fragment(sql, i),
                        "a backslash outside a literal is not allowed"), deepest);
            }
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f) {
                return new Result(new Violation(ViolationType.SUSPICIOUS_CHARACTER, fragment(sql, i),
                        "control character U+" + String.format("%04X", (int) c) + " is not allowed"), deepest);
            }
            if (c > 0x7e) {
                return new Result(new Violation(ViolationType.SUSPICIOUS_CHARACTER, fragment(sql, i),
                        "non-ASCII character U+" + String.format("%04X", (int) c)
                                + " outside a string literal is not allowed (look-alike identifiers)"), deepest);
            }
            if (c == '(') {
                depth++;
                if (depth > deepest) {
                    deepest = depth;
                    if (deepest > maxDepth) {
                        return new Result(new Violation(ViolationType.NESTING_TOO_DEEP, fragment(sql, i),
                                "parentheses nested deeper than " + maxDepth), deepest);
                    }
                }
            } else if (c == ')') {
                depth--;
            }
            i++;
        }
        return new Result(null, deepest);
    }

    /** Refuses string prefixes that change where a literal ends or what it means: E'', U&'', Q'', _charset''. */
    private static Violation quotePrefix(String sql, int quote) {
        int start = quote;
        while (start > 0 && isIdentifierChar(sql.charAt(start - 1))) {
            start--;
        }
        String word = sql.substring(start, quote);
        if (quote > 0 && sql.charAt(quote - 1) == '&' && quote > 1
                && Character.toLowerCase(sql.charAt(quote - 2)) == 'u'
                && (quote < 3 || !isIdentifierChar(sql.charAt(quote - 3)))) {
            return new Violation(ViolationType.UNSAFE_STRING_LITERAL, fragment(sql, quote - 2),
                    "U&'…' literals and identifiers are not allowed");
        }
        if (word.isEmpty()) {
            return null;
        }
        String w = word.toLowerCase(java.util.Locale.ROOT);
        if (w.equals("e") || w.equals("q") || w.equals("nq") || w.startsWith("_") || w.equals("u")) {
            return new Violation(ViolationType.UNSAFE_STRING_LITERAL, fragment(sql, start),
                    word + "'…' literals are not allowed (the parser and the database may disagree where they end)");
        }
        return null;
    }

    private static boolean isIdentifierChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
    }

    static String fragment(String sql, int at) {
        int from = Math.max(0, at - 10);
        int to = Math.min(sql.length(), at + 30);
        return sql.substring(from, to);
    }

    /**
     * Replaces the guard's own named placeholders ({@code :prefixN}) outside quotes by {@code ?},
     * returning the order in which the indices occur.
     */
    static String positionalise(String sql, String prefix, List<Integer> order) {
        StringBuilder out = new StringBuilder(sql.length());
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = i + 1;
                while (end < n) {
                    if (sql.charAt(end) == c) {
                        if (end + 1 < n && sql.charAt(end + 1) == c) {
                            end += 2;
                            continue;
                        }
                        break;
                    }
                    end++;
                }
                int stop = Math.min(n, end + 1);
                out.append(sql, i, stop);
                i = stop;
                continue;
            }
            if (c == ':' && sql.startsWith(prefix, i + 1)) {
                int j = i + 1 + prefix.length();
                int k = j;
                while (k < n && Character.isDigit(sql.charAt(k))) {
                    k++;
                }
                if (k > j) {
                    order.add(Integer.parseInt(sql.substring(j, k)));
                    out.append('?');
                    i = k;
                    continue;
                }
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }
}
