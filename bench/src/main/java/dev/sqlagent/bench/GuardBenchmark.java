package dev.sqlagent.bench;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.statement.Statement;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The full guard (lexical pass, parse, every check, row filter and row cap rewrite, printing) against
 * JSqlParser's plain {@code CCJSqlParserUtil.parse} (which starts a thread per call) and against a bare
 * parse on the caller's thread, on the same realistic analytic statements.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class GuardBenchmark {

    private static final Map<String, String> STATEMENTS = Map.of(
            "join_group",
            "SELECT d.name, count(*) AS staff, avg(e.age) AS mean_age FROM employees e "
                    + "JOIN departments d ON d.id = e.department_id WHERE e.hired >= '2020-01-01' "
                    + "GROUP BY d.name HAVING count(*) > #N# ORDER BY staff DESC LIMIT 20",
            "cte_window",
            "WITH monthly AS (SELECT o.customer_id, strftime('%Y-%m', o.ordered_at) AS month, sum(o.amount) AS total "
                    + "FROM orders o WHERE o.status IN ('paid', 'shipped') GROUP BY o.customer_id, month) "
                    + "SELECT c.name, m.month, m.total, rank() OVER (PARTITION BY m.month ORDER BY m.total DESC) AS r "
                    + "FROM monthly m JOIN customers c ON c.id = m.customer_id WHERE m.total > #N# ORDER BY m.month, r",
            "subqueries",
            "SELECT p.name, p.price FROM products p WHERE p.category_id IN (SELECT id FROM categories "
                    + "WHERE name LIKE 'B%') AND p.price > (SELECT avg(price) FROM products) AND NOT EXISTS "
                    + "(SELECT 1 FROM order_items i JOIN orders o ON o.id = i.order_id WHERE i.product_id = p.id "
                    + "AND o.status = 'returned') UNION SELECT name, price FROM products WHERE stock = #N#");

    /**
     * @param name one of the benchmark's statement names
     * @return its SQL
     */
    static String statement(String name) {
        return statement(name, 0);
    }

    /**
     * @param name one of the benchmark's statement names
     * @param n the number one of its literals takes: another number is another statement, which the
     *     guard's verdict cache has not seen
     * @return its SQL
     */
    static String statement(String name, long n) {
        return STATEMENTS.get(name).replace("#N#", Long.toString(n));
    }

    @Param({"join_group", "cte_window", "subqueries"})
    public String statement;

    private String sql;
    private long n;
    private final SqlGuard guard = SqlGuard.create();
    private GuardPolicy policy;

    /** Picks the statement and builds a policy allowing its tables, with a row filter on one of them. */
    @Setup(Level.Trial)
    public void setUp() {
        sql = statement(statement, 0);
        policy = GuardPolicy.builder()
                .allowTables("employees", "departments", "orders", "customers", "products", "categories", "order_items")
                .denyColumn("employees", "salary")
                .rowFilter("orders", "tenant_id", 42)
                .build();
        if (!(guard.check(sql, policy, Dialect.SQLITE) instanceof GuardVerdict.Accepted)) {
            throw new IllegalStateException("benchmark statement not accepted: " + sql);
        }
    }

    /** @return the guard's verdict: parse, all checks, rewrite, printing */
    @Benchmark
    public GuardVerdict fullGuard() {
        // a literal changes every call: the guard reads every statement, its verdict cache never answers
        return guard.check(statement(statement, ++n), policy, Dialect.SQLITE);
    }

    /** @return JSqlParser's default parse (a new thread per call for its time-out) */
    @Benchmark
    public Statement plainDefaultParse() throws JSQLParserException {
        return CCJSqlParserUtil.parse(statement(statement, ++n));
    }

    /** @return a bare parse on the caller's thread, no checks */
    @Benchmark
    public Statement bareCallerThreadParse() throws ParseException {
        return CCJSqlParserUtil.newParser(statement(statement, ++n)).withAllowComplexParsing(false).Statement();
    }
}
