/**
 * Cases: the record of every finished question, where it is kept and what the agent learns from it.
 *
 * <p>Each question, answered or not, becomes a {@link dev.sqlagent.cases.CaseRecord} with its whole
 * trajectory and is offered to every {@link dev.sqlagent.cases.CaseSink} of the agent. Sinks that write
 * to slow stores ({@link dev.sqlagent.cases.JdbcCaseSink}, {@link dev.sqlagent.cases.JsonlCaseSink}, or
 * a host's own) are called off the asking thread through a {@link dev.sqlagent.cases.CaseDelivery}: a
 * bounded queue, retries within a budget and a journal on disk, so that a failing store never fails a
 * question and loses no case. {@link dev.sqlagent.cases.InMemoryCaseSink} keeps cases in memory for tests.
 *
 * <p>{@link dev.sqlagent.cases.CaseLibrary} is the sink the agent learns from: it keeps verified answers
 * as few-shot examples and successful corrections as repairs in a {@link dev.sqlagent.vector.VectorStore},
 * and hands the most similar ones back to later questions, never any that read a table the current
 * policy forbids.
 */
package dev.sqlagent.cases;
