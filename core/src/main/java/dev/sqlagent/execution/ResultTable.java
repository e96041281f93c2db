package dev.sqlagent.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A bounded, immutable result: columns, rows, whether rows were cut at the cap, time taken.
 *
 * <p>Values are what JDBC returned, normalised to a few Java types: {@code null}, {@link String},
 * {@link Long}, {@link Double}, {@link java.math.BigDecimal}, {@link Boolean}, and ISO-8601 strings for
 * dates and times; binary values become a short description.
 *
 * @param columns the columns in select order
 * @param rows the rows, each with one value per column; unmodifiable
 * @param truncated whether more rows existed than the cap allowed
 * @param elapsed time from submission to the last row read
 */
public record ResultTable(List<ResultColumn> columns, List<List<Object>> rows, boolean truncated,
        Duration elapsed) {

    /**
     * Copies the parts into unmodifiable lists (rows may hold nulls).
     *
     * @param columns the columns in select order
     * @param rows the rows, each with one value per column; unmodifiable
     * @param truncated whether more rows existed than the cap allowed
     * @param elapsed time from submission to the last row read
     * @throws IllegalArgumentException if a row's width differs from the columns'
     */
    public ResultTable {
        columns = List.copyOf(Objects.requireNonNull(columns, "columns"));
        Objects.requireNonNull(rows, "rows");
        Objects.requireNonNull(elapsed, "elapsed");
        List<List<Object>> copy = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException(
                        "row width must be " + columns.size() + " but was " + row.size());
            }
            copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
        }
        rows = Collections.unmodifiableList(copy);
    }

    /** {@return the number of rows held} */
    public int rowCount() {
        return rows.size();
    }

    /** {@return the column names in order} */
    public List<String> columnNames() {
        List<String> names = new ArrayList<>(columns.size());
        for (ResultColumn c : columns) {
            names.add(c.name());
        }
        return names;
    }
}
