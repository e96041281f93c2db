/**
 * What happened to a question, step by step: the record every result carries and the hook that hears it
 * as it happens.
 *
 * <p>A question moves through the {@link dev.sqlagent.trace.Stage}s of one state machine, whose transition
 * table is the law: each move is a {@link dev.sqlagent.trace.StageTransition}, published to every
 * {@link dev.sqlagent.trace.StageListener} (for metrics, logging, tracing) and recorded. The
 * {@link dev.sqlagent.trace.Trace} of a result holds every {@link dev.sqlagent.trace.TraceEvent} in order:
 * stages entered, model calls with their prompts and token usage, guard verdicts, executions, the choice
 * among candidates, the judge's verdicts, the single correction ({@link dev.sqlagent.trace.CorrectionRecord})
 * and remarks. Traces are immutable.
 */
package dev.sqlagent.trace;
