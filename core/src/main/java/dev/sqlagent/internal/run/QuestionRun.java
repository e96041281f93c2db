package dev.sqlagent.internal.run;

import dev.sqlagent.AgentResult;
import dev.sqlagent.FailureKind;
import dev.sqlagent.QuestionBudget;
import dev.sqlagent.internal.RunScope;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.internal.AgentConfig;
import dev.sqlagent.internal.ConversationContext;
import dev.sqlagent.trace.Stage;
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
     * @param budget the question's limits
     * @param scope its cancellation; the deadline's clock starts here, and the budget's statement caps are put
     *     in it for the executor
     * @param callerSql whether {@code question} is SQL written by the caller: it is guarded and run as it is,
     *     with no model call and never a correction (the optional stages are skipped)
     * @return the result, never null; only a {@link VirtualMachineError} escapes
     */
    public AgentResult answer(String question, String questionId, ConversationContext conversation, GuardPolicy policy,
            String table, String category, QuestionBudget budget, RunScope scope, boolean callerSql) {
        String outer = MDC.get(MDC_KEY);
        MDC.put(MDC_KEY, questionId);
        long start = System.nanoTime();
        scope.startClock(budget.deadline().orElse(null));
        scope.capStatements(budget.maxScanBytes().orElse(0), budget.maxMemoryBytes().orElse(0));
        RunScope.Binding bound = scope.bind();
        try {
            RunState state = new RunState(questionId, question, conversation,
                    policy != null ? policy : config.policy(), table, category, callerSql);
            state.spending(new Spending(budget, scope));
            AgentResult result = run(state);
            QuestionLog.finished(result, (System.nanoTime() - start) / 1_000_000);
            return result;
        } finally {
            bound.close();
            scope.finish();
            QuestionLog.restoreMdc(MDC_KEY, outer);
        }
    }

    private AgentResult run(RunState state) {
        // the caller's SQL is the caller's: never corrected, and no optional stage (rewrite, metric, selection,
        // plan) runs for it
        boolean caller = state.callerSql();
        StateMachine machine = new StateMachine(state.questionId(), config.clock(), config.correctionEnabled() && !caller,
                config.correctAnomalies(), config.dropViolatingCandidates(),
                (stage, s) -> !caller && steps.get(stage).wanted(s),
                t -> QuestionLog.publish(config.listeners(), state, t));
        Spending spending = state.spending();
        try {
            Stage stage = machine.current();
            while (!stage.isTerminal()) {
                // a question stopped from outside (or out of budget) runs no further step, except the guard
                // of SQL already written when a budget stopped it
                Outcome.Failed stop = spending.stop();
                Outcome found = stop != null && !machine.guardsDespite(stop) ? null : steps.get(stage).run(state);
                Outcome outcome = machine.overrule(found, spending.stop(), state);
                state.last(outcome);
                stage = machine.apply(outcome, state);
                if (stage != Stage.EXECUTE) {
                    state.releaseConnection(); // the engine check's connection waits only for the execution
                }
            }
            return Results.of(stage, state);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            Outcome.Failed stop = spending.stop();
            Outcome.Failed fault = stop != null ? stop : Outcome.Failed.of(FailureKind.INTERNAL, "internal fault: " + e);
            LOG.warn("question {} hit an internal fault in stage {}: {}", state.questionId(), machine.current(),
                    e.toString());
            LOG.debug("the fault", e);
            state.note(machine.current(), "internal", e.getClass().getName() + ": " + e.getMessage());
            state.last(fault);
            if (machine.current().canMoveTo(Stage.FAILED)) {
                machine.apply(fault, state);
            }
            return Results.of(Stage.FAILED, state);
        } finally {
            state.releaseConnection();
        }
    }
}
