package dev.sqlagent.internal.run;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sqlagent.FailureKind;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.ErrorClassifier;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.PolicyResolutionException;
import dev.sqlagent.internal.AgentConfig;
import dev.sqlagent.schema.SchemaCatalog;
import java.sql.SQLException;
import java.util.Optional;

/**
 * RECEIVED: admits the question (not blank, not too long) and reads the schema catalog as the effective
 * policy lets the model see it: allowed tables only, denied columns gone ({@link SchemaCatalog#visibleUnder}).
 */
final class AdmitStep implements Step {

    private final AgentConfig config;
    /** The agent's catalog as its own policy shows it, computed once per catalog. */
    private final Cache<SchemaCatalog, SchemaCatalog> visible = Caffeine.newBuilder().weakKeys().maximumSize(4).build();
    /**
     * A policy told every table of the database and its tables' columns, computed once per policy and
     * catalog: when the schema is read again (a new catalog), the policy is completed again, so that the
     * guard (whose verdicts are kept per policy object) reads every statement afresh under the new schema.
     */
    private final Cache<GuardPolicy, Completed> known = Caffeine.newBuilder().weakKeys().maximumSize(64).build();

    private record Completed(SchemaCatalog catalog, GuardPolicy policy) {
    }

    AdmitStep(AgentConfig config) {
        this.config = config;
    }

    @Override
    public Outcome run(RunState state) {
        String question = state.question();
        if (question.isBlank()) {
            return Outcome.Failed.of(FailureKind.INVALID_QUESTION, state.callerSql() ? "the SQL is blank"
                    : "the question is blank");
        }
        // the caller's SQL is held to the policy's maxSqlLength by the guard instead
        if (!state.callerSql() && question.length() > config.maxQuestionLength()) {
            return Outcome.Failed.of(FailureKind.INVALID_QUESTION, "the question has " + question.length()
                    + " characters; at most " + config.maxQuestionLength() + " are accepted");
        }
        try {
            SchemaCatalog catalog = config.schema().get();
            boolean agents = state.policy() == config.policy();
            GuardPolicy base = state.policy();
            Completed done = known.getIfPresent(base);
            if (done == null || done.catalog() != catalog) {
                try {
                    catalog.requireResolves(base, config.dialect());
                } catch (PolicyResolutionException e) {
                    return Outcome.Failed.of(FailureKind.ENVIRONMENT, e.getMessage());
                }
                done = new Completed(catalog, catalog.completePolicy(base));
                known.put(base, done);
            }
            state.policy(done.policy());
            GuardPolicy completed = state.policy();
            state.catalog(agents ? visible.get(catalog, c -> c.visibleUnder(completed))
                    : catalog.visibleUnder(completed));
        } catch (SQLException e) {
            ErrorCategory category = ErrorClassifier.standard().classify(config.dialect(), e);
            return new Outcome.Failed(FailureKind.ENVIRONMENT,
                    Optional.of(category.environmental() ? category : ErrorCategory.CONNECTION),
                    "cannot read the schema: " + e.getMessage());
        }
        return new Outcome.Prepared("admitted");
    }

}
