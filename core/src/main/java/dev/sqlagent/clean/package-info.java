/**
 * Reading SQL out of a model's reply.
 *
 * <p>{@link dev.sqlagent.clean.SqlCleaner} turns whatever a model answered (markdown fences, JSON,
 * reasoning blocks, chat-template tokens, preambles and explanations in any language) into the text of
 * the SQL it meant, or says why there is none. It never executes, parses or judges the SQL, and it never
 * drops a second statement or rewrites a dangerous one: deciding about those is the guard's job
 * ({@link dev.sqlagent.guard}). Stateless and thread-safe.
 */
package dev.sqlagent.clean;
