package dev.sqlagent.internal.run;

import dev.sqlagent.AgentRole;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.internal.AgentConfig;
import dev.sqlagent.internal.LenientJson;
import dev.sqlagent.internal.Prompts;
import dev.sqlagent.metrics.MetricTool;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.TraceEvent;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * METRIC_TOOL: the router may pick a vetted template; it runs with bound parameters after passing the
 * guard. Anything short of an answer falls back to text-to-SQL, once, noted in the trace.
 */
final class MetricToolStep implements Step {

    /**
     * The round and candidate index of a metric template's attempt in the trace: apart from the generated
     * candidates (round 0 and up), so the case record keeps it beside the fallback's attempts.
     */
    static final int METRIC = -1;

    private final AgentConfig config;
    private final Models models;
    private final Prompts prompts;
    private final Executions executions;

    MetricToolStep(AgentConfig config, Models models, Prompts prompts, Executions executions) {
        this.config = config;
        this.models = models;
        this.prompts = prompts;
        this.executions = executions;
    }

    @Override
    public boolean wanted(RunState state) {
        return !config.metricTools().isEmpty();
    }

    @Override
    public Outcome run(RunState state) {
        List<MetricTool> tools = config.metricTools();
        StringBuilder described = new StringBuilder();
        for (MetricTool t : tools) {
            described.append(t.describe()).append('\n');
        }
        String fallback;
        try {
            String reply = models.call(state, AgentRole.ROUTER, Stage.METRIC_TOOL,
                    prompts.route(described.toString(), state.question()), true, 1).get(0);
            Optional<Map<String, Object>> o = LenientJson.firstObject(reply);
            String name = o.map(m -> LenientJson.text(m.get("metric")).trim()).orElse("");
            MetricTool tool = null;
            for (MetricTool t : tools) {
                if (t.name().equalsIgnoreCase(name)) {
                    tool = t;
                }
            }
            if (tool == null) {
                fallback = name.isEmpty() || name.equalsIgnoreCase("null") || name.equalsIgnoreCase("none")
                        ? "no metric fits the question" : "the router named an unknown metric '" + name + "'";
            } else {
                Map<String, String> args = new HashMap<>();
                if (o.get().get("arguments") instanceof Map<?, ?> a) {
                    a.forEach((k, v) -> args.put(String.valueOf(k), LenientJson.text(v)));
                }
                Optional<List<Object>> values = tool.bind(args);
                if (values.isEmpty()) {
                    fallback = "metric " + tool.name() + ": arguments missing or of the wrong type " + args;
                } else {
                    // the statement that runs is the guard's rewrite of the template, values bound in place
                    // of its markers: the request's row cap and mandatory row filters hold for metrics too
                    GuardStep.Checked checked = GuardStep.check(tool.markedSql(), state.policy(), config.guard(),
                            config.dialect(), config.engineCheck());
                    GuardVerdict v = checked.verdict();
                    state.add(new TraceEvent.GuardChecked(METRIC, METRIC, v));
                    if (!(v instanceof GuardVerdict.Accepted accepted)) {
                        fallback = "metric " + tool.name() + " was refused by the guard";
                    } else {
                        SqlStatement statement = tool.bind(accepted.statement(), values.get());
                        // a template the engine could not plan (with its marker literals) is not run
                        ExecutionOutcome outcome = checked.unplanned() != null ? checked.unplanned()
                                : executions.run(statement);
                        state.add(new TraceEvent.Executed(METRIC, METRIC, statement.sql(), outcome));
                        if (outcome instanceof ExecutionOutcome.Success s) {
                            state.note(Stage.METRIC_TOOL, "path", "answered by metric " + tool.name() + " with " + args);
                            return new Outcome.MetricAnswered(tool.sql(), statement.sql(), s.table());
                        }
                        fallback = "metric " + tool.name() + " failed: "
                                + ((ExecutionOutcome.Failure) outcome).error().message();
                    }
                }
            }
        } catch (Models.ModelFailure e) {
            fallback = "the router could not be asked: " + e.getMessage();
        }
        state.note(Stage.METRIC_TOOL, "path", "text-to-SQL (" + fallback + ")");
        return new Outcome.Prepared("text-to-SQL");
    }
}
