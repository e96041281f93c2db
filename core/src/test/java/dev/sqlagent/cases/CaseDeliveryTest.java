package dev.sqlagent.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The delivery worker: never on the caller's thread, a budget, a journal, replay, dead letters, close. */
@Timeout(60)
class CaseDeliveryTest {

    static CaseRecord caseNo(int i) {
        return new CaseRecord("id-" + i, "question " + i, "orders", "count", "SELECT " + i, CaseRecord.Status.GOOD,
                "ANSWERED", "", "", List.of(), true, OptionalInt.empty(), 0,
                List.of(new CaseRecord.Attempt(0, "SELECT " + i, "ok", 1, "", Optional.empty(), "")), List.of("orders"),
                List.of("scripted"), Instant.parse("2026-11-29T00:00:00Z"), "{}");
    }

    /** A sink that counts per id, can be switched down, and signals every stored case. */
    static final class Store implements CaseSink {
        final AtomicBoolean up = new AtomicBoolean(true);
        final List<String> ids = new ArrayList<>();
        final AtomicInteger attempts = new AtomicInteger();

        @Override
        public void accept(CaseRecord r) throws SQLException {
            attempts.incrementAndGet();
            if (!up.get()) {
                throw new SQLException("connection refused", "08001");
            }
            synchronized (this) {
                ids.add(r.id());
                notifyAll();
            }
        }

        synchronized List<String> ids() {
            return List.copyOf(ids);
        }

        synchronized void awaitSize(int n) throws InterruptedException {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (ids.size() < n && System.nanoTime() < until) {
                wait(100);
            }
        }
    }

    @Test
    void acceptNeverWaitsForTheSinkAndAFullQueueSpillsToTheJournal(@TempDir Path dir) throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Store store = new Store();
        CaseSink slow = r -> {
            entered.countDown();
            release.await();
            store.accept(r);
        };
        CaseDelivery d = CaseDelivery.builder(slow).queue(1, CaseDelivery.Overflow.JOURNAL)
                .journal(dir.resolve("j.jsonl")).durability(CaseDelivery.Durability.SPILL, Duration.ZERO).build();
        d.accept(caseNo(1));
        entered.await(); // the worker holds case 1 inside the blocked sink; this thread goes on
        d.accept(caseNo(2)); // queued
        d.accept(caseNo(3)); // queue full: journalled on this thread
        assertThat(d.waiting()).isEqualTo(1);
        assertThat(d.journalled()).isEqualTo(1);
        assertThat(JsonlCaseSink.read(dir.resolve("j.jsonl"))).extracting(CaseRecord::id).containsExactly("id-3");

        release.countDown();
        store.awaitSize(3);
        assertThat(store.ids()).containsExactlyInAnyOrder("id-1", "id-2", "id-3");
        // the replay counts a case after the sink has stored it: the count is awaited as a state
        while (d.replayed() < 1) {
            Thread.sleep(1);
        }
        assertThat(d.replayed()).isEqualTo(1);
        d.close();
    }

    @Test
    void anOutageJournalsEveryCaseAndTheReplayDeliversEachOnce(@TempDir Path dir) throws Exception {
        Store store = new Store();
        store.up.set(false);
        CaseDelivery d = CaseDelivery.builder(store).retryBudget(3, Duration.ofSeconds(5))
                .backoff(Duration.ofMillis(1), Duration.ofMillis(20)).journal(dir.resolve("j.jsonl")).build();
        for (int i = 0; i < 50; i++) {
            d.accept(caseNo(i));
        }
        assertThat(d.awaitIdle(Duration.ofSeconds(30))).isTrue();
        assertThat(store.ids()).isEmpty();
        assertThat(d.journalled()).isEqualTo(50);
        assertThat(d.sinkDown()).isTrue();
        // while down, only the first case used its budget; the others were journalled or tried once as a probe
        assertThat(store.attempts.get()).isLessThan(50 + 3);

        store.up.set(true);
        d.accept(caseNo(50));
        store.awaitSize(51);
        assertThat(store.ids()).hasSize(51).doesNotHaveDuplicates();
        assertThat(d.lost()).isZero();
        d.close();
        assertThat(d.running()).isFalse();
    }

    @Test
    void aStoreThatComesBackIsProbedAndReplayedWithoutANewCase(@TempDir Path dir) throws Exception {
        Store store = new Store();
        store.up.set(false);
        CaseDelivery d = CaseDelivery.builder(store).retryBudget(1, Duration.ZERO)
                .backoff(Duration.ofMillis(5), Duration.ofMillis(20)).journal(dir.resolve("j.jsonl")).build();
        d.accept(caseNo(1));
        d.accept(caseNo(2));
        assertThat(d.awaitIdle(Duration.ofSeconds(30))).isTrue();
        store.up.set(true);
        store.awaitSize(2);
        assertThat(store.ids()).containsExactlyInAnyOrder("id-1", "id-2");
        d.close();
    }

    @Test
    void aPermanentErrorIsNotRetriedButKeptAsADeadLetter(@TempDir Path dir) throws Exception {
        AtomicInteger calls = new AtomicInteger();
        CaseDelivery d = CaseDelivery.builder(r -> {
            calls.incrementAndGet();
            throw new SQLException("value too long for type character varying(40)", "22001");
        }).journal(dir.resolve("j.jsonl")).build();
        d.accept(caseNo(7));
        assertThat(d.awaitIdle(Duration.ofSeconds(30))).isTrue();
        assertThat(calls.get()).isEqualTo(1);
        assertThat(d.rejected()).isEqualTo(1);
        assertThat(d.journalled()).isZero();
        assertThat(JsonlCaseSink.read(dir.resolve("j.rejected.jsonl"))).extracting(CaseRecord::id).containsExactly("id-7");
        d.close();
    }

    @Test
    void aJournalLeftByAnEarlierRunIsReplayedAtStartupSkippingATornLastLine(@TempDir Path dir) throws Exception {
        Path journal = dir.resolve("j.jsonl");
        String lines = dev.sqlagent.internal.CaseJson.write(caseNo(1)) + "\n" + dev.sqlagent.internal.CaseJson.write(caseNo(2))
                + "\n" + dev.sqlagent.internal.CaseJson.write(caseNo(3)).substring(0, 40);
        Files.writeString(journal, lines, StandardCharsets.UTF_8);
        Store store = new Store();

        CaseDelivery d = CaseDelivery.builder(store).journal(journal).build();

        store.awaitSize(2);
        assertThat(store.ids()).containsExactly("id-1", "id-2");
        for (int i = 0; i < 3000 && d.running(); i++) {
            Thread.sleep(10); // bounded wait for the worker to finish the replay and retire
        }
        assertThat(d.tornLines()).isEqualTo(1);
        assertThat(d.replayed()).isEqualTo(2);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).doesNotContain("j.jsonl")
                    .noneMatch(n -> n.contains("replay-"));
        }
        d.close();
    }

    @Test
    void aReplayBatchWithOneRefusedCaseStoresTheOthersAndKeepsThatOneAsADeadLetter(@TempDir Path dir) throws Exception {
        Path journal = dir.resolve("j.jsonl");
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            lines.append(dev.sqlagent.internal.CaseJson.write(caseNo(i))).append('\n');
        }
        Files.writeString(journal, lines, StandardCharsets.UTF_8);
        Store store = new Store();
        CaseSink picky = new CaseSink() {
            @Override
            public void accept(CaseRecord r) throws SQLException {
                if (r.id().equals("id-2")) {
                    throw new SQLException("value too long", "22001");
                }
                store.accept(r);
            }

            @Override
            public void acceptAll(List<CaseRecord> records) throws SQLException {
                for (CaseRecord r : records) {
                    if (r.id().equals("id-2")) {
                        throw new SQLException("value too long", "22001"); // the whole batch is rolled back
                    }
                }
                for (CaseRecord r : records) {
                    store.accept(r);
                }
            }
        };

        CaseDelivery d = CaseDelivery.builder(picky).journal(journal).build();

        store.awaitSize(4);
        for (int i = 0; i < 3000 && d.running(); i++) {
            Thread.sleep(10);
        }
        assertThat(store.ids()).containsExactlyInAnyOrder("id-0", "id-1", "id-3", "id-4");
        assertThat(d.rejected()).isEqualTo(1);
        assertThat(JsonlCaseSink.read(dir.resolve("j.rejected.jsonl"))).extracting(CaseRecord::id).containsExactly("id-2");
        d.close();
    }

    @Test
    void closeJournalsWhatIsLeftAndStopsTheWorker(@TempDir Path dir) throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CaseDelivery d = CaseDelivery.builder(r -> {
            entered.countDown();
            throw new java.io.IOException("store restarting");
        }).retryBudget(100, Duration.ofHours(1)).backoff(Duration.ofHours(1), Duration.ofHours(1))
                .journal(dir.resolve("j.jsonl")).build();
        for (int i = 0; i < 5; i++) {
            d.accept(caseNo(i));
        }
        entered.await(); // the worker now sleeps an hour before its retry

        d.close();

        assertThat(d.running()).isFalse();
        assertThat(d.journalled()).isEqualTo(5);
        assertThat(JsonlCaseSink.read(dir.resolve("j.jsonl"))).extracting(CaseRecord::id)
                .containsExactlyInAnyOrder("id-0", "id-1", "id-2", "id-3", "id-4");
        d.accept(caseNo(5)); // after close: straight to the journal
        assertThat(d.journalled()).isEqualTo(6);
    }

    @Test
    void discardPolicyCountsWhatItDrops() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CaseDelivery d = CaseDelivery.builder(r -> {
            entered.countDown();
            release.await();
        }).queue(1, CaseDelivery.Overflow.DISCARD).build();
        d.accept(caseNo(1));
        entered.await();
        d.accept(caseNo(2));
        d.accept(caseNo(3));
        assertThat(d.discarded()).isEqualTo(1);
        assertThat(d.journalled()).isZero();
        release.countDown();
        assertThat(d.awaitIdle(Duration.ofSeconds(30))).isTrue();
        d.close();
    }

    @Test
    void permanentAndTransientFailuresAreToldApart() {
        assertThat(CaseDelivery.isPermanent(new SQLException("dup", "23505"))).isTrue();
        assertThat(CaseDelivery.isPermanent(new SQLException("too long", "22001"))).isTrue();
        assertThat(CaseDelivery.isPermanent(new java.sql.SQLIntegrityConstraintViolationException("x"))).isTrue();
        assertThat(CaseDelivery.isPermanent(new SQLException("refused", "08001"))).isFalse();
        assertThat(CaseDelivery.isPermanent(new SQLException("timeout", "57014"))).isFalse();
        assertThat(CaseDelivery.isPermanent(new java.sql.SQLTransientConnectionException("pool timeout"))).isFalse();
        assertThat(CaseDelivery.isPermanent(new java.io.IOException("reset"))).isFalse();
        assertThat(CaseDelivery.isPermanent(new IllegalStateException("disk full"))).isFalse();
        assertThat(CaseDelivery.isPermanent(new IllegalArgumentException("bad"))).isTrue();
    }
}
