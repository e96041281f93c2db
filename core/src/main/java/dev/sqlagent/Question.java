package dev.sqlagent;

import dev.sqlagent.guard.GuardPolicy;
import java.util.Objects;
import java.util.Optional;

/**
 * A question with what the host knows about it: labels that travel into the case record and steer
 * case retrieval (a table or subject area, a category), and optionally a policy for this request only
 * (for example one tenant's row filters) that replaces the agent's. Immutable.
 *
 * <pre>{@code
 * agent.ask(Question.of("Monthly revenue in 2023?").withTable("orders").withCategory("revenue")
 *     .withPolicy(tenantPolicy));
 * }</pre>
 *
 * @param text the question in natural language
 * @param table a table or subject label, or empty
 * @param category a category label, or empty
 * @param policy a policy replacing the agent's for this request
 * @param budget limits for this request, replacing the agent's limits of the same kind
 */
public record Question(String text, String table, String category, Optional<GuardPolicy> policy,
        Optional<QuestionBudget> budget) {

    /**
     * Checks the parts.
     *
     * @param text the question in natural language
     * @param table a table or subject label, or empty
     * @param category a category label, or empty
     * @param policy a policy replacing the agent's for this request
     * @param budget limits for this request
     */
    public Question {
        Objects.requireNonNull(text, "question");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(budget, "budget");
    }

    /**
     * Creates a question without a budget of its own.
     *
     * @param text the question in natural language
     * @param table a table or subject label, or empty
     * @param category a category label, or empty
     * @param policy a policy replacing the agent's for this request
     */
    public Question(String text, String table, String category, Optional<GuardPolicy> policy) {
        this(text, table, category, policy, Optional.empty());
    }

    /**
     * Returns a question without labels or policy override.
     *
     * @param text the question
     * @return a question without labels or policy override
     */
    public static Question of(String text) {
        return new Question(text, "", "", Optional.empty(), Optional.empty());
    }

    /**
     * Returns a copy with a table or subject label, kept in the case and used by case retrieval.
     *
     * @param table a table or subject label
     * @return a copy with it
     */
    public Question withTable(String table) {
        return new Question(text, Objects.requireNonNull(table, "table"), category, policy, budget);
    }

    /**
     * Returns a copy with a category label, kept in the case and used by case retrieval.
     *
     * @param category a category label
     * @return a copy with it
     */
    public Question withCategory(String category) {
        return new Question(text, table, Objects.requireNonNull(category, "category"), policy, budget);
    }

    /**
     * Returns a copy with a policy for this request only, replacing the agent's (for example one tenant's
     * row filters).
     *
     * @param policy the policy for this request only; the schema the model sees is narrowed to it too
     * @return a copy with it
     */
    public Question withPolicy(GuardPolicy policy) {
        return new Question(text, table, category, Optional.of(Objects.requireNonNull(policy, "policy")), budget);
    }

    /**
     * Returns a copy with limits for this request only.
     *
     * @param budget the limits; each one it sets replaces the agent's limit of the same kind (a scan or memory
     *     cap the agent cannot enforce makes {@code ask} throw, see {@link QuestionBudget})
     * @return a copy with it
     * @throws NullPointerException if the budget is null
     */
    public Question withBudget(QuestionBudget budget) {
        return new Question(text, table, category, policy, Optional.of(Objects.requireNonNull(budget, "budget")));
    }
}
