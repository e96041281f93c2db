package dev.sqlagent.guard;

import java.util.List;
import java.util.Objects;

/**
 * A policy names something the database does not have: an allowed table, a denied column, a row filter's
 * table or column, a metric tool's table. Thrown where a catalog can be read (building an agent, reading
 * its schema), so that a misspelt denial ({@code emp.salry}) never leaves the real column ({@code salary})
 * open. Each unresolved name comes with the nearest names the database has.
 */
public final class PolicyResolutionException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** What kind of policy entry did not resolve. */
    public enum Kind {
        /** An entry of {@link GuardPolicy#allowedTables()}. */
        ALLOWED_TABLE,
        /** The table of an entry of {@link GuardPolicy#deniedColumns()}. */
        DENIED_COLUMN_TABLE,
        /** A column of {@link GuardPolicy#deniedColumns()}. */
        DENIED_COLUMN,
        /** The table of a {@link RowFilter}. */
        ROW_FILTER_TABLE,
        /** The column of a {@link RowFilter}. */
        ROW_FILTER_COLUMN,
        /** A table a metric tool's template reads. */
        METRIC_TABLE
    }

    /**
     * One name of the policy that resolves to nothing the database has.
     *
     * @param kind what the entry is
     * @param name the entry as the policy holds it ({@code table} or {@code table.column}, lower case)
     * @param nearest the nearest names the database has (edit distance), closest first; may be empty
     */
    public record Unresolved(Kind kind, String name, List<String> nearest) {
        /**
         * Copies the list.
         *
         * @param kind what the entry is
         * @param name the entry as the policy holds it
         * @param nearest the nearest names the database has, closest first
         */
        public Unresolved {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(name, "name");
            nearest = List.copyOf(nearest);
        }

        @Override
        public String toString() {
            return kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + " " + name
                    + (nearest.isEmpty() ? " (no similar name)" : " (nearest: " + String.join(", ", nearest) + ")");
        }
    }

    private final transient List<Unresolved> unresolved;

    /**
     * @param unresolved every name that did not resolve, at least one
     * @throws IllegalArgumentException if the list is empty
     */
    public PolicyResolutionException(List<Unresolved> unresolved) {
        super(message(unresolved));
        this.unresolved = List.copyOf(unresolved);
    }

    private static String message(List<Unresolved> unresolved) {
        if (unresolved.isEmpty()) {
            throw new IllegalArgumentException("a resolution failure needs at least one unresolved name");
        }
        StringBuilder sb = new StringBuilder("the policy names what the database does not have, so it would not"
                + " hold as written: ");
        boolean deniedColumn = false;
        for (int i = 0; i < unresolved.size(); i++) {
            sb.append(i == 0 ? "" : "; ").append(unresolved.get(i));
            deniedColumn |= unresolved.get(i).kind() == Kind.DENIED_COLUMN;
        }
        if (deniedColumn) {
            sb.append(" (a login with column grants does not see the columns it may not read on MariaDB and MySQL:"
                    + " with such a login, give the agent a planningDataSource, whose view of the schema is checked"
                    + " instead)");
        }
        return sb.toString();
    }

    /** {@return every name of the policy that did not resolve, in the policy's order} */
    public List<Unresolved> unresolved() {
        return unresolved;
    }
}
