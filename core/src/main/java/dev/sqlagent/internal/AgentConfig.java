package dev.sqlagent.internal;

import dev.sqlagent.AgentRole;
import dev.sqlagent.Dialect;
import dev.sqlagent.clean.SqlCleaner;
import dev.sqlagent.execution.SqlExecutor;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.trace.StageListener;
import dev.sqlagent.verify.ResultVerifier;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * Everything a question run needs, fixed when the agent is built.
 *
 * @param models a client per role; {@link AgentRole#REFINER} is always present
 * @param executor runs accepted SQL
 * @param dialect the database's dialect
 * @param policy the guard's policy
 * @param guard the guard
 * @param cleaner the reply cleaner
 * @param schema the schema the model sees
 * @param verifiers deterministic result checks
 * @param listeners hear every transition
 * @param clock stamps transitions and times calls
 * @param correctionEnabled whether the single correction may happen
 * @param correctAnomalies whether verifier findings may use the correction
 * @param maxQuestionLength the longest question accepted, in characters
 * @param temperature the refiner's sampling temperature
 * @param candidates how many candidate SQLs the refiner writes per question
 * @param judgeEnabled whether the judge model reviews chosen results and breaks ties
 * @param prompts the prompt templates
 * @param temperatures sampling temperature per role (absent: the refiner's {@code temperature})
 * @param selectorMode when the selector runs
 * @param decomposerMode when the decomposer runs
 * @param budgets token budgets per stage
 * @param metricTools vetted metric templates, tried before text-to-SQL
 * @param selections the selection of each conversation, bounded and expiring
 * @param fixCache verified fixes reused without a model call, or null when off
 * @param caseLibrary where few-shot examples and past repairs come from, or null
 * @param parallel runs candidate executions and extra generation requests, bounded; null runs them on
 *     the asking thread
 * @param dropViolatingCandidates whether candidates that break the policy are dropped (the others answer,
 *     never corrected) rather than the question rejected
 * @param engineCheck asks the database's planner what an accepted statement reads before it runs, or null
 *     when off (turned off, a custom executor, or an engine without a plan reader)
 */
public record AgentConfig(Map<AgentRole, LlmClient> models, SqlExecutor executor, Dialect dialect, GuardPolicy policy,
        SqlGuard guard, SqlCleaner cleaner, SchemaSource schema, List<ResultVerifier> verifiers,
        List<StageListener> listeners, Clock clock, boolean correctionEnabled, boolean correctAnomalies,
        int maxQuestionLength, double temperature, int candidates, boolean judgeEnabled,
        dev.sqlagent.PromptTemplates prompts, Map<AgentRole, Double> temperatures, dev.sqlagent.StageMode selectorMode,
        dev.sqlagent.StageMode decomposerMode, dev.sqlagent.TokenBudgets budgets,
        List<dev.sqlagent.metrics.MetricTool> metricTools,
        com.github.benmanes.caffeine.cache.Cache<String, Map<String, java.util.Set<String>>> selections,
        FixCache fixCache, dev.sqlagent.cases.CaseLibrary caseLibrary, java.util.concurrent.Executor parallel,
        boolean dropViolatingCandidates, dev.sqlagent.guard.engine.EngineCheck engineCheck) {

    /** Copies the collections. */
    public AgentConfig {
        models = Map.copyOf(models);
        verifiers = List.copyOf(verifiers);
        listeners = List.copyOf(listeners);
        temperatures = Map.copyOf(temperatures);
        metricTools = List.copyOf(metricTools);
    }

    /** @param role a role  @return its sampling temperature */
    public double temperatureOf(AgentRole role) {
        Double t = temperatures.get(role);
        return t != null ? t : temperature;
    }

    /** @param role a role  @return its client, or the refiner's when it has none of its own */
    public LlmClient model(AgentRole role) {
        LlmClient c = models.get(role);
        return c != null ? c : models.get(AgentRole.REFINER);
    }
}
