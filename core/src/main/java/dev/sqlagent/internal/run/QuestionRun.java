package dev.sqlagent.internal.run;

import dev.sqlagent.AgentResult;
import dev.sqlagent.FailureKind;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.internal.AgentConfig;
import dev.sqlagent.internal.ConversationContext;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.StageListener;
import dev.sqlagent.trace.StageTransition;
import dev.sqlagent.trace.TraceEvent;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs questions through the stages. Built once per agent: it holds one stateless {@link Step} per stage.
 * The loop is the whole driver: run the step of the current stage, hand its {@link Outcome} to the
 * {@link StateMachine}, which alone chooses the next stage, until a terminal stage;
 * {@link Results#of} then turns the terminal stage and the last outcome into the {@link AgentResult}.
 * Thread-safe: each question has its own {@link RunState} and machine.
 */
public final class QuestionRun {

    private static final Logger LOG = LoggerFactory.getLogger("dev.sqlagent.run");
    /** The MDC key holding the id of the question the agent works on. */
    public static final String MDC_KEY = "sqlagent.question";

    private final AgentConfig config;
    private final Map<Stage, Step> steps;

    /** @param config the agent's configuration */
    public QuestionRun(AgentConfig config) {
        this.config = config;
        this.steps = Steps.of(config);
    }

    /**
     * Answers one question.
     *
     * @param question the question
     * @param questionId a unique id for it
     * @param conversation the conversation it belongs to, or null
     * @param policy a policy for this request only, or null for the agent's
     * @param table the host's table label, or empty
     * @param category the host's category label, or empty
     * @return the result, never null; only a {@link VirtualMachineError} escapes
     */
    public AgentResult answer(String question, String questionId, ConversationContext conversation, GuardPolicy policy,
            String table, String category) {
        String outer = MDC.get(MDC_KEY);
        MDC.put(MDC_KEY, questionId);
        long start = System.nanoTime();
        try {
            AgentResult result = run(question, questionId, conversation, policy, table, category);
            QuestionLog.finished(result, (System.nanoTime() - start) / 1_000_000);
            return result;
        } finally {
            if (outer == null) {
                MDC.remove(MDC_KEY);
            } else {
                MDC.put(MDC_KEY, outer);
            }
        }
    }

    private AgentResult run(String question, String questionId, ConversationContext conversation, GuardPolicy policy,
            String table, String category) {
        RunState state = new RunState(questionId, question, conversation, policy != null ? policy : config.policy(),
                table, category);
        StateMachine machine = new StateMachine(questionId, config.clock(), config.correctionEnabled(),
                config.correctAnomalies(), config.dropViolatingCandidates(), (stage, s) -> steps.get(stage).wanted(s),
                t -> publish(state, t));
        try {
            Stage stage = machine.current();
            while (!stage.isTerminal()) {
                Outcome outcome = steps.get(stage).run(state);
                state.last(outcome);
                stage = machine.apply(outcome, state);
            }
            return Results.of(stage, state);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            LOG.warn("question {} hit an internal fault in stage {}: {}", questionId, machine.current(), e.toString());
            LOG.debug("the fault", e);
            state.note(machine.current(), "internal", e.getClass().getName() + ": " + e.getMessage());
            Outcome.Failed fault = Outcome.Failed.of(FailureKind.INTERNAL, "internal fault: " + e);
            state.last(fault);
            if (machine.current().canMoveTo(Stage.FAILED)) {
                machine.apply(fault, state);
            }
            return Results.of(Stage.FAILED, state);
        }
    }

    private void publish(RunState state, StageTransition t) {
        state.add(new TraceEvent.StageEntered(t));
        LOG.debug("question {}: {} -> {} ({})", t.questionId(), t.from(), t.to(), t.reason());
        for (StageListener l : config.listeners()) {
            try {
                l.onTransition(t);
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable e) {
                LOG.warn("stage listener {} threw; ignored: {}", l.getClass().getName(), e.toString());
                LOG.debug("the listener's fault", e);
            }
        }
    }
}
