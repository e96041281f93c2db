package dev.sqlagent.guard;

import dev.sqlagent.execution.SqlStatement;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** The guard's decision on one SQL: accepted (perhaps rewritten), rejected, or unparseable. */
public sealed interface GuardVerdict permits GuardVerdict.Accepted, GuardVerdict.Rejected, GuardVerdict.Unparseable {

    /** {@return the SQL the guard was given} */
    String sql();

    /**
     * The SQL may run.
     *
     * @param sql the SQL given
     * @param statement what to run: the SQL perhaps rewritten (row limit, row filters) with its parameters
     * @param tables the tables it reads, as the policy names them (lower case)
     * @param columns the columns it reads, as {@code table.column}, lower case
     */
    record Accepted(String sql, SqlStatement statement, Set<String> tables, Set<String> columns)
            implements GuardVerdict {
        /**
         * Copies the sets.
         *
         * @param sql the SQL given
         * @param statement what to run: the SQL perhaps rewritten (row limit, row filters) with its parameters
         * @param tables the tables it reads, as the policy names them (lower case)
         * @param columns the columns it reads, as {@code table.column}, lower case
         */
        public Accepted {
            Objects.requireNonNull(sql, "sql");
            Objects.requireNonNull(statement, "statement");
            tables = Set.copyOf(tables);
            columns = Set.copyOf(columns);
        }
    }

    /**
     * The SQL breaks the policy; it is never run, corrected or shown to the model again.
     *
     * @param sql the SQL given
     * @param violations why, at least one
     */
    record Rejected(String sql, List<Violation> violations) implements GuardVerdict {
        /**
         * Copies the list.
         *
         * @param sql the SQL given
         * @param violations why, at least one
         */
        public Rejected {
            Objects.requireNonNull(sql, "sql");
            violations = List.copyOf(violations);
            if (violations.isEmpty()) {
                throw new IllegalArgumentException("a rejection needs at least one violation");
            }
        }
    }

    /**
     * The SQL does not parse: treated as a syntax error, correctable, never executed.
     *
     * @param sql the SQL given
     * @param message the parser's message, shortened
     */
    record Unparseable(String sql, String message) implements GuardVerdict {
        /**
         * Checks the parts.
         *
         * @param sql the SQL given
         * @param message the parser's message, shortened
         */
        public Unparseable {
            Objects.requireNonNull(sql, "sql");
            Objects.requireNonNull(message, "message");
        }
    }
}
