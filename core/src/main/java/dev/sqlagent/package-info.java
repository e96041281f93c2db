/**
 * The agent: answers natural-language questions about a database by having a model write SQL and
 * governing everything after that.
 *
 * <p>{@link dev.sqlagent.SqlAgent} is the entry point: build it once with
 * {@link dev.sqlagent.SqlAgent#builder()} (a model, a database, a {@link dev.sqlagent.guard.GuardPolicy})
 * and share it between threads. Each {@link dev.sqlagent.SqlAgent#ask(String) question}, or each
 * {@link dev.sqlagent.Question} with per-question settings and each turn of a
 * {@link dev.sqlagent.Conversation}, ends in an {@link dev.sqlagent.AgentResult}: answered, rejected by
 * the guard, or failed for a stated {@link dev.sqlagent.FailureKind}; never an exception for a bad
 * question, a failing model or a failing database. Every result carries its
 * {@link dev.sqlagent.trace.Trace}, and the agent keeps running counts in
 * {@link dev.sqlagent.AgentMetrics}.
 *
 * <p>The other types here configure the agent: the {@link dev.sqlagent.Dialect} of the database, which
 * model serves each {@link dev.sqlagent.AgentRole}, whether optional stages run
 * ({@link dev.sqlagent.StageMode}), how much schema each prompt may hold ({@link dev.sqlagent.TokenBudgets})
 * and the prompt texts themselves ({@link dev.sqlagent.PromptTemplates}).
 *
 * <p>The sub-packages hold the parts of the process a host can see or replace: {@code guard} (policy and
 * checks), {@code execution} (running SQL), {@code schema}, {@code clean}, {@code choose},
 * {@code verify}, {@code cases}, {@code metrics} and {@code trace}.
 */
package dev.sqlagent;
