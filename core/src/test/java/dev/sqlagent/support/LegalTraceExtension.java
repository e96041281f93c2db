package dev.sqlagent.support;

import dev.sqlagent.AgentResult;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.StageTransition;
import dev.sqlagent.trace.Trace;
import dev.sqlagent.trace.TraceEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Checks after every test that each question it ran took a legal path: it starts at RECEIVED, every
 * move is in the transition table, it ends in a terminal stage, it corrects at most once, nothing runs
 * after a rejection, and an answer's trace agrees with its status. Tests get a {@link TraceRecorder}
 * as a parameter, add it as the agent's listener and {@link TraceRecorder#track} their results.
 */
public final class LegalTraceExtension implements ParameterResolver, AfterEachCallback {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(LegalTraceExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
        return p.getParameter().getType() == TraceRecorder.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext e) {
        return e.getStore(NS).computeIfAbsent("recorder", k -> new TraceRecorder(), TraceRecorder.class);
    }

    @Override
    public void afterEach(ExtensionContext e) {
        TraceRecorder r = e.getStore(NS).get("recorder", TraceRecorder.class);
        if (r == null) {
            return;
        }
        Map<String, List<StageTransition>> byQuestion = new LinkedHashMap<>();
        for (StageTransition t : r.transitions()) {
            byQuestion.computeIfAbsent(t.questionId(), k -> new ArrayList<>()).add(t);
        }
        byQuestion.forEach(LegalTraceExtension::checkPath);
        for (AgentResult result : r.results()) {
            checkResult(result);
        }
    }

    /**
     * Checks one question's transitions.
     *
     * @param questionId the question
     * @param path its transitions in order
     */
    public static void checkPath(String questionId, List<StageTransition> path) {
        Stage at = Stage.RECEIVED;
        int corrections = 0;
        for (StageTransition t : path) {
            if (t.from() != at) {
                throw new AssertionError(questionId + ": transition from " + t.from() + " while at " + at);
            }
            if (!at.canMoveTo(t.to())) {
                throw new AssertionError(questionId + ": illegal transition " + at + " -> " + t.to());
            }
            if (t.to() == Stage.CORRECT && ++corrections > 1) {
                throw new AssertionError(questionId + ": more than one correction");
            }
            at = t.to();
        }
        if (!at.isTerminal()) {
            throw new AssertionError(questionId + ": ended in non-terminal stage " + at);
        }
    }

    /**
     * Checks a result against its own trace.
     *
     * @param result the result
     */
    public static void checkResult(AgentResult result) {
        Trace trace = result.trace();
        List<Stage> stages = trace.stages();
        Stage last = stages.get(stages.size() - 1);
        if (!last.name().equals(result.status().name())) {
            throw new AssertionError("status " + result.status() + " but trace ends in " + last);
        }
        if (trace.correctionCount() > 1) {
            throw new AssertionError("more than one correction in " + trace);
        }
        if (result.status() == AgentResult.Status.REJECTED) {
            // after the last entry into GUARD: verdicts only, then REJECTED, then nothing
            List<TraceEvent> events = trace.events();
            int guard = -1;
            for (int i = 0; i < events.size(); i++) {
                if (events.get(i) instanceof TraceEvent.StageEntered
                        && ((TraceEvent.StageEntered) events.get(i)).transition().to() == Stage.GUARD) {
                    guard = i;
                }
            }
            for (int i = guard + 1; i < events.size() - 1; i++) {
                if (!(events.get(i) instanceof TraceEvent.GuardChecked)) {
                    throw new AssertionError("work after the rejecting guard check: " + events.get(i));
                }
            }
        }
        if (result.status() == AgentResult.Status.ANSWERED && trace.executions().isEmpty()) {
            throw new AssertionError("answered without executing anything");
        }
    }
}
