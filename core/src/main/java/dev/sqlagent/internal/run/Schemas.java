package dev.sqlagent.internal.run;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sqlagent.internal.AgentConfig;
import dev.sqlagent.internal.SchemaText;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.trace.Stage;

/**
 * Renders the schema the refiner sees, once per question: the whole catalog's rendering is kept per
 * catalog (the agent's catalog is read once, so most questions render nothing at all), and it serves
 * both the selector's "does it fit?" and the refiner's text when no selection prunes it. Thread-safe.
 */
final class Schemas {

    private final AgentConfig config;
    private final Cache<SchemaCatalog, SchemaText> whole = Caffeine.newBuilder().weakKeys().maximumSize(64).build();

    Schemas(AgentConfig config) {
        this.config = config;
    }

    /** @return the whole catalog rendered without a budget, computed once per catalog */
    SchemaText whole(SchemaCatalog catalog) {
        return whole.get(catalog, c -> SchemaText.render(c, null, Integer.MAX_VALUE));
    }

    /**
     * Renders the refiner's schema for the state's catalog and selection into the state, noting what the
     * budget cut.
     *
     * @param state the question's state
     * @param stage the stage to note a cut under
     */
    void showRefiner(RunState state, Stage stage) {
        int budget = config.budgets().refinerInput();
        SchemaText shown = null;
        if (state.selection() == null) {
            SchemaText all = whole(state.catalog());
            shown = all.estimatedTokens() <= budget ? all : null;
        }
        if (shown == null) {
            shown = SchemaText.render(state.catalog(), state.selection(), budget);
        }
        if (!shown.omitted().isEmpty()) {
            state.note(stage, "budget", "the refiner's schema was cut to fit " + budget + " tokens: " + shown.omitted());
        }
        state.schemaText(shown.text());
    }
}
