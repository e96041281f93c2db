package dev.sqlagent.guard;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
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

    private final Supplier<ScheduledExecutorService> schedulers;
    private final Map<CCJSqlParser, Long> deadlines = new ConcurrentHashMap<>();
    /** The scheduler the sweep runs on; a new one (the shared one was stopped and started again) gets its own. */
    private volatile ScheduledExecutorService sweeping;

    ParseWatchdog(Supplier<ScheduledExecutorService> schedulers) {
        this.schedulers = schedulers;
    }

    void watch(CCJSqlParser parser, long deadlineNanos) {
        deadlines.put(parser, deadlineNanos);
        for (int attempt = 0; attempt < 2; attempt++) {
            ScheduledExecutorService s = schedulers.get();
            if (s == sweeping) {
                return;
            }
            synchronized (this) {
                if (s == sweeping) {
                    return;
                }
                try {
                    s.scheduleWithFixedDelay(this::sweep, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
                    sweeping = s;
                    return;
                } catch (RejectedExecutionException stoppedMeanwhile) {
                    // the last agent closed between get() and schedule: the next get() starts a new one
                }
            }
        }
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
