package dev.sqlagent.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The few threads the library shares between agents: the guard's parse watchdog, the query watchdog
 * (time-outs, deadlines, cancellation) and the helpers that run a statement's cancel or a connection's
 * abort, which may block on the network.
 *
 * <p>Each is created on first use and reference-counted: every {@code SqlAgent} holds a {@link Lease} from
 * build to {@code close()}, and when the last lease is given back the threads are stopped. A later use
 * (another agent, or a {@code SqlGuard} or {@code JdbcSqlExecutor} used on its own) starts them again.
 * Code that uses a shared executor must ask {@link Shared#current()} at the time of use and never keep
 * the executor, so that it never holds one that was stopped.
 */
public final class LibraryThreads {

    /** Prefix of the name of every thread the library starts. */
    public static final String PREFIX = "sqlagent-";

    /** Runs the guard's parse-deadline sweep. */
    public static final Shared<ScheduledExecutorService> GUARD_WATCHDOG = new Shared<>(
            () -> scheduler("guard-watchdog"));
    /** Runs query time-outs, question deadlines and cancellations. */
    public static final Shared<ScheduledExecutorService> QUERY_WATCHDOG = new Shared<>(
            () -> scheduler("query-watchdog"));
    /** Runs statement cancels and connection aborts, which may block on the network. */
    public static final Shared<ExecutorService> QUERY_HELPERS = new Shared<>(
            () -> Executors.newCachedThreadPool(daemons("query-cancel")));

    private static final List<Shared<?>> ALL = List.of(GUARD_WATCHDOG, QUERY_WATCHDOG, QUERY_HELPERS);

    private LibraryThreads() {
    }

    /**
     * Takes a lease on every shared executor, for an agent's lifetime.
     *
     * @return the lease; {@link Lease#close()} gives it back
     */
    public static Lease lease() {
        List<Shared<?>> taken = new ArrayList<>(ALL.size());
        for (Shared<?> s : ALL) {
            s.acquire();
            taken.add(s);
        }
        return new Lease(taken);
    }

    /**
     * @param name the thread name after the prefix; a counter is appended
     * @return a factory of daemon threads named {@code sqlagent-<name>-<n>}
     */
    public static ThreadFactory daemons(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, PREFIX + name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    private static ScheduledExecutorService scheduler(String name) {
        ScheduledThreadPoolExecutor s = new ScheduledThreadPoolExecutor(1, daemons(name));
        s.setRemoveOnCancelPolicy(true);
        s.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        return s;
    }

    /**
     * An executor created on first use and stopped when its last lease is given back.
     *
     * @param <T> the executor type
     */
    public static final class Shared<T extends ExecutorService> {
        private final Supplier<T> factory;
        private T current;
        private int leases;

        Shared(Supplier<T> factory) {
            this.factory = factory;
        }

        /** @return the running executor, started if there is none; use it at once, never keep it */
        public synchronized T current() {
            if (current == null || current.isShutdown()) {
                current = factory.get();
            }
            return current;
        }

        synchronized void acquire() {
            leases++;
        }

        /** @return the executor stopped by this release, or null when others still hold leases */
        synchronized ExecutorService release() {
            if (leases == 0) {
                return null;
            }
            leases--;
            if (leases > 0 || current == null) {
                return null;
            }
            T stopped = current;
            current = null;
            stopped.shutdownNow();
            return stopped;
        }

        /** @return how many leases are held (for tests) */
        public synchronized int leases() {
            return leases;
        }
    }

    /** A lease on the shared executors; closing it twice is harmless. */
    public static final class Lease implements AutoCloseable {
        private List<Shared<?>> held;

        private Lease(List<Shared<?>> held) {
            this.held = held;
        }

        /**
         * Gives the lease back; the executors it was the last lease on are stopped and waited for.
         *
         * @param wait the longest wait for stopped executors to finish
         * @return whether every stopped executor terminated within the wait
         */
        public boolean release(Duration wait) {
            List<Shared<?>> h;
            synchronized (this) {
                h = held;
                held = null;
            }
            if (h == null) {
                return true;
            }
            List<ExecutorService> stopped = new ArrayList<>();
            for (Shared<?> s : h) {
                ExecutorService e = s.release();
                if (e != null) {
                    stopped.add(e);
                }
            }
            return awaitAll(stopped, wait);
        }

        @Override
        public void close() {
            release(Duration.ofSeconds(5));
        }
    }

    /**
     * Waits for executors to terminate.
     *
     * @param executors executors already shut down
     * @param wait the longest wait for all of them
     * @return whether all terminated in time
     */
    public static boolean awaitAll(List<? extends ExecutorService> executors, Duration wait) {
        long until = System.nanoTime() + wait.toNanos();
        boolean all = true;
        for (ExecutorService e : executors) {
            try {
                all &= e.awaitTermination(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return all;
    }
}
