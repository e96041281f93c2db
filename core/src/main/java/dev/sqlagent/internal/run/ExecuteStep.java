package dev.sqlagent.internal.run;

import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.internal.AgentConfig;
import dev.sqlagent.trace.TraceEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * EXECUTE: every accepted candidate of the round runs read-only, identical statements once, distinct ones
 * in parallel within the agent's bound; one the engine check could not plan does not run, the engine's error
 * standing as its outcome. A fix the correction gave is cached once it ran without error.
 */
final class ExecuteStep implements Step {

    private final AgentConfig config;
    private final Executions executions;

    ExecuteStep(AgentConfig config, Executions executions) {
        this.config = config;
        this.executions = executions;
    }

    @Override
    public Outcome run(RunState state) {
        List<GuardVerdict> verdicts = state.verdicts();
        Map<String, GuardVerdict.Accepted> distinct = new LinkedHashMap<>();
        for (GuardVerdict v : verdicts) {
            if (v instanceof GuardVerdict.Accepted a) {
                distinct.putIfAbsent(key(a), a);
            }
        }
        List<String> keys = new ArrayList<>(distinct.keySet());
        // a statement the engine could not plan is never run: the engine's error stands for its execution
        List<ExecutionOutcome> outcomes = Parallel.map(config.parallel(), keys, k -> {
            ExecutionOutcome.Failure unplanned = state.unplanned(distinct.get(k));
            return unplanned != null ? unplanned : executions.run(distinct.get(k).statement());
        });
        Map<String, ExecutionOutcome> byStatement = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            byStatement.put(keys.get(i), outcomes.get(i));
        }
        Set<String> recorded = new HashSet<>();
        List<Ran> successes = new ArrayList<>();
        Ran firstFailure = null;
        for (int i = 0; i < verdicts.size(); i++) {
            if (!(verdicts.get(i) instanceof GuardVerdict.Accepted a)) {
                continue;
            }
            String key = key(a);
            ExecutionOutcome outcome = byStatement.get(key);
            int candidate = state.candidates().get(i).index();
            if (recorded.add(key)) {
                state.add(new TraceEvent.Executed(candidate, state.round(), a.statement().sql(), outcome));
            }
            Ran ran = new Ran(candidate, a.sql(), a.statement().sql(), outcome);
            if (outcome.succeeded()) {
                successes.add(ran);
            } else if (firstFailure == null) {
                firstFailure = ran;
            }
        }
        cacheFix(state, successes);
        return new Outcome.Executed(successes, firstFailure);
    }

    private static String key(GuardVerdict.Accepted a) {
        return a.statement().sql() + '\u0000' + a.statement().parameters();
    }

    /** A pending fix that ran without error is verified: the fix cache keeps it. */
    private void cacheFix(RunState state, List<Ran> successes) {
        RunState.PendingFix fix = state.pendingFix();
        if (fix == null || config.fixCache() == null || successes.isEmpty()) {
            return;
        }
        for (Ran ran : successes) {
            if (ran.sql().equals(fix.sql())) {
                config.fixCache().put(fix.key(), fix.sql());
            }
        }
        state.pendingFix(null);
    }
}
