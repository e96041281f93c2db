/**
 * Checking results without asking a model, and reading what the judge model says when one is asked.
 *
 * <p>A {@link dev.sqlagent.verify.ResultVerifier} is a deterministic check of a result; its finding, one
 * sentence, counts against a candidate when the agent chooses among several and may serve as the
 * feedback of the single correction. {@link dev.sqlagent.verify.Verifiers} holds the standard ones (an
 * empty result, a number of the question missing from the SQL, an all-NULL column, a "top one per X"
 * result that repeats an X). {@link dev.sqlagent.verify.ResultEquivalence} says when two results are the
 * same answer (rows as multisets, columns in any order, numbers within a tolerance), and
 * {@link dev.sqlagent.verify.ResultGroups} groups candidates by it. {@link dev.sqlagent.verify.JudgeVerdict}
 * is the judge model's verdict on a result, when a judge is configured.
 */
package dev.sqlagent.verify;
