package dev.sqlagent.execution;

import java.util.Objects;

/**
 * A column of a result table.
 *
 * @param name the column label
 * @param typeName the database's type name, e.g. {@code VARCHAR}
 * @param jdbcType the {@link java.sql.Types} code
 */
public record ResultColumn(String name, String typeName, int jdbcType) {

    /**
     * Checks the parts.
     *
     * @param name the column label
     * @param typeName the database's type name, e.g. {@code VARCHAR}
     * @param jdbcType the {@link java.sql.Types} code
     */
    public ResultColumn {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(typeName, "typeName");
    }
}
