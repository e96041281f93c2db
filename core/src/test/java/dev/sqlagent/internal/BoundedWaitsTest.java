package dev.sqlagent.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.cases.FixStore;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.schema.SchemaCatalog;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The waits around the database that are not the executor's: the schema read shared by the questions
 * that arrive during it, and the fix store left alone after a failure (for the rest of the question, and
 * for a pause that doubles while it keeps failing).
 */
@Timeout(60)
class BoundedWaitsTest {

    private static final SchemaCatalog CATALOG = SchemaCatalog.of(List.of(new SchemaCatalog.Table("t",
            List.of(new SchemaCatalog.Column("id", "INT", false, "")), List.of("id"), List.of(), "")));

    /** Waits until a thread is parked (it waits for the read under way); bounded by the test's timeout. */
    private static void awaitParked(Thread t) throws InterruptedException {
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
            Thread.sleep(5);
        }
    }

    @Test
    void questionsArrivingDuringASchemaReadShareItsFailureAndTheNextQuestionReadsAgain() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        SchemaSource source = SchemaSource.lazy(() -> {
            if (reads.incrementAndGet() == 1) {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new SQLException(e);
                }
                throw new SQLTransientConnectionException("Connection attempt timed out.", "08001");
            }
            return CATALOG;
        });
        CompletableFuture<Object> first = new CompletableFuture<>();
        Thread a = new Thread(() -> {
            try {
                first.complete(source.get());
            } catch (Throwable e) {
                first.complete(e);
            }
        });
        a.start();
        entered.await();
        CompletableFuture<Object> second = new CompletableFuture<>();
        Thread b = new Thread(() -> {
            try {
                second.complete(source.get());
            } catch (Throwable e) {
                second.complete(e);
            }
        });
        b.start();
        awaitParked(b);
        release.countDown();

        assertThat(first.get(30, TimeUnit.SECONDS)).isInstanceOf(SQLException.class);
        assertThat(second.get(30, TimeUnit.SECONDS)).isInstanceOf(SQLException.class)
                .hasFieldOrPropertyWithValue("SQLState", "08001");
        assertThat(reads).hasValue(1);
        assertThat(source.get()).isSameAs(CATALOG);
        assertThat(reads).hasValue(2);
    }

    @Test
    void aFixStoreThatFailedIsLeftAloneForTheQuestionAndForAPauseThatDoubles() {
        AtomicInteger calls = new AtomicInteger();
        FixStore down = new FixStore() {
            @Override
            public Optional<String> get(Key key) throws SQLException {
                calls.incrementAndGet();
                throw new SQLTransientConnectionException("connection refused");
            }

            @Override
            public void put(Key key, String fixedSql) throws SQLException {
                calls.incrementAndGet();
                throw new SQLTransientConnectionException("connection refused");
            }
        };
        AtomicLong now = new AtomicLong();
        FixCache cache = new FixCache(down, now::get);
        String key = FixCache.key("SELECT nme FROM t", "COLUMN_NOT_FOUND", "no column nme", GuardPolicy.allowingTables("t"),
                CATALOG);

        RunScope question = new RunScope();
        try (RunScope.Binding bound = question.bind()) {
            assertThat(cache.lookup(key)).isEmpty();
            cache.put(key, "SELECT id FROM t"); // the same question: not called again
        }
        assertThat(calls).hasValue(1);
        assertThat(cache.failures()).isEqualTo(1);
        assertThat(cache.skipped()).isEqualTo(1);

        now.addAndGet(FixCache.FIRST_PAUSE.toNanos() - 1);
        assertThat(cache.lookup(key)).isEmpty(); // another question, within the pause: skipped
        assertThat(calls).hasValue(1);
        now.addAndGet(1);
        assertThat(cache.lookup(key)).isEmpty(); // the pause is over: one probe, which fails again
        assertThat(calls).hasValue(2);
        now.addAndGet(FixCache.FIRST_PAUSE.toNanos());
        assertThat(cache.lookup(key)).isEmpty(); // the pause doubled: still skipped
        assertThat(calls).hasValue(2);
        now.addAndGet(FixCache.FIRST_PAUSE.toNanos());
        cache.lookup(key);
        assertThat(calls).hasValue(3);
        assertThat(Duration.ofNanos(FixCache.LONGEST_PAUSE.toNanos())).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void aRemainingDeadlineCutsATimeout() {
        assertThat(NetworkTimeouts.capped(5000)).isEqualTo(5000); // no question on this thread
        RunScope question = new RunScope();
        question.startClock(Duration.ofMillis(800));
        try (RunScope.Binding bound = question.bind()) {
            assertThat(NetworkTimeouts.capped(5000)).isBetween(1L, 800L);
            assertThat(NetworkTimeouts.capped(100)).isEqualTo(100);
        } finally {
            question.finish();
        }
        assertThatThrownBy(() -> NetworkTimeouts.bounded(null, 1)).isInstanceOf(NullPointerException.class);
    }
}
