package dev.sqlagent.bench;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.guard.engine.EngineCheck;
import dev.sqlagent.guard.engine.EngineVerdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The guard and the engine check side by side, per statement, on each engine: Spider's
 * {@code concert_singer} database (SQLite file from {@code shared/data}; PostgreSQL and MariaDB as loaded by
 * the tests, at the {@code SQLAGENT_PG_URL}/{@code SQLAGENT_MARIADB_URL} servers or their defaults on
 * loopback; H2 in memory with the same tables). The engine check borrows a connection per call from a
 * plain (unpooled) data source except on SQLite and H2, where opening is cheap; {@code engineCheckPooled}
 * holds one connection, as a pooled host would.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar EngineCheckBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class EngineCheckBenchmark {

    /** A question's typical statement: a join, a filter, a group, an order. */
    static final String SQL = "SELECT T2.concert_Name, count(*) AS singers FROM singer_in_concert AS T1 "
            + "JOIN concert AS T2 ON T1.concert_ID = T2.concert_ID WHERE T2.Year = '2014' "
            + "GROUP BY T2.concert_Name ORDER BY singers DESC";

    /**
     * A statement with a correlated sub-query that stays a sub-plan: on PostgreSQL up to 16 the check plans it
     * a second time, to read from the planner's tree what a sub-plan's printing hides.
     */
    static final String SUBPLAN_SQL = "SELECT T2.concert_Name, (SELECT count(*) FROM singer_in_concert AS T1 "
            + "WHERE T1.concert_ID = T2.concert_ID) AS singers FROM concert AS T2 ORDER BY T2.concert_Name";

    @Param({"sqlite", "h2", "postgresql", "mariadb"})
    String engine;

    /** {@code join}: {@link #SQL}; {@code subplan}: {@link #SUBPLAN_SQL}. */
    @Param({"join", "subplan"})
    String shape;

    private final SqlGuard guard = SqlGuard.create();
    private GuardPolicy policy;
    private Dialect dialect;
    private EngineCheck check;
    private Connection held;
    private GuardVerdict.Accepted accepted;
    private String sql;
    private long n;

    @Setup
    public void setUp() throws Exception {
        // a generous parse cap: the first parse in a cold JVM on a loaded machine may take seconds
        policy = GuardPolicy.builder().allowTables("singer", "concert", "singer_in_concert", "stadium")
                .denyColumn("singer", "age").parseTimeout(java.time.Duration.ofSeconds(60)).build();
        DataSource ds;
        sql = switch (shape) {
            case "join" -> SQL;
            case "subplan" -> SUBPLAN_SQL;
            default -> throw new IllegalArgumentException(shape);
        };
        switch (engine) {
            case "sqlite" -> {
                dialect = Dialect.SQLITE;
                Path file = Path.of(System.getProperty("sqlagent.data", "../shared/data"))
                        .resolve("spider-dev/sqlite/concert_singer.sqlite");
                if (!Files.isRegularFile(file)) {
                    throw new IllegalStateException("no " + file.toAbsolutePath() + "; pass -Dsqlagent.data=DIR");
                }
                ds = new UrlDataSource("jdbc:sqlite:file:" + file.toAbsolutePath() + "?mode=ro", null, null);
            }
            case "h2" -> {
                dialect = Dialect.H2;
                sql = sql.replace("T2.Year = '2014'", "T2.Theme = 'Happy'"); // YEAR is a keyword in H2
                ds = new UrlDataSource("jdbc:h2:mem:bench_engine;DB_CLOSE_DELAY=-1", "sa", "");
                try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE IF NOT EXISTS concert (concert_ID BIGINT PRIMARY KEY, concert_Name VARCHAR, "
                            + "Theme VARCHAR, Stadium_ID VARCHAR, \"YEAR\" VARCHAR)");
                    s.execute("CREATE TABLE IF NOT EXISTS singer_in_concert (concert_ID BIGINT, Singer_ID BIGINT)");
                }
            }
            case "postgresql" -> {
                dialect = Dialect.POSTGRESQL;
                ds = new UrlDataSource(env("SQLAGENT_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test")
                        + "?currentSchema=concert_singer", env("SQLAGENT_PG_USER", "postgres"),
                        env("SQLAGENT_PG_PASSWORD", ""));
            }
            case "mariadb" -> {
                dialect = Dialect.MARIADB;
                ds = new UrlDataSource(env("SQLAGENT_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test")
                        .replace("/test", "/concert_singer"), env("SQLAGENT_MARIADB_USER", "root"),
                        env("SQLAGENT_MARIADB_PASSWORD", ""));
            }
            default -> throw new IllegalArgumentException(engine);
        }
        check = EngineCheck.create(ds, dialect);
        held = ds.getConnection();
        accepted = (GuardVerdict.Accepted) guard.check(sql, policy, dialect);
        EngineVerdict v = check.check(accepted, policy);
        if (!(v instanceof EngineVerdict.Confirmed)) {
            throw new IllegalStateException("the engine check must confirm the benchmark's statement: " + v);
        }
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    /** @return the guard's verdict alone, on a statement its verdict cache has not seen (a changed literal) */
    @Benchmark
    public GuardVerdict guard() {
        String changed = shape.equals("join") ? " HAVING count(*) > -" + (++n) + " ORDER BY"
                : " WHERE T2.concert_ID > -" + (++n) + " ORDER BY";
        return guard.check(sql.replace(" ORDER BY", changed), policy, dialect);
    }

    /** @return the engine check of the accepted statement, a connection opened per call */
    @Benchmark
    public EngineVerdict engineCheck() {
        return check.check(accepted, policy);
    }

    /**
     * @return the engine's reading on a connection held open, as with a pool
     * @throws Exception if the engine fails
     */
    @Benchmark
    public Object engineCheckPooled() throws Exception {
        return EngineCheck.disagreements(check.read(held, accepted.statement()), policy, dialect);
    }
}
