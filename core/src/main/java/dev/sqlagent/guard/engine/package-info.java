/**
 * The database's own word on what a statement reads and what the agent's login may do: the layers behind
 * the guard's parser.
 *
 * <p>{@link dev.sqlagent.guard.engine.EngineCheck} asks the engine's planner ({@code EXPLAIN}, never run)
 * what a statement the guard accepted reads, as an {@link dev.sqlagent.guard.engine.EngineReading}, and
 * holds it against the policy: an {@link dev.sqlagent.guard.engine.EngineVerdict} confirms the guard, or
 * reports a disagreement (a parser differential, and the statement must not run), or says the engine
 * could not be asked. SQLite, PostgreSQL, MariaDB, MySQL and H2 are supported.
 *
 * <p>{@link dev.sqlagent.guard.engine.PrivilegeAudit} reads the catalog to find what the login can read
 * or write beyond the policy and returns a {@link dev.sqlagent.guard.engine.PrivilegeReport}, so a host
 * knows where the guard is its only line of defence.
 */
package dev.sqlagent.guard.engine;
