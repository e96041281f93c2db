/**
 * Choosing one answer when the agent wrote several candidate SQLs, without asking a model.
 *
 * <p>{@link dev.sqlagent.choose.CandidateChooser} groups the candidates that ran by result (candidates
 * whose results are the same answer vote together) and scores each group with weighted signals
 * ({@link dev.sqlagent.choose.ChooserWeights}): the vote, near agreement with other groups, how well the
 * result's shape and columns fit the question's wording, how much of the schema the question points to
 * the SQL reads, and penalties for empty results, verifier findings and guard flags. Its
 * {@link dev.sqlagent.choose.CandidateChooser.Choice} names the rule and the signal that decided, for the
 * trace. When the best groups score close together and a judge model is configured,
 * {@link dev.sqlagent.choose.FinalistJudge} shows it the finalists side by side and reads its pick.
 * Everything here is pure and thread-safe.
 */
package dev.sqlagent.choose;
