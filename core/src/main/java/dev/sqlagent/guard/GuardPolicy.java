package dev.sqlagent.guard;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What model-written SQL may do: which tables it may read, which columns it may not, whether
 * {@code SELECT *} is allowed, how many rows at most. Immutable; build with {@link #builder()}.
 *
 * <p>Table names are matched case-insensitively after unquoting; a schema-qualified entry
 * ({@code hr.employees}) matches only that schema, a bare entry matches the table in any schema the
 * connection resolves unqualified names to.
 */
public final class GuardPolicy {

    /** Default cap on rows, added as a LIMIT when missing and enforced when larger. */
    public static final int DEFAULT_MAX_ROWS = 1000;
    /** Default cap on the SQL's length in characters. */
    public static final int DEFAULT_MAX_SQL_LENGTH = 20_000;

    private final Set<String> allowedTables;
    private final Map<String, Set<String>> deniedColumns;
    private final boolean allowSelectStar;
    private final int maxRows;
    private final int maxSqlLength;

    private GuardPolicy(Builder b) {
        this.allowedTables = Set.copyOf(b.allowedTables);
        Map<String, Set<String>> denied = new LinkedHashMap<>();
        b.deniedColumns.forEach((t, cs) -> denied.put(t, Set.copyOf(cs)));
        this.deniedColumns = Map.copyOf(denied);
        this.allowSelectStar = b.allowSelectStar;
        this.maxRows = b.maxRows;
        this.maxSqlLength = b.maxSqlLength;
    }

    /** @return a new builder */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @param tables the tables that may be read
     * @return a policy allowing those tables, with every other setting at its default
     */
    public static GuardPolicy allowingTables(String... tables) {
        return builder().allowTables(tables).build();
    }

    /** @return a builder holding this policy's values */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.allowedTables.addAll(allowedTables);
        deniedColumns.forEach((t, cs) -> b.deniedColumns.put(t, new LinkedHashSet<>(cs)));
        b.allowSelectStar = allowSelectStar;
        b.maxRows = maxRows;
        b.maxSqlLength = maxSqlLength;
        return b;
    }

    /** @return allowed tables, lower case, possibly schema-qualified */
    public Set<String> allowedTables() {
        return allowedTables;
    }

    /** @return denied columns per table, lower case */
    public Map<String, Set<String>> deniedColumns() {
        return deniedColumns;
    }

    /** @return whether {@code SELECT *} and {@code t.*} are allowed */
    public boolean allowSelectStar() {
        return allowSelectStar;
    }

    /** @return the row cap */
    public int maxRows() {
        return maxRows;
    }

    /** @return the cap on SQL length in characters */
    public int maxSqlLength() {
        return maxSqlLength;
    }

    /**
     * @param table a table name, possibly schema-qualified, any case
     * @return whether the policy allows reading it
     */
    public boolean allowsTable(String table) {
        String t = normalise(table);
        if (allowedTables.contains(t)) {
            return true;
        }
        int dot = t.lastIndexOf('.');
        return dot < 0 ? false : allowedTables.contains(t.substring(dot + 1)) && !hasQualifiedEntries(t.substring(dot + 1));
    }

    private boolean hasQualifiedEntries(String bare) {
        for (String a : allowedTables) {
            if (a.endsWith("." + bare)) {
                return true;
            }
        }
        return false;
    }

    static String normalise(String name) {
        return name.trim().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return "GuardPolicy{tables=" + allowedTables + ", deniedColumns=" + deniedColumns
                + ", selectStar=" + allowSelectStar + ", maxRows=" + maxRows + '}';
    }

    /** Builds a {@link GuardPolicy}; setters check their arguments and name them. */
    public static final class Builder {
        private final Set<String> allowedTables = new LinkedHashSet<>();
        private final Map<String, Set<String>> deniedColumns = new LinkedHashMap<>();
        private boolean allowSelectStar;
        private int maxRows = DEFAULT_MAX_ROWS;
        private int maxSqlLength = DEFAULT_MAX_SQL_LENGTH;

        private Builder() {
        }

        /** @param tables tables that may be read  @return this */
        public Builder allowTables(String... tables) {
            Objects.requireNonNull(tables, "tables");
            return allowTables(java.util.Arrays.asList(tables));
        }

        /** @param tables tables that may be read  @return this */
        public Builder allowTables(Collection<String> tables) {
            Objects.requireNonNull(tables, "tables");
            for (String t : tables) {
                Objects.requireNonNull(t, "table");
                if (t.isBlank()) {
                    throw new IllegalArgumentException("table name must not be blank");
                }
                allowedTables.add(normalise(t));
            }
            return this;
        }

        /**
         * @param table the table
         * @param column a column of it that may never be read
         * @return this
         */
        public Builder denyColumn(String table, String column) {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(column, "column");
            if (table.isBlank() || column.isBlank()) {
                throw new IllegalArgumentException("denied column needs a table and a column but was '"
                        + table + "." + column + "'");
            }
            deniedColumns.computeIfAbsent(normalise(table), k -> new LinkedHashSet<>()).add(normalise(column));
            return this;
        }

        /** @param allow whether {@code SELECT *} is allowed  @return this */
        public Builder allowSelectStar(boolean allow) {
            this.allowSelectStar = allow;
            return this;
        }

        /** @param maxRows row cap, at least 1  @return this */
        public Builder maxRows(int maxRows) {
            if (maxRows < 1) {
                throw new IllegalArgumentException("maxRows must be > 0 but was " + maxRows);
            }
            this.maxRows = maxRows;
            return this;
        }

        /** @param maxSqlLength cap on SQL length, at least 16  @return this */
        public Builder maxSqlLength(int maxSqlLength) {
            if (maxSqlLength < 16) {
                throw new IllegalArgumentException("maxSqlLength must be >= 16 but was " + maxSqlLength);
            }
            this.maxSqlLength = maxSqlLength;
            return this;
        }

        /**
         * @return the policy
         * @throws IllegalStateException if no table is allowed
         */
        public GuardPolicy build() {
            if (allowedTables.isEmpty()) {
                throw new IllegalStateException("a guard policy must allow at least one table (allowTables)");
            }
            return new GuardPolicy(this);
        }
    }
}
