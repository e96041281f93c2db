package dev.sqlagent.execution;

import java.util.Objects;

/** What running a statement gave: a result table or a classified error. */
public sealed interface ExecutionOutcome permits ExecutionOutcome.Success, ExecutionOutcome.Failure {

    /** {@return whether the statement ran} */
    boolean succeeded();

    /**
     * The statement ran.
     *
     * @param table its result
     */
    record Success(ResultTable table) implements ExecutionOutcome {
        /**
         * Checks the table.
         *
         * @param table its result
         */
        public Success {
            Objects.requireNonNull(table, "table");
        }

        @Override
        public boolean succeeded() {
            return true;
        }
    }

    /**
     * The database refused or aborted the statement.
     *
     * @param error the classified error
     */
    record Failure(ExecutionError error) implements ExecutionOutcome {
        /**
         * Checks the error.
         *
         * @param error the classified error
         */
        public Failure {
            Objects.requireNonNull(error, "error");
        }

        @Override
        public boolean succeeded() {
            return false;
        }
    }
}
