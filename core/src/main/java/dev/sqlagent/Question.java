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
 */
public record Question(String text, String table, String category, Optional<GuardPolicy> policy) {

    /** Checks the parts. */
    public Question {
        Objects.requireNonNull(text, "question");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(policy, "policy");
    }

    /** @param text the question  @return a question without labels or policy override */
    public static Question of(String text) {
        return new Question(text, "", "", Optional.empty());
    }

    /** @param table a table or subject label  @return a copy with it */
    public Question withTable(String table) {
        return new Question(text, Objects.requireNonNull(table, "table"), category, policy);
    }

    /** @param category a category label  @return a copy with it */
    public Question withCategory(String category) {
        return new Question(text, table, Objects.requireNonNull(category, "category"), policy);
    }

    /**
     * @param policy the policy for this request only; the schema the model sees is narrowed to it too
     * @return a copy with it
     */
    public Question withPolicy(GuardPolicy policy) {
        return new Question(text, table, category, Optional.of(Objects.requireNonNull(policy, "policy")));
    }
}
