package dev.sqlagent.guard;

import java.util.Objects;

/**
 * One reason the guard refused a SQL.
 *
 * @param type the kind of violation
 * @param fragment the offending part of the SQL (a table name, a function, a clause), never null
 * @param message a sentence for people and logs; it is never shown to the model
 */
public record Violation(ViolationType type, String fragment, String message) {

    /**
     * Checks the parts.
     *
     * @param type the kind of violation
     * @param fragment the offending part of the SQL (a table name, a function, a clause), never null
     * @param message a sentence for people and logs; it is never shown to the model
     */
    public Violation {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(fragment, "fragment");
        Objects.requireNonNull(message, "message");
    }
}
