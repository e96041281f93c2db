package dev.sqlagent.trace;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The stages of one question's journey through the agent, and the moves allowed between them.
 *
 * <p>The transition table below is the law: {@link #canMoveTo(Stage)} answers from it, and the state
 * machine refuses any other move. {@link #CORRECT} may be entered at most once per question; that
 * limit is a counter in the state machine, not a row here.
 *
 * <pre>
 * RECEIVED      -> REWRITE | METRIC_TOOL | SELECT_SCHEMA | DECOMPOSE | GENERATE | FAILED
 * REWRITE       -> METRIC_TOOL | SELECT_SCHEMA | DECOMPOSE | GENERATE | FAILED
 * METRIC_TOOL   -> ANSWERED | SELECT_SCHEMA | DECOMPOSE | GENERATE | FAILED
 * SELECT_SCHEMA -> DECOMPOSE | GENERATE | FAILED
 * DECOMPOSE     -> GENERATE | FAILED
 * GENERATE      -> GUARD | FAILED
 * GUARD         -> EXECUTE | CORRECT | REJECTED | FAILED
 * EXECUTE       -> CHOOSE | CORRECT | FAILED
 * CHOOSE        -> VERIFY | FAILED
 * VERIFY        -> ANSWERED | CORRECT | FAILED
 * CORRECT       -> GUARD | ANSWERED | FAILED
 * ANSWERED, REJECTED, FAILED: terminal
 * </pre>
 */
public enum Stage {
    /** The question arrived. */
    RECEIVED,
    /** A follow-up is rewritten into a self-contained question. */
    REWRITE,
    /** A vetted metric template may answer instead of generated SQL. */
    METRIC_TOOL,
    /** The Selector prunes the schema. */
    SELECT_SCHEMA,
    /** The Decomposer splits a complex question. */
    DECOMPOSE,
    /** The Refiner writes candidate SQL. */
    GENERATE,
    /** Each candidate is parsed and checked against the policy. */
    GUARD,
    /** Accepted candidates run read-only. */
    EXECUTE,
    /** One result is chosen among the candidates. */
    CHOOSE,
    /** The chosen result is checked. */
    VERIFY,
    /** The single correction. */
    CORRECT,
    /** Terminal: an answer. */
    ANSWERED,
    /** Terminal: the guard refused the SQL. */
    REJECTED,
    /** Terminal: no answer. */
    FAILED;

    private static final Map<Stage, Set<Stage>> TRANSITIONS = new EnumMap<>(Stage.class);

    static {
        allow(RECEIVED, REWRITE, METRIC_TOOL, SELECT_SCHEMA, DECOMPOSE, GENERATE, FAILED);
        allow(REWRITE, METRIC_TOOL, SELECT_SCHEMA, DECOMPOSE, GENERATE, FAILED);
        allow(METRIC_TOOL, ANSWERED, SELECT_SCHEMA, DECOMPOSE, GENERATE, FAILED);
        allow(SELECT_SCHEMA, DECOMPOSE, GENERATE, FAILED);
        allow(DECOMPOSE, GENERATE, FAILED);
        allow(GENERATE, GUARD, FAILED);
        allow(GUARD, EXECUTE, CORRECT, REJECTED, FAILED);
        allow(EXECUTE, CHOOSE, CORRECT, FAILED);
        allow(CHOOSE, VERIFY, FAILED);
        allow(VERIFY, ANSWERED, CORRECT, FAILED);
        allow(CORRECT, GUARD, ANSWERED, FAILED);
        for (Stage s : values()) {
            TRANSITIONS.putIfAbsent(s, Collections.emptySet());
        }
    }

    private static void allow(Stage from, Stage first, Stage... rest) {
        TRANSITIONS.put(from, Collections.unmodifiableSet(EnumSet.of(first, rest)));
    }

    /** {@return whether no move leaves this stage} */
    public boolean isTerminal() {
        return TRANSITIONS.get(this).isEmpty();
    }

    /**
     * Says whether the transition table allows moving from this stage to another.
     *
     * @param next a stage
     * @return whether the transition table allows moving from this stage to {@code next}
     */
    public boolean canMoveTo(Stage next) {
        return TRANSITIONS.get(this).contains(next);
    }

    /** {@return the stages this one may move to, unmodifiable} */
    public Set<Stage> successors() {
        return TRANSITIONS.get(this);
    }
}
