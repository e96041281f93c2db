/**
 * Vetted SQL templates for standard metrics, used instead of model-written SQL when a question asks for
 * one.
 *
 * <p>A {@link dev.sqlagent.metrics.MetricTool} is a named template with typed {@code :name} parameters.
 * Registered with the agent, it is offered to a router model: when a question matches a metric, the
 * agent binds the arguments the router read and runs the template, checked by the guard like any SQL;
 * when none matches or the template fails, the agent falls back to text-to-SQL once.
 */
package dev.sqlagent.metrics;
