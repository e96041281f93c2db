package dev.sqlagent.spring;

import dev.sqlagent.SqlAgent;

/**
 * Adjusts the auto-configured agent's builder before it is built: a model per role, prompts, a metric
 * tool, anything the properties do not cover. Every customizer bean is applied, in {@code @Order}.
 */
@FunctionalInterface
public interface SqlAgentCustomizer {

    /**
     * Adjusts the builder; called once, before the agent is built.
     *
     * @param builder the builder, already holding what the properties and beans say
     */
    void customize(SqlAgent.Builder builder);
}
