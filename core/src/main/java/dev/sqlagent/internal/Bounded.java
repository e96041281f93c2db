package dev.sqlagent.internal;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Executors that never run more than a given number of tasks at once. */
public final class Bounded {

    private Bounded() {
    }

    /**
     * @param delegate the host's executor, or null for an own pool of daemon threads
     * @param parallelism the most tasks at once
     * @return an executor bounded to that many tasks at once
     */
    public static Executor executor(Executor delegate, int parallelism) {
        if (delegate == null) {
            AtomicInteger n = new AtomicInteger();
            ThreadFactory threads = r -> {
                Thread t = new Thread(r, "sqlagent-candidate-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            };
            ThreadPoolExecutor pool = new ThreadPoolExecutor(parallelism, parallelism, 30, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), threads);
            pool.allowCoreThreadTimeOut(true);
            return pool;
        }
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
