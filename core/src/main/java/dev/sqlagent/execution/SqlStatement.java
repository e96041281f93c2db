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

    /** Copies the parameters. */
    public SqlStatement {
        Objects.requireNonNull(sql, "sql");
        parameters = Collections.unmodifiableList(new ArrayList<>(Objects.requireNonNull(parameters, "parameters")));
    }

    /** @param sql the text  @return a statement without parameters */
    public static SqlStatement of(String sql) {
        return new SqlStatement(sql, List.of());
    }
}
