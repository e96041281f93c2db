package dev.sqlagent.engine;

import dev.sqlagent.execution.ErrorCategory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** How an engine writes down the categories of its errors: a table of vendor codes, and message rules. */
public final class ErrorTables {

    private ErrorTables() {
    }

    /**
     * A message pattern and the category it means.
     *
     * @param pattern the pattern, found anywhere in the lower-case message
     * @param category the category
     */
    public record Rule(Pattern pattern, ErrorCategory category) {
    }

    /**
     * @param category the category
     * @param regex the pattern, for lower-case messages
     * @return the rule
     */
    public static Rule rule(ErrorCategory category, String regex) {
        return new Rule(Pattern.compile(regex), category);
    }

    /**
     * @param rules rules, most specific first
     * @param lowerMessage a message in lower case
     * @return the category of the first rule that matches, or null
     */
    public static ErrorCategory first(List<Rule> rules, String lowerMessage) {
        for (Rule r : rules) {
            if (r.pattern().matcher(lowerMessage).find()) {
                return r.category();
            }
        }
        return null;
    }

    /**
     * A table of vendor codes.
     *
     * @param categoryThenCodes a category, then an {@code int[]} of its codes, and so on
     * @return the codes to their categories
     * @throws IllegalStateException if a code is listed twice
     */
    public static Map<Integer, ErrorCategory> codes(Object... categoryThenCodes) {
        Map<Integer, ErrorCategory> map = new HashMap<>();
        for (int i = 0; i < categoryThenCodes.length; i += 2) {
            ErrorCategory category = (ErrorCategory) categoryThenCodes[i];
            for (int code : (int[]) categoryThenCodes[i + 1]) {
                ErrorCategory previous = map.put(code, category);
                if (previous != null) {
                    throw new IllegalStateException("code " + code + " listed as " + previous + " and " + category);
                }
            }
        }
        return Map.copyOf(map);
    }
}
