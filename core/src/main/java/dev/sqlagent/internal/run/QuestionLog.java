package dev.sqlagent.internal.run;

import dev.sqlagent.AgentResult;
import dev.sqlagent.FailureKind;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One log line per question, under the logger {@code dev.sqlagent.question}: INFO with the id, status,
 * corrections, model calls and time; WARN, with the reason, for a rejection, an environmental failure or
 * an internal fault. No stack traces.
 */
final class QuestionLog {

    private static final Logger LOG = LoggerFactory.getLogger("dev.sqlagent.question");

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
                || f.kind() == FailureKind.INTERNAL)) {
            LOG.warn(line + " {}: {}", with(args, f.kind(), f.message()));
        } else if (LOG.isInfoEnabled()) {
            LOG.info(line, args);
        }
    }

    private static Object[] with(Object[] args, Object... more) {
        Object[] out = Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, out, args.length, more.length);
        return out;
    }
}
