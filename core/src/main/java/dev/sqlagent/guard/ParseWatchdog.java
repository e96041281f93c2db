package dev.sqlagent.guard;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import net.sf.jsqlparser.parser.CCJSqlParser;

/**
 * Raises the {@code interrupted} flag of parsers that ran past their deadline. One periodic sweep on the
 * given scheduler serves every parse: registering a parse is a map insertion, with no task scheduled and
 * no thread woken per call (scheduling a task per parse costs a wake-up of the scheduler thread, which on
 * two cores was a large share of the guard's time). Deadlines are enforced within one sweep period.
 */
final class ParseWatchdog {

    /** Period of the sweep. */
    static final long SWEEP_MILLIS = 20;

    private final ScheduledExecutorService scheduler;
    private final Map<CCJSqlParser, Long> deadlines = new ConcurrentHashMap<>();
    private final AtomicBoolean started = new AtomicBoolean();

    ParseWatchdog(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
    }

    void watch(CCJSqlParser parser, long deadlineNanos) {
        if (!started.get() && started.compareAndSet(false, true)) {
            scheduler.scheduleWithFixedDelay(this::sweep, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
        }
        deadlines.put(parser, deadlineNanos);
    }

    void release(CCJSqlParser parser) {
        deadlines.remove(parser);
    }

    private void sweep() {
        long now = System.nanoTime();
        deadlines.forEach((parser, deadline) -> {
            if (now - deadline >= 0) {
                parser.interrupted = true;
            }
        });
    }
}
