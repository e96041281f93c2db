package dev.sqlagent.guard.engine;

import dev.sqlagent.execution.ExecutionError;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.guard.ViolationType;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What {@link EngineCheck} concluded about one statement the guard accepted.
 */
public sealed interface EngineVerdict permits EngineVerdict.Confirmed, EngineVerdict.Disagreement,
        EngineVerdict.Unavailable {

    /**
     * The engine's plan reads only what the policy allows: the statement may run.
     *
     * @param reading what the engine says it reads
     */
    record Confirmed(EngineReading reading) implements EngineVerdict {
        /**
         * Checks the part.
         *
         * @param reading what the engine says it reads
         */
        public Confirmed {
            Objects.requireNonNull(reading, "reading");
        }
    }

    /**
     * The engine reads the statement differently from the guard: it opens a table outside the policy,
     * reads a denied column or a system column, calls a forbidden function or writes; or its plan holds
     * something the engine check cannot map (a node type, an expression shape, a name that resolves to
     * nothing), which is refused as well (fail closed). A security event; the statement must not run.
     *
     * @param reasons one sentence per finding, at least one
     * @param engineReading what the engine says the statement reads
     * @param guardReading what the guard said it reads ({@code tables=… columns=…})
     */
    record Disagreement(List<String> reasons, EngineReading engineReading, String guardReading)
            implements EngineVerdict {
        /**
         * Copies the list.
         *
         * @param reasons one sentence per finding, at least one
         * @param engineReading what the engine says the statement reads
         * @param guardReading what the guard said it reads ({@code tables=… columns=…})
         */
        public Disagreement {
            reasons = List.copyOf(reasons);
            Objects.requireNonNull(engineReading, "engineReading");
            Objects.requireNonNull(guardReading, "guardReading");
            if (reasons.isEmpty()) {
                throw new IllegalArgumentException("a disagreement needs at least one reason");
            }
        }

        /** {@return one {@link ViolationType#ENGINE_DISAGREEMENT} per reason, the engine's reading as fragment} */
        public List<Violation> violations() {
            List<Violation> out = new ArrayList<>();
            for (String r : reasons) {
                out.add(new Violation(ViolationType.ENGINE_DISAGREEMENT, engineReading.describe(), r));
            }
            return out;
        }

        /**
         * Turns the disagreement into the guard's rejection of the SQL.
         *
         * @param sql the SQL the guard was given
         * @return the guard's verdict turned into a rejection: the statement never runs, is never corrected
         */
        public GuardVerdict.Rejected asRejection(String sql) {
            return new GuardVerdict.Rejected(sql, violations());
        }
    }

    /**
     * The engine could not plan the statement: it has a real error (an unknown column, a type error), or
     * the database could not be reached or did not answer in time. The statement must not run on the
     * guard's word alone: the run reports {@link #error()} as the statement's execution error without
     * running it (a correctable error is corrected as usual; an environmental one ends the question).
     *
     * @param reason why, for logs
     * @param error the engine's error, classified as an execution error would be
     */
    record Unavailable(String reason, ExecutionError error) implements EngineVerdict {
        /**
         * Checks the parts.
         *
         * @param reason why, for logs
         * @param error the engine's error, classified as an execution error would be
         */
        public Unavailable {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(error, "error");
        }
    }
}
