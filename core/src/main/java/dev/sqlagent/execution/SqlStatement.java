package dev.sqlagent.execution;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A SQL statement that the guard accepted, ready to run: its text with {@code ?} placeholders and the
 * values to bind to them, in order.
 *
 * @param sql the statement text
 * @param parameters values bound to the placeholders; unmodifiable, may hold nulls
 */
public record SqlStatement(String sql, List<Object> parameters) {

    /**
     * Checks the text and copies the parameters into an unmodifiable list.
     *
     * @param sql the statement text, not null
     * @param parameters values bound to the placeholders, may hold nulls; copied
     * @throws NullPointerException if the text or the list is null
     */
    public SqlStatement {
        Objects.requireNonNull(sql, "sql");
        parameters = Collections.unmodifiableList(new ArrayList<>(Objects.requireNonNull(parameters, "parameters")));
    }

    /**
     * Creates a statement without parameters.
     *
     * @param sql the statement text, not null
     * @return the statement
     * @throws NullPointerException if {@code sql} is null
     */
    public static SqlStatement of(String sql) {
        return new SqlStatement(sql, List.of());
    }
}
