package dev.sqlagent.internal.run;

import dev.sqlagent.choose.CandidateChooser;
import dev.sqlagent.internal.AgentConfig;
import dev.sqlagent.internal.Prompts;
import dev.sqlagent.trace.Stage;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/** Builds the step of every non-terminal stage, once per agent, with the helpers they share. */
final class Steps {

    private Steps() {
    }

    /**
     * @param config the agent's configuration
     * @return a step per non-terminal stage, unmodifiable
     */
    static Map<Stage, Step> of(AgentConfig config) {
        Models models = new Models(config);
        Prompts prompts = new Prompts(config.prompts(), config.dialect());
        Schemas schemas = new Schemas(config);
        Executions executions = new Executions(config);
        Findings findings = new Findings(config.verifiers());
        Judge judge = new Judge(models, prompts);
        SelectStep select = new SelectStep(config, models, prompts, schemas);
        Shown shown = new Shown(config.guard(), config.dialect());
        Map<Stage, Step> steps = new EnumMap<>(Stage.class);
        steps.put(Stage.RECEIVED, new AdmitStep(config));
        steps.put(Stage.REWRITE, new RewriteStep(config, models, prompts));
        steps.put(Stage.METRIC_TOOL, new MetricToolStep(config, models, prompts, executions));
        steps.put(Stage.SELECT_SCHEMA, select);
        steps.put(Stage.DECOMPOSE, new DecomposeStep(config, models, prompts));
        steps.put(Stage.GENERATE, new GenerateStep(config, models, prompts, schemas, shown));
        steps.put(Stage.GUARD, new GuardStep(config.guard(), config.dialect(), executions, config.parallel()));
        steps.put(Stage.EXECUTE, new ExecuteStep(config, executions));
        steps.put(Stage.CHOOSE, new ChooseStep(CandidateChooser.standard(), findings, config.judgeEnabled() ? judge : null));
        steps.put(Stage.VERIFY, new VerifyStep(config, judge));
        steps.put(Stage.CORRECT, new CorrectStep(config, models, prompts, select, shown));
        for (Stage s : Stage.values()) {
            if (!s.isTerminal() && !steps.containsKey(s)) {
                throw new IllegalStateException("no step for stage " + s);
            }
        }
        return Collections.unmodifiableMap(steps);
    }
}
