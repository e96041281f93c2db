package dev.sqlagent.internal.run;

import dev.sqlagent.FailureKind;
import dev.sqlagent.cases.CaseLibrary;
import dev.sqlagent.clean.SqlCleaner;
import dev.sqlagent.internal.AgentConfig;
import dev.sqlagent.internal.Prompts;
import dev.sqlagent.schema.TokenEstimator;
import dev.sqlagent.trace.Stage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * GENERATE: the refiner writes {@code n} candidates, with few-shot examples from the case library within
 * a share of its budget; each reply is cleaned to one SQL.
 */
final class GenerateStep implements Step {

    private final AgentConfig config;
    private final Models models;
    private final Prompts prompts;
    private final Schemas schemas;
    private final Shown shown;

    GenerateStep(AgentConfig config, Models models, Prompts prompts, Schemas schemas, Shown shown) {
        this.shown = shown;
        this.config = config;
        this.models = models;
        this.prompts = prompts;
        this.schemas = schemas;
    }

    @Override
    public Outcome run(RunState state) {
        if (state.callerSql()) {
            // the caller wrote the SQL: it goes to the guard as it was given, uncleaned, and no model is asked
            state.candidates(List.of(new Candidate(0, state.question())));
            state.note(Stage.GENERATE, "caller_sql", "SQL given by the caller: no model call, never corrected");
            return new Outcome.Generated(1);
        }
        if (state.schemaText() == null) {
            schemas.showRefiner(state, Stage.GENERATE);
        }
        List<String> replies;
        try {
            replies = models.candidates(state,
                    prompts.generate(state.question(), state.schemaText(), state.plan(), examples(state)),
                    config.candidates());
        } catch (Models.ModelFailure e) {
            return Outcome.Failed.of(FailureKind.MODEL_ERROR, e.getMessage());
        }
        List<Candidate> candidates = new ArrayList<>();
        for (String reply : replies) {
            SqlCleaner.Cleaned cleaned = config.cleaner().clean(reply);
            if (cleaned.sql().isPresent()) {
                candidates.add(new Candidate(candidates.size(), cleaned.sql().get()));
            } else {
                state.note(Stage.GENERATE, "no_sql", cleaned.problem());
            }
        }
        if (candidates.isEmpty()) {
            return Outcome.Failed.of(FailureKind.NO_SQL, "the model's reply held no SQL");
        }
        state.candidates(candidates);
        return new Outcome.Generated(candidates.size());
    }

    /** Few-shot examples from the case library, within a share of the refiner's budget; noted in the trace. */
    private String examples(RunState state) {
        if (config.caseLibrary() == null) {
            return "";
        }
        List<CaseLibrary.Example> found = config.caseLibrary().examplesFor(state.question(), state.table(),
                state.category(), state.policy());
        if (found.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        List<String> used = new ArrayList<>();
        int budget = Math.max(200, config.budgets().refinerInput() / 4);
        for (CaseLibrary.Example e : found) {
            if (!shown.runnable(e.sql(), state)) {
                continue;
            }
            String block = "Q: " + e.question() + "\nSQL: " + e.sql() + "\n";
            if (TokenEstimator.heuristic().estimate(sb + block) > budget) {
                break;
            }
            sb.append(block);
            used.add(e.id() + String.format(Locale.ROOT, " (%.2f)", e.score()));
        }
        if (!used.isEmpty()) {
            state.note(Stage.GENERATE, "retrieval", used.size() + " example(s): " + used);
        }
        return sb.toString();
    }
}
