package dev.sqlagent.guard;

import java.util.Objects;

/**
 * A mandatory row filter: wherever the SQL reads {@code table}, the guard reads it through
 * {@code (SELECT * FROM table WHERE column = ?)} instead, with {@code value} bound to the placeholder
 * (never pasted into the text). This holds in subqueries, CTE bodies, joins and set operations.
 *
 * @param table the filtered table, as in {@link GuardPolicy.Builder#allowTables(String...)}; lower case
 * @param column the column compared, unquoted; lower case
 * @param value the value bound to the placeholder; may be null only if the database should match nothing
 */
public record RowFilter(String table, String column, Object value) {

    /**
     * Checks and normalises the names.
     *
     * @param table the filtered table, as in {@link GuardPolicy.Builder#allowTables(String...)}; lower case
     * @param column the column compared, unquoted; lower case
     * @param value the value bound to the placeholder; may be null only if the database should match nothing
     */
    public RowFilter {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(column, "column");
        if (table.isBlank() || column.isBlank()) {
            throw new IllegalArgumentException("row filter needs a table and a column but was '"
                    + table + "." + column + "'");
        }
        if (!column.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("row filter column must be a plain identifier but was '" + column + "'");
        }
        table = GuardPolicy.normalise(table);
        column = GuardPolicy.normalise(column);
    }
}
