package dev.sqlagent.choose;

/**
 * The weights of the signals a {@link CandidateChooser} adds into a group's score. A group's score is
 * {@code sum(weight x value)} over the signals below; the highest score wins, a tie goes to the group
 * whose first member comes first. The defaults ({@link #DEFAULTS}) were decided on half of the Spider dev
 * databases (those whose id hashes even, see {@code docs/evaluation.md}) and checked on the other half.
 *
 * @param vote per candidate in the group (execution consistency): the base of the score
 * @param near per candidate of another group whose result nearly equals this one's (the same rows with
 *     more or fewer columns, or one result's rows a part of the other's)
 * @param shape per point of fit between the question's wording and the result's shape (each cue gives
 *     +1 when met, -1 when broken: "how many" and one row, a superlative and a limit, "each ... how many"
 *     and a grouping, "different" and no repeated row, "sorted" and an ORDER BY)
 * @param columns times the share (0 to 1) of result columns the question asks for (a column named in
 *     the question, or an aggregate the question's words call for)
 * @param link times the share (0 to 1) of the tables and columns the question points to that the SQL reads
 * @param degenerate subtracted once when the result says nothing (no rows, or one row of zeros and nulls)
 *     and the question does not ask whether something exists
 * @param findings subtracted per verifier finding on the result
 * @param flags subtracted per guard or cleaner flag on the candidate
 */
public record ChooserWeights(double vote, double near, double shape, double columns, double link, double degenerate,
        double findings, double flags) {

    /** The weights the library uses unless told otherwise. */
    public static final ChooserWeights DEFAULTS = new ChooserWeights(1.0, 0.75, 0.5, 0.2, 0.4, 1.5, 0.3, 0.1);

    /** Plain execution consistency: the vote alone. */
    public static final ChooserWeights VOTE_ONLY = new ChooserWeights(1.0, 0, 0, 0, 0, 0, 0, 0);

    /**
     * Checks the weights: finite and not negative.
     *
     * @param vote per candidate in the group (execution consistency): the base of the score
     * @param near per candidate of another group whose result nearly equals this one's (the same rows with
     *     more or fewer columns, or one result's rows a part of the other's)
     * @param shape per point of fit between the question's wording and the result's shape (each cue gives
     *     +1 when met, -1 when broken: "how many" and one row, a superlative and a limit, "each ... how many"
     *     and a grouping, "different" and no repeated row, "sorted" and an ORDER BY)
     * @param columns times the share (0 to 1) of result columns the question asks for (a column named in
     *     the question, or an aggregate the question's words call for)
     * @param link times the share (0 to 1) of the tables and columns the question points to that the SQL reads
     * @param degenerate subtracted once when the result says nothing (no rows, or one row of zeros and nulls)
     *     and the question does not ask whether something exists
     * @param findings subtracted per verifier finding on the result
     * @param flags subtracted per guard or cleaner flag on the candidate
     */
    public ChooserWeights {
        for (double w : new double[] {vote, near, shape, columns, link, degenerate, findings, flags}) {
            if (!(w >= 0) || Double.isInfinite(w)) {
                throw new IllegalArgumentException("weights must be finite and >= 0 but one was " + w);
            }
        }
    }
}
