package dev.sqlagent.bench;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;

/**
 * Whether the guard's work grows linearly with a statement's size: statements of 25 to 400 predicates,
 * select-list columns and IN-list values, each checked under a fresh policy (so that no verdict is cached),
 * best of 15 per size; the factor from one size to the next (twice as large) should stay near 2.
 * Run: {@code java -cp bench/target/benchmarks.jar dev.sqlagent.bench.GuardScaling}.
 */
public final class GuardScaling {

    private static final String[] KINDS = {"predicates", "columns", "in-list"};

    private GuardScaling() {
    }

    static String statement(int n, int kind) {
        StringBuilder sb = new StringBuilder("SELECT ");
        if (kind == 0) {
            sb.append("o.id FROM orders o JOIN customers c ON c.id = o.customer_id WHERE ");
            for (int i = 0; i < n; i++) {
                sb.append(i > 0 ? " AND " : "").append("o.amount > ").append(i);
            }
        } else if (kind == 1) {
            for (int i = 0; i < n; i++) {
                sb.append(i > 0 ? ", " : "").append(i % 2 == 0 ? "o.amount" : "c.name").append(" AS a").append(i);
            }
            sb.append(" FROM orders o JOIN customers c ON c.id = o.customer_id");
        } else {
            sb.append("o.id FROM orders o WHERE o.id IN (");
            for (int i = 0; i < n; i++) {
                sb.append(i > 0 ? ", " : "").append(i);
            }
            sb.append(')');
        }
        return sb.toString();
    }

    /**
     * Prints the best time per size and the factor from the size before.
     *
     * @param args unused
     */
    public static void main(String[] args) {
        SqlGuard guard = SqlGuard.create();
        for (int kind = 0; kind < KINDS.length; kind++) {
            StringBuilder line = new StringBuilder(KINDS[kind] + ":");
            double previous = 0;
            for (int n : new int[] {25, 50, 100, 200, 400}) {
                String sql = statement(n, kind);
                long best = Long.MAX_VALUE;
                for (int r = 0; r < 15; r++) {
                    GuardPolicy policy = GuardPolicy.builder().allowTables("orders", "customers")
                            .tableColumns("orders", Set.of("id", "customer_id", "amount"))
                            .tableColumns("customers", Set.of("id", "name"))
                            .maxSqlLength(1_000_000).parseTimeout(Duration.ofSeconds(30)).build();
                    long t0 = System.nanoTime();
                    GuardVerdict v = guard.check(sql, policy, Dialect.POSTGRESQL);
                    long t = System.nanoTime() - t0;
                    if (!(v instanceof GuardVerdict.Accepted)) {
                        throw new IllegalStateException("not accepted: " + v);
                    }
                    best = Math.min(best, t);
                }
                line.append(String.format(Locale.ROOT, " n=%d %.2f ms", n, best / 1e6));
                if (previous > 0) {
                    line.append(String.format(Locale.ROOT, " (x%.1f)", best / previous));
                }
                previous = best;
            }
            System.out.println(line);
        }
    }
}
