/**
 * The guard: what model-written SQL may do, and the check every candidate passes before it may run.
 *
 * <p>A {@link dev.sqlagent.guard.GuardPolicy} says which tables may be read, which columns may not,
 * whether {@code SELECT *} is allowed, which functions may be called ({@link dev.sqlagent.guard.FunctionPolicy}),
 * which mandatory row filters apply ({@link dev.sqlagent.guard.RowFilter}) and the row cap.
 * {@link dev.sqlagent.guard.SqlGuard} checks one SQL against a policy in a dialect and returns a
 * {@link dev.sqlagent.guard.GuardVerdict}: accepted, with the statement to run (the guard's own printing of
 * the tree it checked, with the row filters and the row cap added); rejected, with the
 * {@link dev.sqlagent.guard.Violation}s found; or unparseable. A rejected SQL is never run and never
 * corrected. The guard is pure and thread-safe and can be used without the agent.
 *
 * <p>The guard is one layer of several: {@code dev.sqlagent.guard.engine} asks the database's own
 * planner to confirm the guard's reading, and audits what the agent's database login may do beyond the
 * policy. See {@code docs/security.md} for the threat model and what is tested.
 */
package dev.sqlagent.guard;
