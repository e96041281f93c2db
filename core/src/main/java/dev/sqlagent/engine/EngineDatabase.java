package dev.sqlagent.engine;

/**
 * The database side of an {@link Engine}: how the library reads a statement's plan (the engine check), runs it
 * read-only within its bounds, reads its errors, audits a login's privileges and reads its catalog.
 */
public interface EngineDatabase {
}
