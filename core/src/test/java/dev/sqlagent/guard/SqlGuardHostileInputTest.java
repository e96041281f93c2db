package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Inputs built to hang or exhaust the guard: size, nesting, parse time, concurrency. The time-outs of these
 * tests only bound a hang (generously: a loaded machine may be ten times slower than a quiet one); no test
 * asserts how long a check took.
 */
class SqlGuardHostileInputTest {

    private final SqlGuard guard = SqlGuard.create();
    private final GuardPolicy policy = GuardPolicy.allowingTables("t");

    @Test
    @Timeout(60)
    void aOneMegabyteInputIsRejectedWithoutParsing() {
        String sql = "SELECT a FROM t WHERE a IN (" + "1,".repeat(500_000) + "1)";
        GuardVerdict v = guard.check(sql, policy, Dialect.POSTGRESQL);
        assertThat(((GuardVerdict.Rejected) v).violations().get(0).type()).isEqualTo(ViolationType.INPUT_TOO_LONG);
        assertThat(((GuardVerdict.Rejected) v).violations().get(0).fragment()).hasSizeLessThan(100);
    }

    @Test
    @Timeout(120)
    void aOneMegabyteInputUnderARaisedCapNeitherHangsNorExhaustsMemory() {
        GuardPolicy big = policy.toBuilder().maxSqlLength(2_000_000).parseTimeout(Duration.ofSeconds(2)).build();
        String sql = "SELECT a FROM t WHERE a = 1" + " OR a = 1".repeat(110_000);
        GuardVerdict v = guard.check(sql, big, Dialect.POSTGRESQL);
        assertThat(v).isNotNull();
    }

    @Test
    @Timeout(60)
    void deeplyNestedParenthesesAreRejectedBeforeParsing() {
        String sql = "SELECT a FROM t WHERE a = " + "(".repeat(5000) + "1" + ")".repeat(5000);
        GuardVerdict v = guard.check(sql, policy, Dialect.POSTGRESQL);
        assertThat(((GuardVerdict.Rejected) v).violations().get(0).type()).isEqualTo(ViolationType.NESTING_TOO_DEEP);
    }

    @Test
    @Timeout(120)
    void nestingJustUnderTheCapParses() {
        // parses in tens of milliseconds on a quiet machine; the parse cap is raised so that load cannot
        // turn the verdict into a PARSE_TIMEOUT: what is tested is the nesting rule and the parser's stack
        GuardPolicy patient = policy.toBuilder().parseTimeout(Duration.ofMinutes(1)).build();
        int depth = GuardPolicy.DEFAULT_MAX_NESTING_DEPTH;
        String sql = "SELECT a FROM t WHERE a = " + "(".repeat(depth) + "1" + ")".repeat(depth);
        GuardVerdict v = guard.check(sql, patient, Dialect.POSTGRESQL);
        assertThat(v).isInstanceOf(GuardVerdict.Accepted.class);
    }

    @Test
    @Timeout(120)
    void theParseTimeCapStopsASlowParseOnTheCallersThread() {
        // a full parse of this takes seconds (4 to 15 s on a loaded machine) against a 1 ms cap: the verdict
        // is a time-out whatever the load; how soon it came is not asserted
        GuardPolicy quick = policy.toBuilder().parseTimeout(Duration.ofMillis(1)).maxSqlLength(2_000_000).build();
        String sql = "SELECT a FROM t WHERE " + "a = 1 AND (b = 2 OR c = 3) AND ".repeat(20_000) + "1 = 1";
        GuardVerdict v = guard.check(sql, quick, Dialect.POSTGRESQL);
        assertThat(((GuardVerdict.Rejected) v).violations().get(0).type()).isEqualTo(ViolationType.PARSE_TIMEOUT);
    }

    @Test
    void aLongChainOfOperatorsIsAVerdictNotAStackOverflow() {
        GuardPolicy big = policy.toBuilder().maxSqlLength(200_000).build();
        String sql = "SELECT a FROM t WHERE a = " + "NOT ".repeat(40_000) + "1";
        assertThat(guard.check(sql, big, Dialect.POSTGRESQL)).isNotNull();
        String sum = "SELECT " + "a + ".repeat(40_000) + "1 FROM t";
        assertThat(guard.check(sum, big, Dialect.POSTGRESQL)).isNotNull();
    }

    @Test
    void theGuardIsThreadSafe() throws Exception {
        GuardPolicy filtered = GuardPolicy.builder().allowTables("t", "u").rowFilter("t", "tenant", 7).build();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                int n = i;
                results.add(pool.submit(() -> {
                    GuardVerdict v = guard.check("SELECT a FROM t JOIN u ON u.id = t.id WHERE a = " + n, filtered,
                            Dialect.POSTGRESQL);
                    return ((GuardVerdict.Accepted) v).statement().sql();
                }));
            }
            for (int i = 0; i < results.size(); i++) {
                assertThat(results.get(i).get(2, TimeUnit.MINUTES)).isEqualTo("SELECT a FROM (SELECT * FROM t WHERE t.tenant = ?) AS t "
                        + "JOIN u ON u.id = t.id WHERE a = " + i + " LIMIT 1000");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anInjectedWatchdogIsUsedForTimeOuts() {
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
        try {
            SqlGuard own = SqlGuard.create(watchdog);
            assertThat(own.check("SELECT a FROM t", policy, Dialect.H2)).isInstanceOf(GuardVerdict.Accepted.class);
        } finally {
            watchdog.shutdownNow();
        }
    }
}
