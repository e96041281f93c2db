package dev.sqlagent.engine;

/**
 * The guard's side of an {@link Engine}: how its SQL is read without a database. The shared analysis
 * ({@code dev.sqlagent.guard}) calls these hooks where engines differ and nowhere names an engine.
 */
public interface EngineGuard {
}
