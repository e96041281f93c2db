package dev.sqlagent.guard.engine;

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
     * reads a denied column, calls a forbidden function or writes. A security event; the statement must
     * not run.
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
     * The engine could not be asked: the dialect has no plan reader, the plan could not be had (the
     * statement has a real error, which execution will report as usual), or the plan was not understood.
     * The guard's verdict stands alone; let execution go ahead.
     *
     * @param reason why, for logs
     */
    record Unavailable(String reason) implements EngineVerdict {
        /**
         * Checks the part.
         *
         * @param reason why, for logs
         */
        public Unavailable {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
