package dev.sqlagent.choose;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a SQL text does, read without a parser (so it works for every dialect and for SQL a parser would
 * refuse): string literals are blanked, the rest lower-cased, and keywords found at the top level
 * (outside parentheses) or anywhere. Immutable.
 *
 * @param topOrderBy an {@code ORDER BY} outside every parenthesis
 * @param limit a {@code LIMIT}, {@code TOP} or {@code FETCH FIRST} anywhere
 * @param groupBy a {@code GROUP BY} anywhere
 * @param distinct a {@code DISTINCT} anywhere
 * @param extremum {@code MAX(} or {@code MIN(} anywhere
 * @param count {@code COUNT(} anywhere
 * @param identifiers the identifiers the SQL names (lower case, quotes removed, qualifiers split)
 */
record SqlShape(boolean topOrderBy, boolean limit, boolean groupBy, boolean distinct, boolean extremum, boolean count,
        Set<String> identifiers) {

    private static final Pattern LITERAL = Pattern.compile("'(?:[^']|'')*'");
    private static final Pattern ORDER_BY = Pattern.compile("\\border\\s+by\\b");
    private static final Pattern LIMIT = Pattern.compile("\\blimit\\s+\\d|\\btop\\s*\\(?\\s*\\d|\\bfetch\\s+first\\b");
    private static final Pattern GROUP_BY = Pattern.compile("\\bgroup\\s+by\\b");
    private static final Pattern DISTINCT = Pattern.compile("\\bdistinct\\b");
    private static final Pattern EXTREMUM = Pattern.compile("\\b(max|min)\\s*\\(");
    private static final Pattern COUNT = Pattern.compile("\\bcount\\s*\\(");
    private static final Pattern IDENTIFIER = Pattern.compile("\"([^\"]+)\"|`([^`]+)`|\\[([^\\]]+)]|([\\p{L}_][\\p{L}\\p{N}_$]*)");

    /**
     * @param sql a SQL text
     * @return its shape
     */
    static SqlShape of(String sql) {
        String s = blanked(sql);
        CharSequence top = topLevel(s);
        Set<String> ids = new LinkedHashSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            for (int g = 1; g <= 4; g++) {
                if (m.group(g) != null) {
                    ids.add(m.group(g).trim());
                }
            }
        }
        return new SqlShape(ORDER_BY.matcher(top).find(), LIMIT.matcher(s).find(), GROUP_BY.matcher(s).find(),
                DISTINCT.matcher(s).find(), EXTREMUM.matcher(s).find(), COUNT.matcher(s).find(), Set.copyOf(ids));
    }

    /**
     * @param sql a SQL text
     * @return whether it has an {@code ORDER BY} outside every parenthesis ({@link #topOrderBy()} without the rest)
     */
    static boolean topOrderBy(String sql) {
        return ORDER_BY.matcher(topLevel(blanked(sql))).find();
    }

    /** String literals blanked, the rest lower-cased. */
    private static String blanked(String sql) {
        return LITERAL.matcher(sql).replaceAll("''").toLowerCase(Locale.ROOT);
    }

    /** The text with everything inside parentheses (and the parentheses) blanked. */
    private static CharSequence topLevel(String s) {
        StringBuilder top = new StringBuilder(s.length());
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') {
                depth++;
                top.append(' ');
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
                top.append(' ');
            } else {
                top.append(depth == 0 ? c : ' ');
            }
        }
        return top;
    }
}
