package dev.sqlagent.internal.run;

import dev.sqlagent.AgentRole;
import dev.sqlagent.StageMode;
import dev.sqlagent.internal.AgentConfig;
import dev.sqlagent.internal.Complexity;
import dev.sqlagent.internal.Prompts;
import dev.sqlagent.internal.SchemaText;
import dev.sqlagent.internal.Selection;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.trace.Stage;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * SELECT_SCHEMA: runs when the whole schema exceeds the refiner's budget (or always, as configured); the
 * selector prunes it and the choice is completed deterministically. A conversation reuses its selection.
 * When unsure (no readable reply, a failed call), the whole schema is kept. Also the MAC-SQL fall-back
 * inside the single correction: {@link #widen} re-runs selection with the error.
 */
final class SelectStep implements Step {

    private final AgentConfig config;
    private final Models models;
    private final Prompts prompts;
    private final Schemas schemas;

    SelectStep(AgentConfig config, Models models, Prompts prompts, Schemas schemas) {
        this.config = config;
        this.models = models;
        this.prompts = prompts;
        this.schemas = schemas;
    }

    @Override
    public boolean wanted(RunState state) {
        return config.selectorMode() == StageMode.ALWAYS || (config.selectorMode() == StageMode.AUTO
                && schemas.whole(state.catalog()).estimatedTokens() > config.budgets().refinerInput());
    }

    @Override
    public Outcome run(RunState state) {
        state.note(Stage.SELECT_SCHEMA, "selection", "schema of ~" + schemas.whole(state.catalog()).estimatedTokens()
                + " tokens, refiner budget " + config.budgets().refinerInput());
        Map<String, Set<String>> cached = state.conversation() == null ? null
                : config.selections().getIfPresent(state.conversation().id());
        Set<String> outside = cached == null ? Set.of() : namedOutside(state.question(), state.catalog(), cached);
        if (cached != null && outside.isEmpty()) {
            state.selection(cached);
            state.note(Stage.SELECT_SCHEMA, "selection", "reused the conversation's selection " + cached.keySet());
        } else {
            if (cached != null) {
                state.note(Stage.SELECT_SCHEMA, "selection", "the follow-up names " + outside
                        + ", outside the conversation's selection " + cached.keySet() + "; selecting again");
            }
            Map<String, Set<String>> chosen = ask(state, Stage.SELECT_SCHEMA, "");
            state.selection(chosen);
            if (chosen != null && state.conversation() != null) {
                config.selections().put(state.conversation().id(), chosen);
            }
        }
        schemas.showRefiner(state, Stage.SELECT_SCHEMA);
        return new Outcome.Prepared(state.selection() == null ? "whole schema kept"
                : "selected " + state.selection().size() + " table(s)");
    }

    /**
     * MAC-SQL's fall-back inside the single correction: an unknown table or column while the schema was
     * pruned re-runs selection with the error, and the correction sees the widened schema.
     *
     * @param state the question's state, with a selection
     * @param feedback the error
     */
    void widen(RunState state, String feedback) {
        Map<String, Set<String>> again = ask(state, Stage.CORRECT, "\n(An earlier SQL failed: " + feedback
                + ". Keep every table that could fix it.)");
        Map<String, Set<String>> widened = null;
        if (again != null) {
            Map<String, Set<String>> merged = new LinkedHashMap<>(state.selection());
            again.forEach((t, cs) -> merged.merge(t, cs, (x, y) -> {
                if (x.isEmpty() || y.isEmpty()) {
                    return Set.of();
                }
                Set<String> u = new LinkedHashSet<>(x);
                u.addAll(y);
                return u;
            }));
            widened = merged;
        }
        state.note(Stage.CORRECT, "selection", widened == null
                ? "selection dropped: the correction sees the whole schema" : "selection widened to " + widened.keySet());
        state.selection(widened);
        schemas.showRefiner(state, Stage.CORRECT);
        if (state.conversation() != null && widened != null) {
            config.selections().put(state.conversation().id(), widened);
        }
    }

    /**
     * The tables a question names (by a table's name, or by a column name only that table has) that a
     * selection lacks: a conversation's selection is reused only while a follow-up names nothing outside it.
     */
    static Set<String> namedOutside(String question, SchemaCatalog catalog, Map<String, Set<String>> selection) {
        Set<String> selected = new HashSet<>();
        selection.keySet().forEach(t -> selected.add(t.toLowerCase(Locale.ROOT)));
        Set<String> outside = new LinkedHashSet<>();
        for (String t : Complexity.namedTables(question, catalog)) {
            if (!selected.contains(t.toLowerCase(Locale.ROOT))) {
                outside.add(t);
            }
        }
        Set<String> words = new HashSet<>();
        for (String w : question.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}_]+")) {
            words.add(w);
        }
        Set<String> selectedColumns = new HashSet<>();
        for (SchemaCatalog.Table t : catalog.tables()) {
            if (selected.contains(t.name().toLowerCase(Locale.ROOT))) {
                t.columns().forEach(c -> selectedColumns.add(c.name().toLowerCase(Locale.ROOT)));
            }
        }
        for (SchemaCatalog.Table t : catalog.tables()) {
            if (selected.contains(t.name().toLowerCase(Locale.ROOT))) {
                continue;
            }
            for (SchemaCatalog.Column c : t.columns()) {
                String name = c.name().toLowerCase(Locale.ROOT);
                if (name.length() >= 4 && !selectedColumns.contains(name)
                        && (words.contains(name) || words.contains(name.replace('_', ' ')))) {
                    outside.add(t.name());
                }
            }
        }
        return outside;
    }

    /** Asks the selector; returns the completed selection, or null to keep the whole schema. */
    private Map<String, Set<String>> ask(RunState state, Stage stage, String extra) {
        SchemaText input = SchemaText.render(state.catalog(), null, config.budgets().selectorInput());
        if (!input.omitted().isEmpty()) {
            state.note(stage, "budget", "the selector's schema was cut to fit "
                    + config.budgets().selectorInput() + " tokens: " + input.omitted());
        }
        try {
            String reply = models.call(state, AgentRole.SELECTOR, stage,
                    prompts.select(state.question() + extra, input.text()), true, 1).get(0);
            Optional<Selection> parsed = Selection.parse(reply, state.catalog());
            if (parsed.isEmpty()) {
                state.note(stage, "selection", "the selector's reply named no known table; the whole schema is kept");
                return null;
            }
            if (!parsed.get().unknown().isEmpty()) {
                state.note(stage, "selection", "dropped unknown names " + parsed.get().unknown());
            }
            return SchemaSelections.complete(state.catalog(), state.question(), parsed.get().columns(),
                    notes -> state.note(stage, "selection", notes));
        } catch (Models.ModelFailure e) {
            state.note(stage, "selection", "the selector failed (" + e.getMessage() + "); the whole schema is kept");
            return null;
        }
    }
}
