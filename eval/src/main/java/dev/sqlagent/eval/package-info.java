/**
 * Measures an agent on a question set with reference SQL, as Spider's execution evaluation does
 * (artifact {@code sqlagent-eval}; the command line's {@code eval} command is built on it).
 *
 * <p>{@link dev.sqlagent.eval.EvalQuestions} reads the questions ({@link dev.sqlagent.eval.EvalQuestion},
 * JSONL or CSV); {@link dev.sqlagent.eval.EvaluationRunner} asks them, compares each answer with the gold
 * SQL's result ({@link dev.sqlagent.eval.GoldComparison}), writes one
 * {@link dev.sqlagent.eval.EvalRecord} a line as each question finishes (so a killed run can be resumed)
 * and sums them up in an {@link dev.sqlagent.eval.EvalSummary}.
 *
 * <p>Replays measure the agent's governance on predictions recorded earlier, without a model:
 * {@link dev.sqlagent.eval.ReplayLlm} answers from {@link dev.sqlagent.eval.PredictionFile}s,
 * {@link dev.sqlagent.eval.ReplayBaselines} gives the reference points (each file alone, a plain vote,
 * the oracle), and {@link dev.sqlagent.eval.ChoiceReplay} scores candidate choosers on the loaded
 * results. Input files that cannot be read raise {@link dev.sqlagent.eval.EvalInputException}, naming
 * the file and the line.
 */
package dev.sqlagent.eval;
