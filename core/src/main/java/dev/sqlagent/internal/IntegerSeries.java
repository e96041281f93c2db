package dev.sqlagent.internal;

import java.math.BigInteger;
import java.util.List;

/**
 * The size of DuckDB's integer generators {@code range(…)} (stop excluded) and {@code generate_series(…)}
 * (stop included) over constants, one rule for the guard and the engine check. Not part of the API.
 */
public final class IntegerSeries {

    /** The most rows a generator in {@code FROM} may make. */
    public static final long MAX_ROWS = 1_000_000;

    private IntegerSeries() {
    }

    /**
     * @param args one to three constants: stop; start, stop; or start, stop, step
     * @param inclusive whether the stop is included ({@code generate_series})
     * @return the number of rows, or -1 when the arguments are no series (none, more than three, a step of 0)
     */
    public static BigInteger rows(List<BigInteger> args, boolean inclusive) {
        if (args.isEmpty() || args.size() > 3) {
            return BigInteger.ONE.negate();
        }
        BigInteger start = args.size() == 1 ? BigInteger.ZERO : args.get(0);
        BigInteger stop = args.size() == 1 ? args.get(0) : args.get(1);
        BigInteger step = args.size() == 3 ? args.get(2) : BigInteger.ONE;
        if (step.signum() == 0) {
            return BigInteger.ONE.negate();
        }
        BigInteger span = stop.subtract(start);
        if (inclusive) {
            span = span.add(BigInteger.valueOf(step.signum()));
        }
        return span.signum() != step.signum() ? BigInteger.ZERO
                : span.abs().add(step.abs()).subtract(BigInteger.ONE).divide(step.abs());
    }
}
