package dev.sqlagent.verify;

import dev.sqlagent.execution.ResultTable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Decides whether two results are the same answer, as Spider's execution evaluation does: rows compared
 * as multisets (in order when the question's SQL orders them), columns matched under any permutation
 * when both results have the same width, numbers equal within a relative tolerance, and integral
 * numbers equal to their decimal or text forms ({@code 3}, {@code 3.0}, {@code "3"}). Pure and
 * thread-safe.
 */
public final class ResultEquivalence {

    /** Default relative tolerance for numbers. */
    public static final double DEFAULT_TOLERANCE = 1e-6;
    private static final int MAX_PERMUTED_WIDTH = 6;

    private final double tolerance;
    private final boolean permuteColumns;

    private ResultEquivalence(double tolerance) {
        this(tolerance, true);
    }

    private ResultEquivalence(double tolerance, boolean permuteColumns) {
        this.tolerance = tolerance;
        this.permuteColumns = permuteColumns;
    }

    /**
     * The stricter comparison that keeps columns in position (no permutation), otherwise as
     * {@link #standard()}: what a comparison of result tables cell by cell counts as equal.
     *
     * @return the positional comparison with {@link #DEFAULT_TOLERANCE}
     */
    public static ResultEquivalence positional() {
        return new ResultEquivalence(DEFAULT_TOLERANCE, false);
    }

    /** {@return the comparison with {@link #DEFAULT_TOLERANCE}} */
    public static ResultEquivalence standard() {
        return new ResultEquivalence(DEFAULT_TOLERANCE);
    }

    /**
     * Creates a comparison with another tolerance for numbers.
     *
     * @param tolerance relative tolerance for numbers, 0 or more
     * @return a comparison with that tolerance
     * @throws IllegalArgumentException if {@code tolerance} is negative or NaN
     */
    public static ResultEquivalence withTolerance(double tolerance) {
        if (!(tolerance >= 0)) {
            throw new IllegalArgumentException("tolerance must be >= 0 but was " + tolerance);
        }
        return new ResultEquivalence(tolerance);
    }

    /**
     * Compares two results' rows.
     *
     * @param a a result
     * @param b another result
     * @param ordered whether row order matters (the reference SQL has a top-level ORDER BY)
     * @return whether they are the same answer
     */
    public boolean equivalent(ResultTable a, ResultTable b, boolean ordered) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        return equivalent(a.rows(), b.rows(), ordered);
    }

    /**
     * Compares two lists of rows.
     *
     * @param a rows of a result
     * @param b rows of another
     * @param ordered whether row order matters
     * @return whether they are the same answer
     */
    public boolean equivalent(List<List<Object>> a, List<List<Object>> b, boolean ordered) {
        if (a.size() != b.size()) {
            return false;
        }
        if (a.isEmpty()) {
            return true;
        }
        int width = a.get(0).size();
        if (width != b.get(0).size()) {
            return false;
        }
        if (width > MAX_PERMUTED_WIDTH || !permuteColumns) {
            return sameRows(a, b, identity(width), ordered);
        }
        for (int[] perm : permutations(width)) {
            if (sameRows(a, b, perm, ordered)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A canonical key of one value, equal for values this comparison treats as equal at zero tolerance.
     *
     * @param v a value
     * @return its key
     */
    public static String valueKey(Object v) {
        if (v == null) {
            return "null";
        }
        BigDecimal n = number(v);
        if (n != null) {
            BigDecimal s = n.stripTrailingZeros();
            if (s.scale() > 6) {
                s = s.setScale(6, java.math.RoundingMode.HALF_EVEN).stripTrailingZeros();
            }
            return "n:" + (s.signum() == 0 ? "0" : s.toPlainString());
        }
        return "s:" + v.toString().trim().toLowerCase(Locale.ROOT);
    }

    private boolean sameRows(List<List<Object>> a, List<List<Object>> b, int[] perm, boolean ordered) {
        if (ordered) {
            for (int i = 0; i < a.size(); i++) {
                if (!sameRow(a.get(i), b.get(i), perm)) {
                    return false;
                }
            }
            return true;
        }
        if (tolerance == 0 || !hasFractions(a)) {
            Map<String, Integer> counts = new HashMap<>();
            for (List<Object> row : a) {
                counts.merge(rowKey(row, identity(row.size())), 1, Integer::sum);
            }
            for (List<Object> row : b) {
                String k = rowKey(row, perm);
                Integer c = counts.get(k);
                if (c == null) {
                    return false;
                }
                if (c == 1) {
                    counts.remove(k);
                } else {
                    counts.put(k, c - 1);
                }
            }
            return counts.isEmpty();
        }
        boolean[] used = new boolean[b.size()];
        outer:
        for (List<Object> row : a) {
            for (int j = 0; j < b.size(); j++) {
                if (!used[j] && sameRow(row, b.get(j), perm)) {
                    used[j] = true;
                    continue outer;
                }
            }
            return false;
        }
        return true;
    }

    private boolean sameRow(List<Object> x, List<Object> y, int[] perm) {
        for (int c = 0; c < x.size(); c++) {
            if (!sameValue(x.get(c), y.get(perm[c]))) {
                return false;
            }
        }
        return true;
    }

    private boolean sameValue(Object x, Object y) {
        if (x == null || y == null) {
            return x == y;
        }
        BigDecimal nx = number(x);
        BigDecimal ny = number(y);
        if (nx != null && ny != null) {
            if (nx.compareTo(ny) == 0) {
                return true;
            }
            double dx = nx.doubleValue();
            double dy = ny.doubleValue();
            return Math.abs(dx - dy) <= tolerance * Math.max(1.0, Math.max(Math.abs(dx), Math.abs(dy)));
        }
        return x.toString().trim().equalsIgnoreCase(y.toString().trim());
    }

    private static boolean hasFractions(List<List<Object>> rows) {
        for (List<Object> row : rows) {
            for (Object v : row) {
                if (v instanceof Double || (v instanceof BigDecimal && ((BigDecimal) v).stripTrailingZeros().scale() > 0)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String rowKey(List<Object> row, int[] perm) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < row.size(); c++) {
            sb.append(valueKey(row.get(perm[c]))).append('\u0001');
        }
        return sb.toString();
    }

    private static BigDecimal number(Object v) {
        if (v instanceof BigDecimal) {
            return (BigDecimal) v;
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
        }
        if (v instanceof String) {
            String s = ((String) v).trim();
            if (!s.isEmpty() && s.length() < 40 && (Character.isDigit(s.charAt(s.length() - 1)))) {
                try {
                    return new BigDecimal(s);
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private static int[] identity(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        return p;
    }

    private static List<int[]> permutations(int n) {
        List<int[]> out = new ArrayList<>();
        permute(identity(n), 0, out);
        return out;
    }

    private static void permute(int[] p, int k, List<int[]> out) {
        if (k == p.length) {
            out.add(Arrays.copyOf(p, p.length));
            return;
        }
        for (int i = k; i < p.length; i++) {
            swap(p, k, i);
            permute(p, k + 1, out);
            swap(p, k, i);
        }
    }

    private static void swap(int[] p, int i, int j) {
        int t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}
