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
 * @param physicalOrder whether the statement must run with the engine's ordered index scans off (PostgreSQL's
 *     {@code enable_indexscan} and {@code enable_indexonlyscan}, for this transaction), so that a table with
 *     an index ordered by a denied column is read in its physical order; the guard sets it, the executor and
 *     the engine check apply it (see {@code docs/security.md}, "Row order from an index")
 */
public record SqlStatement(String sql, List<Object> parameters, boolean physicalOrder) {

    /**
     * Checks the text and copies the parameters into an unmodifiable list.
     *
     * @param sql the statement text, not null
     * @param parameters values bound to the placeholders, may hold nulls; copied
     * @param physicalOrder whether the statement must run with the engine's ordered index scans off
     * @throws NullPointerException if the text or the list is null
     */
    public SqlStatement {
        Objects.requireNonNull(sql, "sql");
        parameters = Collections.unmodifiableList(new ArrayList<>(Objects.requireNonNull(parameters, "parameters")));
    }

    /**
     * A statement run with the engine's plans unchanged.
     *
     * @param sql the statement text, not null
     * @param parameters values bound to the placeholders, may hold nulls; copied
     * @throws NullPointerException if the text or the list is null
     */
    public SqlStatement(String sql, List<Object> parameters) {
        this(sql, parameters, false);
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
