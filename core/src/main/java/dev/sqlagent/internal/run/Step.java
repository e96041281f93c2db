package dev.sqlagent.internal.run;

/**
 * The work of one {@link dev.sqlagent.trace.Stage}. A step is stateless and built once per agent; it
 * reads and updates the question's {@link RunState} and returns what it found. It never moves the state
 * machine: {@link StateMachine} alone chooses the next stage from the {@link Outcome}.
 */
interface Step {

    /**
     * Does the stage's work.
     *
     * @param state the question's state
     * @return what the step found, never null
     */
    Outcome run(RunState state);

    /**
     * For an optional stage: whether it should run for this question. Mandatory stages always are.
     *
     * @param state the question's state
     * @return whether to enter the stage
     */
    default boolean wanted(RunState state) {
        return true;
    }
}
