package dev.sqlagent.support;

import dev.sqlagent.AgentResult;
import dev.sqlagent.trace.StageListener;
import dev.sqlagent.trace.StageTransition;
import java.util.ArrayList;
import java.util.List;

/**
 * Records every transition it hears and every result handed to {@link #track}; the
 * {@link LegalTraceExtension} checks them after each test.
 */
public final class TraceRecorder implements StageListener {

    private final List<StageTransition> transitions = new ArrayList<>();
    private final List<AgentResult> results = new ArrayList<>();

    @Override
    public synchronized void onTransition(StageTransition transition) {
        transitions.add(transition);
    }

    /** @param result a result to check after the test  @return the same result */
    public synchronized AgentResult track(AgentResult result) {
        results.add(result);
        return result;
    }

    synchronized List<StageTransition> transitions() {
        return List.copyOf(transitions);
    }

    synchronized List<AgentResult> results() {
        return List.copyOf(results);
    }
}
