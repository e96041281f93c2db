package dev.sqlagent.internal.run;

import dev.sqlagent.AgentRole;
import dev.sqlagent.cases.CaseLibrary;
import dev.sqlagent.clean.SqlCleaner;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.internal.AgentConfig;
import dev.sqlagent.internal.FixCache;
import dev.sqlagent.internal.Prompts;
import dev.sqlagent.internal.ReplyJson;
import dev.sqlagent.internal.SqlTokens;
import dev.sqlagent.trace.CorrectionRecord;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.TraceEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * CORRECT: the single correction. Its target (the SQL, its error or finding) is read from the outcome
 * that brought the question here. A table or column missing while the schema was pruned first widens the
 * selection; a verified fix for the same failure comes from the fix cache without a model call; otherwise
 * the refiner is asked, with the database's message, the failing fragment and similar past repairs. The
 * record keeps the original SQL and error.
 */
final class CorrectStep implements Step {

    private final AgentConfig config;
    private final Models models;
    private final Prompts prompts;
    private final SelectStep select;
    private final Shown shown;

    CorrectStep(AgentConfig config, Models models, Prompts prompts, SelectStep select, Shown shown) {
        this.shown = shown;
        this.config = config;
        this.models = models;
        this.prompts = prompts;
        this.select = select;
    }

    @Override
    public Outcome run(RunState state) {
        CorrectionTarget target = CorrectionTarget.of(state.last(), state)
                .orElseThrow(() -> new IllegalStateException("no correction target in " + state.last()));
        String category = target.category();
        String feedback = target.feedback();
        if (state.selection() != null && (category.equals(ErrorCategory.TABLE_NOT_FOUND.name())
                || category.equals(ErrorCategory.COLUMN_NOT_FOUND.name()))) {
            select.widen(state, feedback);
        }
        boolean errorFix = target.errorCategory().isPresent();
        String fixKey = errorFix && config.fixCache() != null
                ? FixCache.key(target.sql(), category, feedback, state.policy(), state.catalog()) : null;
        if (fixKey != null) {
            Optional<String> known = config.fixCache().lookup(fixKey);
            if (known.isPresent() && config.guard().check(known.get(), state.policy(), config.dialect())
                    instanceof GuardVerdict.Accepted) {
                state.note(Stage.CORRECT, "fix_cache", "reused a verified fix for the same failure; no model call");
                state.add(new TraceEvent.Corrected(new CorrectionRecord(target.sql(), feedback, category, known.get(),
                        "reused a verified fix from the cache")));
                return new Outcome.Corrected(target, known.get(), true);
            }
            if (known.isPresent()) {
                state.note(Stage.CORRECT, "fix_cache_skipped",
                        "a cached fix for the same failure is refused by the current guard; the model is asked");
            }
        }
        List<String> replies;
        try {
            replies = models.call(state, AgentRole.REFINER, Stage.CORRECT,
                    prompts.correct(state.question(), state.schemaText(), target.sql(), category,
                            FailingFragment.locate(feedback, target.sql())
                                    .map(f -> feedback + "\nThe failing fragment: " + f).orElse(feedback),
                            repairs(state, category)), true, 1);
        } catch (Models.ModelFailure e) {
            state.add(new TraceEvent.Corrected(new CorrectionRecord(target.sql(), feedback, category, "", "")));
            return new Outcome.NoCorrection(target, Outcome.NoCorrection.Cause.MODEL_ERROR, e.getMessage());
        }
        String reply = replies.get(0);
        String reason = "";
        String candidateText = reply;
        Optional<Map<String, String>> json = ReplyJson.firstObject(reply);
        if (json.isPresent() && json.get().containsKey("sql")) {
            candidateText = json.get().get("sql");
            reason = json.get().getOrDefault("reason", "");
        }
        SqlCleaner.Cleaned cleaned = differingFrom(target.sql(), candidateText);
        String corrected = cleaned.sql().orElse(null);
        state.add(new TraceEvent.Corrected(new CorrectionRecord(target.sql(), feedback, category,
                corrected == null ? "" : corrected, reason)));
        if (corrected == null) {
            state.note(Stage.CORRECT, "no_sql", cleaned.problem());
            return new Outcome.NoCorrection(target, Outcome.NoCorrection.Cause.NO_SQL, cleaned.problem());
        }
        if (fixKey != null) {
            state.pendingFix(new RunState.PendingFix(fixKey, corrected));
        }
        return new Outcome.Corrected(target, corrected, false);
    }

    /**
     * The statement of a correction reply that differs from the failed SQL: a reply that first echoes the
     * failed SQL ("Your query was: …; the fix: …") is read on past the echo, at most a few times.
     */
    private SqlCleaner.Cleaned differingFrom(String failed, String text) {
        SqlCleaner.Cleaned cleaned = config.cleaner().clean(text);
        String rest = text;
        for (int i = 0; i < 4 && cleaned.sql().isPresent() && SqlTokens.same(cleaned.sql().get(), failed); i++) {
            int at = rest.indexOf(cleaned.sql().get());
            if (at < 0) {
                break;
            }
            rest = rest.substring(at + cleaned.sql().get().length());
            SqlCleaner.Cleaned next = config.cleaner().clean(rest);
            if (next.sql().isEmpty()) {
                break;
            }
            cleaned = next;
        }
        return cleaned;
    }

    /** Past repairs of the same kind, for the correction prompt; noted in the trace. */
    private String repairs(RunState state, String category) {
        if (config.caseLibrary() == null) {
            return "";
        }
        List<String> tags = new ArrayList<>();
        for (TraceEvent e : state.events()) {
            if (e instanceof TraceEvent.Judged j) {
                j.verdict().errorTags().forEach(t -> tags.add(t.name()));
            }
        }
        List<CaseLibrary.Repair> found = config.caseLibrary().repairsFor(state.question(), category, tags,
                state.policy());
        if (found.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("Similar failures fixed before:\n");
        List<String> used = new ArrayList<>();
        for (CaseLibrary.Repair r : found) {
            if (!shown.wrong(r.wrongSql(), state) || !shown.runnable(r.fixedSql(), state)) {
                continue;
            }
            sb.append("wrong: ").append(r.wrongSql()).append("\nfixed: ").append(r.fixedSql()).append("\nwhy: ")
                    .append(r.comment()).append('\n');
            used.add(r.id());
        }
        if (used.isEmpty()) {
            return "";
        }
        state.note(Stage.CORRECT, "retrieval", used.size() + " repair(s): " + used);
        return sb.toString();
    }
}
