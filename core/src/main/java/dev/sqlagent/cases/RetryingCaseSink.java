package dev.sqlagent.cases;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wraps a sink so that a failed delivery is retried in the background instead of being lost: the case
 * goes into a bounded queue drained on an injected scheduler with back-off. When the queue is full the
 * oldest waiting case is dropped and counted. {@link #accept} never throws. Thread-safe.
 */
public final class RetryingCaseSink implements CaseSink {

    private static final Logger LOG = LoggerFactory.getLogger(RetryingCaseSink.class);

    private final CaseSink delegate;
    private final ScheduledExecutorService scheduler;
    private final int capacity;
    private final int maxAttempts;
    private final Duration backoff;
    private final Runnable onFailure;
    private final Deque<Pending> queue = new ArrayDeque<>();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private boolean draining;

    private record Pending(CaseRecord record, int attempts) {
    }

    private RetryingCaseSink(CaseSink delegate, ScheduledExecutorService scheduler, int capacity, int maxAttempts,
            Duration backoff, Runnable onFailure) {
        this.delegate = delegate;
        this.onFailure = onFailure;
        this.scheduler = scheduler;
        this.capacity = capacity;
        this.maxAttempts = maxAttempts;
        this.backoff = backoff;
    }

    /**
     * Wraps a sink so that its failed deliveries are retried in the background.
     *
     * @param delegate the sink to protect
     * @param scheduler runs the retries (owned by the caller)
     * @param capacity how many cases may wait, at least 1
     * @param maxAttempts deliveries tried per case in all, at least 2
     * @param backoff the wait before the first retry, doubled per attempt
     * @return the wrapped sink
     */
    public static RetryingCaseSink wrap(CaseSink delegate, ScheduledExecutorService scheduler, int capacity,
            int maxAttempts, Duration backoff) {
        return wrap(delegate, scheduler, capacity, maxAttempts, backoff, () -> { });
    }

    /**
     * As {@link #wrap(CaseSink, ScheduledExecutorService, int, int, Duration)}, telling a listener of
     * every failed delivery (for metrics).
     *
     * @param delegate the sink to protect
     * @param scheduler runs the retries
     * @param capacity how many cases may wait
     * @param maxAttempts deliveries tried per case in all
     * @param backoff the wait before the first retry
     * @param onFailure called after each failed delivery; must not throw
     * @return the wrapped sink
     */
    public static RetryingCaseSink wrap(CaseSink delegate, ScheduledExecutorService scheduler, int capacity,
            int maxAttempts, Duration backoff, Runnable onFailure) {
        Objects.requireNonNull(delegate, "delegate");
        Objects.requireNonNull(onFailure, "onFailure");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(backoff, "backoff");
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be > 0 but was " + capacity);
        }
        if (maxAttempts < 2) {
            throw new IllegalArgumentException("maxAttempts must be >= 2 but was " + maxAttempts);
        }
        return new RetryingCaseSink(delegate, scheduler, capacity, maxAttempts, backoff, onFailure);
    }

    @Override
    public void accept(CaseRecord record) {
        try {
            delegate.accept(record);
        } catch (Exception e) {
            failures.incrementAndGet();
            onFailure.run();
            LOG.warn("case sink {} failed for case {}; retrying in the background", delegate.getClass().getName(),
                    record.id(), e);
            enqueue(new Pending(record, 1));
        }
    }

    private void enqueue(Pending p) {
        boolean schedule;
        synchronized (queue) {
            if (queue.size() >= capacity) {
                Pending lost = queue.pollFirst();
                dropped.incrementAndGet();
                LOG.warn("case sink retry queue full; case {} dropped", lost.record().id());
            }
            queue.addLast(p);
            schedule = !draining;
            draining = true;
        }
        if (schedule) {
            scheduler.schedule(this::drain, delay(p.attempts()), TimeUnit.MILLISECONDS);
        }
    }

    private void drain() {
        Pending p;
        synchronized (queue) {
            p = queue.pollFirst();
            if (p == null) {
                draining = false;
                return;
            }
        }
        long next = 0;
        try {
            delegate.accept(p.record());
        } catch (Exception e) {
            failures.incrementAndGet();
            onFailure.run();
            if (p.attempts() + 1 >= maxAttempts) {
                dropped.incrementAndGet();
                LOG.warn("case {} dropped after {} attempts", p.record().id(), maxAttempts, e);
            } else {
                synchronized (queue) {
                    queue.addFirst(new Pending(p.record(), p.attempts() + 1));
                }
                next = delay(p.attempts() + 1);
            }
        }
        scheduler.schedule(this::drain, next, TimeUnit.MILLISECONDS);
    }

    private long delay(int attempts) {
        return backoff.toMillis() << Math.min(attempts - 1, 10);
    }

    /** {@return how many deliveries failed so far, first tries and retries} */
    public long failures() {
        return failures.get();
    }

    /** {@return how many cases were given up: queue overflow or attempts exhausted} */
    public long dropped() {
        return dropped.get();
    }

    /** {@return the sink it protects} */
    public CaseSink delegate() {
        return delegate;
    }

    /** {@return how many cases wait for a retry} */
    public int waiting() {
        synchronized (queue) {
            return queue.size();
        }
    }
}
