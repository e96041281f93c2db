package dev.sqlagent.cases;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler whose tasks run only when the test says so, on the test's thread, in the order of their
 * delays (then of scheduling): retries and back-offs tested without waiting and without a second thread.
 * Only one-shot scheduling is supported.
 */
final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {

    private static final class Task<V> extends FutureTask<V> implements ScheduledFuture<V> {
        private final long delayMillis;
        private final long seq;

        Task(Callable<V> work, long delayMillis, long seq) {
            super(work);
            this.delayMillis = delayMillis;
            this.seq = seq;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(delayMillis, TimeUnit.MILLISECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            Task<?> other = (Task<?>) o;
            int byDelay = Long.compare(delayMillis, other.delayMillis);
            return byDelay != 0 ? byDelay : Long.compare(seq, other.seq);
        }
    }

    private final List<Task<?>> pending = new ArrayList<>();
    private final List<Long> delays = new ArrayList<>();
    private long seq;
    private boolean shutdown;

    /** @return the delay in milliseconds of every task scheduled so far, in scheduling order */
    synchronized List<Long> delays() {
        return List.copyOf(delays);
    }

    /** @return how many tasks wait */
    synchronized int waiting() {
        return pending.size();
    }

    /**
     * Runs the waiting task of the shortest delay.
     *
     * @return false if none was waiting
     */
    boolean runNext() {
        Task<?> next;
        synchronized (this) {
            if (pending.isEmpty()) {
                return false;
            }
            next = pending.get(0);
            for (Task<?> t : pending) {
                if (t.compareTo(next) < 0) {
                    next = t;
                }
            }
            pending.remove(next);
        }
        next.run();
        return true;
    }

    /**
     * Runs tasks, including those they schedule, until none waits.
     *
     * @param atMost a bound on the number run (a task that always reschedules itself would never end)
     * @return how many ran
     */
    int runAll(int atMost) {
        int n = 0;
        while (n < atMost && runNext()) {
            n++;
        }
        return n;
    }

    private synchronized <V> ScheduledFuture<V> add(Callable<V> work, long delay, TimeUnit unit) {
        if (shutdown) {
            throw new java.util.concurrent.RejectedExecutionException("shut down");
        }
        Task<V> t = new Task<>(work, unit.toMillis(delay), seq++);
        pending.add(t);
        delays.add(t.delayMillis);
        return t;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return add(() -> {
            command.run();
            return null;
        }, delay, unit);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return add(callable, delay, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        throw new UnsupportedOperationException("periodic tasks");
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException("periodic tasks");
    }

    @Override
    public void execute(Runnable command) {
        schedule(command, 0, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void shutdown() {
        shutdown = true;
    }

    @Override
    public synchronized List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> left = new ArrayList<>(pending);
        pending.clear();
        return left;
    }

    @Override
    public synchronized boolean isShutdown() {
        return shutdown;
    }

    @Override
    public synchronized boolean isTerminated() {
        return shutdown && pending.isEmpty();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return isTerminated();
    }
}
