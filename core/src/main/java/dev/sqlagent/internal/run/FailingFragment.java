package dev.sqlagent.internal.run;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the fragment of a SQL that an error message points at (an unknown column or table, a quoted
 * name, the token at a reported position), so that the correction can be told which part failed and
 * asked to change only that part. A fragment is returned only when it occurs in the SQL.
 */
final class FailingFragment {

    private static final Pattern[] NAME_PATTERNS = {
        Pattern.compile("(?i)no such (?:column|table|function): ([\\w.\"`\\[\\]]+)"),
        Pattern.compile("(?i)(?:column|table|relation|function) \"([^\"]+)\"( does not exist| not found)"),
        Pattern.compile("(?i)unknown (?:column|table) '([^']+)'"),
        Pattern.compile("(?i)table '([^']+)' doesn't exist"),
        Pattern.compile("(?i)ambiguous column name: ([\\w.]+)"),
        Pattern.compile("(?i)column reference \"([^\"]+)\" is ambiguous"),
        Pattern.compile("(?i)(?:column|table|function) \"([^\"]+)\""),
        Pattern.compile("(?i)(?:near|at or near) \"([^\"]+)\""),
        Pattern.compile("(?i)encountered:? [^\"]*\"([^\"]+)\""),
        Pattern.compile("(?i)does not exist: ([\\w.]+)"),
    };

    private FailingFragment() {
    }

    /**
     * @param message the error message
     * @param sql the SQL that failed
     * @return the fragment of the SQL the message names, if it can be located
     */
    static Optional<String> locate(String message, String sql) {
        String lowerSql = sql.toLowerCase(Locale.ROOT);
        for (Pattern p : NAME_PATTERNS) {
            Matcher m = p.matcher(message);
            while (m.find()) {
                String name = m.group(1).replaceAll("[\"`\\[\\]]", "");
                String[] parts = name.split("\\.");
                for (int i = 0; i < parts.length; i++) {
                    String candidate = String.join(".", java.util.Arrays.copyOfRange(parts, i, parts.length));
                    int at = lowerSql.indexOf(candidate.toLowerCase(Locale.ROOT));
                    if (!candidate.isBlank() && at >= 0) {
                        return Optional.of(sql.substring(at, at + candidate.length()));
                    }
                }
            }
        }
        return Optional.empty();
    }
}
