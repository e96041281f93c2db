package dev.sqlagent.internal.run;

import dev.sqlagent.FailureKind;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.ErrorClassifier;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.internal.AgentConfig;
import dev.sqlagent.schema.SchemaCatalog;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * RECEIVED: admits the question (not blank, not too long) and reads the schema catalog, restricted to a
 * per-request policy when the request has one.
 */
final class AdmitStep implements Step {

    private final AgentConfig config;

    AdmitStep(AgentConfig config) {
        this.config = config;
    }

    @Override
    public Outcome run(RunState state) {
        String question = state.question();
        if (question.isBlank()) {
            return Outcome.Failed.of(FailureKind.INVALID_QUESTION, "the question is blank");
        }
        if (question.length() > config.maxQuestionLength()) {
            return Outcome.Failed.of(FailureKind.INVALID_QUESTION, "the question has " + question.length()
                    + " characters; at most " + config.maxQuestionLength() + " are accepted");
        }
        try {
            SchemaCatalog catalog = config.schema().get();
            state.catalog(state.policy() == config.policy() ? catalog : narrowed(catalog, state.policy()));
        } catch (SQLException e) {
            ErrorCategory category = ErrorClassifier.standard().classify(config.dialect(), e);
            return new Outcome.Failed(FailureKind.ENVIRONMENT,
                    Optional.of(category.environmental() ? category : ErrorCategory.CONNECTION),
                    "cannot read the schema: " + e.getMessage());
        }
        return new Outcome.Prepared("admitted");
    }

    /** The catalog restricted to what a per-request policy allows. */
    private static SchemaCatalog narrowed(SchemaCatalog catalog, GuardPolicy policy) {
        List<SchemaCatalog.Table> kept = new ArrayList<>();
        Set<String> all = new HashSet<>();
        for (SchemaCatalog.Table t : catalog.tables()) {
            all.add(t.name());
            if (policy.allowsTable(t.name())) {
                kept.add(t);
            }
        }
        return SchemaCatalog.of(kept, all).enrich(catalog.enrichment());
    }
}
