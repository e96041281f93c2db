package dev.sqlagent.engine.duckdb;

import dev.sqlagent.Dialect;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.statement.select.TableFunction;

/**
 * The one kind of table function the guard lets into {@code FROM}: DuckDB's integer generators
 * {@code range(…)} (end excluded) and {@code generate_series(…)} (end included), with one to three integer
 * constants (stop; start, stop; start, stop, step) and at most {@link #MAX_ROWS} rows. They read nothing but
 * their arguments, and their one output column is named after the function (or by the alias's column
 * list). Several generators in one statement may make at most {@link #MAX_ROWS} rows together (their
 * product: a cross join of two is the product of their sizes). Anything else in {@code FROM} that is a function (a file reader, a catalog function, a generator
 * over expressions, timestamps or a computed size, {@code LATERAL}, {@code WITH ORDINALITY}) stays refused.
 */
final class DuckDbGenerators {

    /** The most rows a generator in {@code FROM} may make. */
    static final long MAX_ROWS = dev.sqlagent.internal.IntegerSeries.MAX_ROWS;

    private DuckDbGenerators() {
    }

    /**
     * @param tf a bounded generator ({@link #problem} null)
     * @return how many rows it makes
     */
    static BigInteger rows(TableFunction tf) {
        List<BigInteger> args = new ArrayList<>();
        for (Expression e : tf.getFunction().getParameters()) {
            args.add(integer(e));
        }
        return dev.sqlagent.internal.IntegerSeries.rows(args,
                tf.getFunction().getName().equalsIgnoreCase("generate_series"));
    }

    /**
     * @param tf a table function in FROM
     * @param dialect the dialect
     * @return the generator's output column (folded), or null when it is not a bounded DuckDB generator
     */
    static String column(TableFunction tf, Dialect dialect) {
        return problem(tf, dialect) == null ? tf.getFunction().getName().toLowerCase(Locale.ROOT) : null;
    }

    /**
     * @param tf a table function in FROM
     * @param dialect the dialect
     * @return why it is refused, or null when it is a bounded DuckDB generator
     */
    static String problem(TableFunction tf, Dialect dialect) {
        if (dialect != Dialect.DUCKDB) {
            return "table functions are not allowed in FROM";
        }
        Function f = tf.getFunction();
        if (f == null || tf.isRowsFrom() || tf.getPrefix() != null || tf.getWithClause() != null
                || tf.getPivot() != null || tf.getUnPivot() != null || f.getMultipartName() == null
                || f.getMultipartName().size() != 1) {
            return "table functions are not allowed in FROM (but DuckDB's range and generate_series over integer "
                    + "constants)";
        }
        String name = f.getName().toLowerCase(Locale.ROOT);
        boolean inclusive = name.equals("generate_series");
        if (!inclusive && !name.equals("range")) {
            return "table function " + f.getName() + " is not allowed in FROM (only DuckDB's range and "
                    + "generate_series over integer constants)";
        }
        List<BigInteger> args = new ArrayList<>();
        if (f.getParameters() != null) {
            for (Expression e : f.getParameters()) {
                BigInteger v = integer(e);
                if (v == null) {
                    return f.getName() + " in FROM takes integer constants only";
                }
                args.add(v);
            }
        }
        StringBuilder canonical = new StringBuilder(f.getName()).append('(');
        for (int i = 0; i < args.size(); i++) {
            canonical.append(i == 0 ? "" : ",").append(args.get(i));
        }
        canonical.append(')');
        if (args.isEmpty() || args.size() > 3 || !f.toString().replace(" ", "").equals(canonical.toString())) {
            return f.getName() + " in FROM takes one to three integer constants and nothing else";
        }
        BigInteger rows = dev.sqlagent.internal.IntegerSeries.rows(args, inclusive);
        if (rows.signum() < 0) {
            return f.getName() + " with a step of 0";
        }
        if (rows.compareTo(BigInteger.valueOf(MAX_ROWS)) > 0) {
            return f.getName() + " would make " + rows + " rows, more than " + MAX_ROWS;
        }
        return null;
    }

    private static BigInteger integer(Expression e) {
        if (e instanceof LongValue l) {
            return new BigInteger(l.getStringValue());
        }
        if (e instanceof SignedExpression s && s.getExpression() instanceof LongValue l
                && (s.getSign() == '-' || s.getSign() == '+')) {
            BigInteger v = new BigInteger(l.getStringValue());
            return s.getSign() == '-' ? v.negate() : v;
        }
        return null;
    }
}
