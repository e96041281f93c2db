package dev.sqlagent.internal.run;

import java.util.Locale;

/** Whether two SQL texts count as the same for the rule "a correction returning the same SQL stops". */
final class SameSql {

    private SameSql() {
    }

    /**
     * @param a a SQL
     * @param b another
     * @return whether they count as the same: equal after collapsing whitespace, dropping trailing
     *     semicolons and ignoring letter case
     */
    static boolean same(String a, String b) {
        return normalise(a).equals(normalise(b));
    }

    private static String normalise(String sql) {
        String s = sql.trim().replaceAll("\\s+", " ");
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).trim();
        }
        return s.toLowerCase(Locale.ROOT);
    }
}
