package dev.sqlagent.bench;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.SqlGuard;
import java.util.Arrays;
import java.util.Locale;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;

/**
 * A cross-check of {@link GuardBenchmark} for a noisy shared machine: the three contenders run in short
 * alternating rounds in one JVM, so background load hits them alike, and the median round is reported.
 * Run with {@code java -cp bench/target/benchmarks.jar dev.sqlagent.bench.InterleavedComparison [rounds]}.
 */
public final class InterleavedComparison {

    private InterleavedComparison() {
    }

    /**
     * Prints the median throughput (operations per second) of each contender per statement.
     *
     * @param args optional number of rounds (default 60)
     * @throws Exception if a statement does not parse
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        SqlGuard guard = SqlGuard.create();
        GuardPolicy policy = GuardPolicy.builder()
                .allowTables("employees", "departments", "orders", "customers", "products", "categories", "order_items")
                .denyColumn("employees", "salary")
                .rowFilter("orders", "tenant_id", 42)
                .build();
        for (String name : new String[] {"join_group", "cte_window", "subqueries"}) {
            long[] n = {0};
            double[][] rates = new double[3][rounds];
            for (int r = -rounds / 2; r < rounds; r++) {
                // a literal changes every call, so that the guard's verdict cache never answers
                double bare = rate(() -> CCJSqlParserUtil.newParser(GuardBenchmark.statement(name, ++n[0]))
                        .withAllowComplexParsing(false).Statement());
                double full = rate(() -> guard.check(GuardBenchmark.statement(name, ++n[0]), policy, Dialect.SQLITE));
                double plain = rate(() -> CCJSqlParserUtil.parse(GuardBenchmark.statement(name, ++n[0])));
                if (r >= 0) {
                    rates[0][r] = bare;
                    rates[1][r] = full;
                    rates[2][r] = plain;
                }
            }
            double bare = median(rates[0]);
            double full = median(rates[1]);
            double plain = median(rates[2]);
            System.out.printf(Locale.ROOT, "%-11s bare caller-thread parse %8.0f ops/s | full guard %8.0f ops/s | "
                            + "plain CCJSqlParserUtil.parse %8.0f ops/s | guard/plain %.2fx | bare/guard %.2fx%n",
                    name, bare, full, plain, full / plain, bare / full);
        }
    }

    private interface Op {
        Object run() throws Exception;
    }

    private static double rate(Op op) throws Exception {
        long start = System.nanoTime();
        long end = start + 200_000_000L;
        int n = 0;
        long now;
        do {
            if (op.run() == null) {
                throw new IllegalStateException("null result");
            }
            n++;
            now = System.nanoTime();
        } while (now < end);
        return n / ((now - start) / 1e9);
    }

    private static double median(double[] xs) {
        double[] copy = xs.clone();
        Arrays.sort(copy);
        return copy[copy.length / 2];
    }
}
