/**
 * Test helpers for applications that use sqlagent, and for sqlagent's own tests (artifact
 * {@code sqlagent-test}): a scripted model and a small real database.
 *
 * <p>{@link dev.sqlagent.testkit.ScriptedLlm} is an {@link dev.sqlagent.llm.LlmClient} that answers
 * from replies queued per role, records every request and injects faults (timeouts, exceptions, empty
 * or malformed replies), so a test scripts the model, not the agent's internals.
 * {@link dev.sqlagent.testkit.CompanyDatabase} is an in-memory H2 database with a few related tables,
 * an administrator and a read-only user, so that tests run against a real engine with real permission
 * errors. {@link dev.sqlagent.testkit.ShopDatabase} is a smaller one: three tables in H2, one of them for a
 * policy to forbid. Not meant for production use.
 */
package dev.sqlagent.testkit;
