/**
 * Micrometer meters for sqlagent (artifact {@code sqlagent-micrometer}).
 *
 * <p>{@link dev.sqlagent.micrometer.SqlAgentMeterBinder} publishes an agent's counters (questions by
 * status, corrections, rejections, failures, model calls and tokens) and stage and question timers to
 * any Micrometer registry: register it as the agent's stage listener and bind it to the registry.
 */
package dev.sqlagent.micrometer;
