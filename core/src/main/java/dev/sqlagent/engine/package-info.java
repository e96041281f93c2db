/**
 * Engines, one package each, behind {@link dev.sqlagent.engine.Engine}. Internal: not exported by the module; the
 * public API stays in {@code dev.sqlagent.guard}, {@code dev.sqlagent.guard.engine} and
 * {@code dev.sqlagent.execution}, which call the engine through {@link dev.sqlagent.engine.Engines}.
 */
package dev.sqlagent.engine;
