package dev.sqlagent.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaseFilesTest {

    private static CaseRecord caseNo(int i) {
        return new CaseRecord("id-" + i, "question " + i + " with \"quotes\" and\nnewline", "orders", "count",
                "SELECT " + i, CaseRecord.Status.GOOD, "ANSWERED", "", "", List.of("JOIN_FIX"), true, OptionalInt.of(90),
                0, List.of(new CaseRecord.Attempt(0, "SELECT " + i, "ok", 1, "", Optional.of(true), "fine")),
                List.of("orders"), List.of("scripted"), Instant.parse("2026-11-29T00:00:00Z"), "{\"question_id\":\"x\"}");
    }

    @Test
    void everyCaseIsOneLineAndTheFileReadsBackAfterATornLastLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("cases/cases.jsonl");
        try (JsonlCaseSink sink = JsonlCaseSink.open(file)) {
            for (int i = 0; i < 3; i++) {
                sink.accept(caseNo(i));
            }
        }
        Files.writeString(file, "{\"id\": \"torn\", \"question\": \"half", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        assertThat(Files.readAllLines(file)).hasSize(4);
        assertThat(JsonlCaseSink.read(file)).containsExactly(caseNo(0), caseNo(1), caseNo(2));
    }

    @Test
    void fileRotatesAtTheConfiguredSizeWithoutLosingACase(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("cases.jsonl");
        try (JsonlCaseSink sink = JsonlCaseSink.open(file, 2048)) {
            for (int i = 0; i < 20; i++) {
                sink.accept(caseNo(i));
            }
        }
        List<Path> files;
        try (var s = Files.list(dir)) {
            files = s.sorted().toList();
        }
        assertThat(files.size()).isGreaterThan(2);
        int total = 0;
        for (Path f : files) {
            assertThat(Files.size(f)).isLessThanOrEqualTo(2048);
            total += JsonlCaseSink.read(f).size();
        }
        assertThat(total).isEqualTo(20);
    }

    @Test
    void failedDeliveryIsRetriedInTheBackground() {
        AtomicInteger calls = new AtomicInteger();
        InMemoryCaseSink kept = new InMemoryCaseSink();
        CaseSink flaky = r -> {
            if (calls.incrementAndGet() <= 2) {
                throw new java.io.IOException("disk busy");
            }
            kept.accept(r);
        };
        ManualScheduler scheduler = new ManualScheduler();
        RetryingCaseSink sink = RetryingCaseSink.wrap(flaky, scheduler, 10, 5, Duration.ofMillis(1));

        sink.accept(caseNo(1));
        assertThat(kept.cases()).isEmpty();
        assertThat(sink.waiting()).isEqualTo(1);

        assertThat(scheduler.runAll(10)).isEqualTo(3);
        assertThat(kept.cases()).containsExactly(caseNo(1));
        assertThat(sink.failures()).isEqualTo(2);
        assertThat(sink.dropped()).isZero();
        assertThat(sink.waiting()).isZero();
        // first retry after the back-off, the second after twice it, then one look at the empty queue
        assertThat(scheduler.delays()).containsExactly(1L, 2L, 0L);
    }

    @Test
    void fullRetryQueueDropsTheOldestAndCountsIt() {
        ManualScheduler scheduler = new ManualScheduler();
        RetryingCaseSink sink = RetryingCaseSink.wrap(r -> {
            throw new java.io.IOException("down");
        }, scheduler, 2, 2, Duration.ofHours(1));
        sink.accept(caseNo(1));
        sink.accept(caseNo(2));
        sink.accept(caseNo(3));
        assertThat(sink.waiting()).isEqualTo(2);
        assertThat(sink.dropped()).isEqualTo(1);
        assertThat(scheduler.waiting()).isEqualTo(1);
    }
}
