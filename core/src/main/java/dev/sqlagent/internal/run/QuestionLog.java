package dev.sqlagent.internal.run;

import dev.sqlagent.AgentResult;
import dev.sqlagent.FailureKind;
import dev.sqlagent.trace.StageListener;
import dev.sqlagent.trace.StageTransition;
import dev.sqlagent.trace.TraceEvent;
import java.util.Arrays;
import java.util.List;
import org.slf4j.MDC;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One log line per question, under the logger {@code dev.sqlagent.question}: INFO with the id, status,
 * corrections, model calls and time; WARN, with the reason, for a rejection, an environmental failure or
 * an internal fault. No stack traces.
 */
final class QuestionLog {

    private static final Logger LOG = LoggerFactory.getLogger("dev.sqlagent.question");
    private static final Logger RUN = LoggerFactory.getLogger("dev.sqlagent.run");

    private QuestionLog() {
    }

    static void finished(AgentResult result, long millis) {
        String line = "question {} {} corrections={} model_calls={} time_ms={}";
        Object[] args = {result.trace().questionId(), result.status(), result.trace().correctionCount(),
            result.trace().modelCallCount(), millis};
        if (result instanceof AgentResult.Rejected r) {
            LOG.warn(line + " violation: {}", with(args, r.violations().isEmpty() ? ""
                    : r.violations().get(0).message()));
        } else if (result instanceof AgentResult.Failed f && (f.kind() == FailureKind.ENVIRONMENT
                || f.kind() == FailureKind.INTERNAL || f.kind() == FailureKind.DEADLINE_EXCEEDED
                || f.kind() == FailureKind.MODEL_CALLS_EXCEEDED || f.kind() == FailureKind.TOKENS_EXCEEDED)) {
            LOG.warn(line + " {}: {}", with(args, f.kind(), f.message()));
        } else if (LOG.isInfoEnabled()) {
            LOG.info(line, args);
        }
    }

    /** Puts back the MDC value that was there before the question, or removes the key. */
    static void restoreMdc(String key, String outer) {
        if (outer == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, outer);
        }
    }

    /** Records a transition in the trace and tells the listeners; a listener's fault is logged, never thrown. */
    static void publish(List<StageListener> listeners, RunState state, StageTransition t) {
        state.add(new TraceEvent.StageEntered(t));
        RUN.debug("question {}: {} -> {} ({})", t.questionId(), t.from(), t.to(), t.reason());
        for (StageListener l : listeners) {
            try {
                l.onTransition(t);
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable e) {
                RUN.warn("stage listener {} threw; ignored: {}", l.getClass().getName(), e.toString());
                RUN.debug("the listener's fault", e);
            }
        }
    }

    private static Object[] with(Object[] args, Object... more) {
        Object[] out = Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, out, args.length, more.length);
        return out;
    }
}
