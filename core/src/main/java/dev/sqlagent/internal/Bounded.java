package dev.sqlagent.internal;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** Executors that never run more than a given number of tasks at once. */
public final class Bounded {

    private Bounded() {
    }

    /**
     * @param parallelism the most tasks at once
     * @return a pool of that many daemon threads, which time out when idle; the caller shuts it down
     */
    public static java.util.concurrent.ExecutorService ownPool(int parallelism) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(parallelism, parallelism, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), LibraryThreads.daemons("candidate"));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /**
     * @param delegate the host's executor (the agent's own pool is {@link #ownPool}, bounded by its size)
     * @param parallelism the most tasks at once
     * @return an executor bounded to that many tasks at once
     */
    public static Executor executor(Executor delegate, int parallelism) {
        java.util.Objects.requireNonNull(delegate, "delegate");
        Semaphore permits = new Semaphore(parallelism);
        return task -> {
            permits.acquireUninterruptibly();
            try {
                delegate.execute(() -> {
                    try {
                        task.run();
                    } finally {
                        permits.release();
                    }
                });
            } catch (RuntimeException e) {
                permits.release();
                throw e;
            }
        };
    }
}
