package dev.sqlagent.internal.run;

import dev.sqlagent.FailureKind;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.guard.GuardVerdict;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link Step} found. A step never decides where the question goes next: it returns one of these,
 * and {@link StateMachine#apply} reads it through the rule of the stage the question is in.
 */
public sealed interface Outcome {

    /**
     * A preparing stage (admission, rewrite, schema selection, decomposition) did its work, or a metric
     * tool could not answer and text-to-SQL takes over; the question goes on to the next wanted stage.
     *
     * @param what a few words for the trace
     */
    record Prepared(String what) implements Outcome {
        /** Checks the argument. */
        public Prepared {
            Objects.requireNonNull(what, "what");
        }
    }

    /**
     * A vetted metric template answered.
     *
     * @param sql the template as written
     * @param executedSql the statement that ran
     * @param table its result
     */
    record MetricAnswered(String sql, String executedSql, ResultTable table) implements Outcome {
    }

    /**
     * The refiner wrote candidates (at least one); they are in {@link RunState#candidates()}.
     *
     * @param count how many
     */
    record Generated(int count) implements Outcome {
    }

    /**
     * The guard's verdicts on the round's candidates, one per candidate, in candidate order.
     *
     * @param verdicts the verdicts
     */
    record Guarded(List<GuardVerdict> verdicts) implements Outcome {
        /** Copies the list. */
        public Guarded {
            verdicts = List.copyOf(verdicts);
            if (verdicts.isEmpty()) {
                throw new IllegalArgumentException("no verdicts");
            }
        }
    }

    /**
     * The accepted candidates ran.
     *
     * @param successes the candidates that ran without error, in candidate order
     * @param firstFailure the first that failed, or null when none did
     */
    record Executed(List<Ran> successes, Ran firstFailure) implements Outcome {
        /** Copies the list. */
        public Executed {
            successes = List.copyOf(successes);
            if (successes.isEmpty() && firstFailure == null) {
                throw new IllegalArgumentException("nothing ran");
            }
        }

        /** @return the candidate that decides: the first success, else the first failure */
        public Ran decisive() {
            return successes.isEmpty() ? firstFailure : successes.get(0);
        }
    }

    /**
     * One result was chosen among the successes; it is {@link RunState#chosen()}.
     *
     * @param rule the rule that decided
     */
    record Chosen(String rule) implements Outcome {
    }

    /**
     * The chosen result went through verification.
     *
     * @param findings what the verifiers or the judge found wrong, empty when nothing
     * @param checked whether a verifier or the judge actually checked it (none may be configured, and a
     *     judge may give no verdict)
     */
    record Verified(List<String> findings, boolean checked) implements Outcome {
        /** Copies the list. */
        public Verified {
            findings = List.copyOf(findings);
        }
    }

    /**
     * The correction produced SQL; whether it differs from the corrected SQL is the machine's question.
     *
     * @param target what was corrected
     * @param sql the corrected SQL
     * @param cached whether it came from the fix cache rather than the model
     */
    record Corrected(CorrectionTarget target, String sql, boolean cached) implements Outcome {
    }

    /**
     * The correction produced nothing to run.
     *
     * @param target what was to be corrected
     * @param cause why nothing
     * @param message the detail (the model's error, the cleaner's problem)
     */
    record NoCorrection(CorrectionTarget target, Cause cause, String message) implements Outcome {

        /** Why a correction produced nothing. */
        public enum Cause {
            /** The model could not be asked. */
            MODEL_ERROR,
            /** The reply held no SQL. */
            NO_SQL
        }
    }

    /**
     * The step failed the question outright (invalid question, unreadable schema, the model unreachable
     * for generation, no SQL in any reply, an internal fault).
     *
     * @param kind the failure's kind
     * @param category the error category, when one applies
     * @param message the explanation
     */
    record Failed(FailureKind kind, Optional<ErrorCategory> category, String message) implements Outcome {
        /** Checks the arguments. */
        public Failed {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(category, "category");
            Objects.requireNonNull(message, "message");
        }

        /**
         * @param kind the kind
         * @param message the explanation
         * @return a failure without an error category
         */
        public static Failed of(FailureKind kind, String message) {
            return new Failed(kind, Optional.empty(), message);
        }
    }
}
