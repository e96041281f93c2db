package dev.sqlagent.llm;

/**
 * A role a model plays for the agent (the refiner that writes SQL, the selector, the judge, …), named by
 * the id the agent puts in {@link LlmRequest#role()}. The agent's {@code dev.sqlagent.AgentRole} constants
 * implement it, so that code outside the agent's core (a test double, a routing client) can name roles
 * type-safely without depending on the core module.
 */
public interface ModelRole {

    /**
     * Returns the role's id.
     *
     * @return the id in requests, lower case, for example {@code "refiner"}
     */
    String id();
}
