package dev.sqlagent.trace;

import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.llm.ChatMessage;
import dev.sqlagent.llm.TokenUsage;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** One entry of a question's trace. Immutable. */
public sealed interface TraceEvent permits TraceEvent.StageEntered, TraceEvent.ModelCall, TraceEvent.GuardChecked,
        TraceEvent.Executed, TraceEvent.Chosen, TraceEvent.Judged, TraceEvent.Corrected, TraceEvent.Note {

    /** {@return the stage during which the event happened} */
    Stage stage();

    /**
     * The state machine entered a stage.
     *
     * @param transition the move
     */
    record StageEntered(StageTransition transition) implements TraceEvent {
        /**
         * Checks the part.
         *
         * @param transition the move
         */
        public StageEntered {
            Objects.requireNonNull(transition, "transition");
        }

        @Override
        public Stage stage() {
            return transition.to();
        }
    }

    /**
     * A call to a model: the prompt, the replies, the tokens and time it took.
     *
     * @param stage the stage that asked
     * @param role the agent role that asked ({@code "refiner"}, …)
     * @param model the model name the client reported, or empty
     * @param prompt the messages sent
     * @param replies the texts returned, empty if the call failed
     * @param usage the tokens used
     * @param elapsed the time the call took
     * @param error why the call failed, or empty
     */
    record ModelCall(Stage stage, String role, String model, List<ChatMessage> prompt, List<String> replies,
            TokenUsage usage, Duration elapsed, String error) implements TraceEvent {
        /**
         * Copies the lists.
         *
         * @param stage the stage that asked
         * @param role the agent role that asked ({@code "refiner"}, …)
         * @param model the model name the client reported, or empty
         * @param prompt the messages sent
         * @param replies the texts returned, empty if the call failed
         * @param usage the tokens used
         * @param elapsed the time the call took
         * @param error why the call failed, or empty
         */
        public ModelCall {
            Objects.requireNonNull(stage, "stage");
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(model, "model");
            prompt = List.copyOf(prompt);
            replies = List.copyOf(replies);
            Objects.requireNonNull(usage, "usage");
            Objects.requireNonNull(elapsed, "elapsed");
            Objects.requireNonNull(error, "error");
        }
    }

    /**
     * The guard's verdict on a candidate.
     *
     * @param candidate the candidate's index (0-based) within its round; -1 for a metric template
     * @param round 0 for the first generation, 1 for the correction; -1 for a metric template
     * @param verdict the verdict
     */
    record GuardChecked(int candidate, int round, GuardVerdict verdict) implements TraceEvent {
        /**
         * Checks the verdict.
         *
         * @param candidate the candidate's index (0-based) within its round; -1 for a metric template
         * @param round 0 for the first generation, 1 for the correction; -1 for a metric template
         * @param verdict the verdict
         */
        public GuardChecked {
            Objects.requireNonNull(verdict, "verdict");
        }

        @Override
        public Stage stage() {
            return Stage.GUARD;
        }
    }

    /**
     * A candidate ran.
     *
     * @param candidate the candidate's index within its round; -1 for a metric template
     * @param round 0 for the first generation, 1 for the correction; -1 for a metric template
     * @param sql the SQL that ran (after the guard's rewriting)
     * @param outcome its result or error
     */
    record Executed(int candidate, int round, String sql, ExecutionOutcome outcome) implements TraceEvent {
        /**
         * Checks the parts.
         *
         * @param candidate the candidate's index within its round; -1 for a metric template
         * @param round 0 for the first generation, 1 for the correction; -1 for a metric template
         * @param sql the SQL that ran (after the guard's rewriting)
         * @param outcome its result or error
         */
        public Executed {
            Objects.requireNonNull(sql, "sql");
            Objects.requireNonNull(outcome, "outcome");
        }

        @Override
        public Stage stage() {
            return Stage.EXECUTE;
        }
    }

    /**
     * One result was chosen among the candidates that ran.
     *
     * @param candidate the chosen candidate's index within its round
     * @param round the round
     * @param groupSizes how many candidates returned each distinct result, largest first
     * @param rule what decided: {@code "only"}, {@code "majority"}, {@code "verifiers"}, {@code "judge"}
     *     or {@code "order"}
     */
    record Chosen(int candidate, int round, List<Integer> groupSizes, String rule) implements TraceEvent {
        /**
         * Copies the sizes.
         *
         * @param candidate the chosen candidate's index within its round
         * @param round the round
         * @param groupSizes how many candidates returned each distinct result, largest first
         * @param rule what decided: {@code "only"}, {@code "majority"}, {@code "verifiers"}, {@code "judge"}
         *     or {@code "order"}
         */
        public Chosen {
            groupSizes = List.copyOf(groupSizes);
            Objects.requireNonNull(rule, "rule");
        }

        @Override
        public Stage stage() {
            return Stage.CHOOSE;
        }
    }

    /**
     * The judge model's verdict on a candidate's result.
     *
     * @param candidate the candidate's index within its round
     * @param round the round
     * @param verdict what the judge said
     */
    record Judged(int candidate, int round, dev.sqlagent.verify.JudgeVerdict verdict) implements TraceEvent {
        /**
         * Checks the verdict.
         *
         * @param candidate the candidate's index within its round
         * @param round the round
         * @param verdict what the judge said
         */
        public Judged {
            Objects.requireNonNull(verdict, "verdict");
        }

        @Override
        public Stage stage() {
            return Stage.VERIFY;
        }
    }

    /**
     * The single correction was made.
     *
     * @param record what was corrected and how
     */
    record Corrected(CorrectionRecord record) implements TraceEvent {
        /**
         * Checks the record.
         *
         * @param record what was corrected and how
         */
        public Corrected {
            Objects.requireNonNull(record, "record");
        }

        @Override
        public Stage stage() {
            return Stage.CORRECT;
        }
    }

    /**
     * A remark: a cleaner's problem, a verifier's finding, a budget cut, a failing case sink.
     *
     * @param stage the stage it concerns
     * @param kind a short machine-readable kind (e.g. {@code "no_sql"}, {@code "verifier"})
     * @param message the remark
     */
    record Note(Stage stage, String kind, String message) implements TraceEvent {
        /**
         * Checks the parts.
         *
         * @param stage the stage it concerns
         * @param kind a short machine-readable kind (e.g. {@code "no_sql"}, {@code "verifier"})
         * @param message the remark
         */
        public Note {
            Objects.requireNonNull(stage, "stage");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(message, "message");
        }
    }
}
