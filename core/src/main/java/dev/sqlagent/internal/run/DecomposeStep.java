package dev.sqlagent.internal.run;

import dev.sqlagent.AgentRole;
import dev.sqlagent.StageMode;
import dev.sqlagent.internal.AgentConfig;
import dev.sqlagent.internal.Complexity;
import dev.sqlagent.internal.Plan;
import dev.sqlagent.internal.Prompts;
import dev.sqlagent.internal.SchemaText;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.trace.Stage;
import java.util.List;
import java.util.Optional;

/**
 * DECOMPOSE: for complex questions (or always / never, as configured) the decomposer writes steps; a plan
 * that is not executable is dropped and generation goes on without it. It never loops.
 */
final class DecomposeStep implements Step {

    private final AgentConfig config;
    private final Models models;
    private final Prompts prompts;

    DecomposeStep(AgentConfig config, Models models, Prompts prompts) {
        this.config = config;
        this.models = models;
        this.prompts = prompts;
    }

    @Override
    public boolean wanted(RunState state) {
        if (config.decomposerMode() != StageMode.AUTO) {
            return config.decomposerMode() == StageMode.ALWAYS;
        }
        int tables = state.selection() != null ? state.selection().size()
                : Complexity.tablesNamed(state.question(), state.catalog());
        return Complexity.isComplex(state.question(), tables);
    }

    @Override
    public Outcome run(RunState state) {
        SchemaText input = SchemaText.render(state.catalog(), state.selection(), config.budgets().decomposerInput());
        if (!input.omitted().isEmpty()) {
            state.note(Stage.DECOMPOSE, "budget", "the decomposer's schema was cut to fit "
                    + config.budgets().decomposerInput() + " tokens: " + input.omitted());
        }
        try {
            String reply = models.call(state, AgentRole.DECOMPOSER, Stage.DECOMPOSE,
                    prompts.decompose(state.question(), input.text(), Plan.MAX_STEPS), true, 1).get(0);
            Optional<Plan> plan = Plan.parse(reply);
            if (plan.isEmpty()) {
                state.note(Stage.DECOMPOSE, "plan", "no readable plan; generating without one");
                return new Outcome.Prepared("no plan");
            }
            SchemaCatalog shown = state.selection() == null ? state.catalog()
                    : SchemaText.restrict(state.catalog(), state.selection());
            List<String> problems = plan.get().problems(shown);
            if (!problems.isEmpty()) {
                state.note(Stage.DECOMPOSE, "plan", "plan dropped, not executable: " + problems);
                return new Outcome.Prepared("plan dropped");
            }
            state.note(Stage.DECOMPOSE, "plan", plan.get().steps().size() + " step(s) accepted");
            state.plan(plan.get().render());
            return new Outcome.Prepared("planned " + plan.get().steps().size() + " step(s)");
        } catch (Models.ModelFailure e) {
            state.note(Stage.DECOMPOSE, "plan", "the decomposer failed (" + e.getMessage()
                    + "); generating without a plan");
            return new Outcome.Prepared("no plan");
        }
    }
}
