package dev.sqlagent.internal.run;

/**
 * A candidate SQL of one round.
 *
 * @param index its index in the round
 * @param sql the cleaned SQL
 */
public record Candidate(int index, String sql) {
}
