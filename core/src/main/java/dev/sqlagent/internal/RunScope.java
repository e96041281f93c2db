package dev.sqlagent.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What may stop one question from outside its steps: the cancellation of its future and its deadline; and
 * what each of its statements may take from the database (its budget's scan and memory caps,
 * {@link #capStatements}).
 * When either happens, the scope interrupts the threads that are inside a model call of the question
 * ({@link #interruptibly}) and runs the stop actions registered by work under way (the executor
 * registers the cancel of its running statement, {@link #onStop}). The question's driver then ends it.
 *
 * <p>The scope is bound to the thread running the question ({@link #bind}) and to the threads its steps
 * fan work out to, so that the executor finds it (and the caps) with {@link #current()} without an SPI change.
 * Thread-safe.
 */
public final class RunScope {

    /** Why a question was stopped from outside. */
    public enum Stop {
        /** Its future was cancelled, or its agent closed. */
        CANCELLED,
        /** Its deadline passed. */
        DEADLINE
    }

    private static final Logger LOG = LoggerFactory.getLogger("dev.sqlagent.run");
    private static final ThreadLocal<RunScope> CURRENT = new ThreadLocal<>();

    private volatile long deadlineNanos;
    private volatile boolean hasDeadline;
    private volatile long maxScanBytes;
    private volatile long maxMemoryBytes;
    private volatile Stop stopped;
    private final List<Runnable> onStop = new ArrayList<>();
    private final Set<Thread> inCalls = new HashSet<>();
    private final Set<Thread> interruptedByUs = new HashSet<>();
    private final Set<String> marks = new HashSet<>();
    private ScheduledFuture<?> timer;
    private final java.util.concurrent.atomic.AtomicLongArray work =
            new java.util.concurrent.atomic.AtomicLongArray(Work.values().length);

    /** Creates a scope that nothing has stopped, without a deadline yet. */
    public RunScope() {
    }

    /**
     * Starts the deadline's clock, when the question starts.
     *
     * @param deadline the question's time from now, or null for none
     */
    public synchronized void startClock(Duration deadline) {
        if (deadline == null || hasDeadline) {
            return;
        }
        deadlineNanos = System.nanoTime() + deadline.toNanos();
        hasDeadline = true;
        try {
            timer = LibraryThreads.QUERY_WATCHDOG.current().schedule(() -> stop(Stop.DEADLINE),
                    Math.max(0, deadline.toNanos()), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // the shared watchdog stopped in between: the deadline is still checked between steps
            LOG.debug("deadline timer not started: {}", e.toString());
        }
    }

    /**
     * Sets what each statement of the question may take from the database, when the question starts
     * ({@code QuestionBudget.maxScanBytes}, {@code maxMemoryBytes}); the executor puts them in the engine's
     * session.
     *
     * @param maxScanBytes the most bytes one statement may scan, 0 for no cap
     * @param maxMemoryBytes the most memory one statement may use, 0 for the engine's own
     * @throws IllegalArgumentException if a cap is negative
     */
    public void capStatements(long maxScanBytes, long maxMemoryBytes) {
        if (maxScanBytes < 0 || maxMemoryBytes < 0) {
            throw new IllegalArgumentException("statement caps must be 0 (none) or positive but were maxScanBytes="
                    + maxScanBytes + ", maxMemoryBytes=" + maxMemoryBytes);
        }
        this.maxScanBytes = maxScanBytes;
        this.maxMemoryBytes = maxMemoryBytes;
    }

    /** @return the most bytes one statement of the question may scan, 0 for no cap */
    public long maxScanBytes() {
        return maxScanBytes;
    }

    /** @return the most memory one statement of the question may use, 0 for the engine's own */
    public long maxMemoryBytes() {
        return maxMemoryBytes;
    }

    /**
     * Counts one unit of work for this question.
     *
     * @param w what was done
     */
    public void count(Work w) {
        work.incrementAndGet(w.ordinal());
    }

    /**
     * What was counted so far.
     *
     * @param w the kind of work
     * @return how many units of it this question did
     */
    public long counted(Work w) {
        return work.get(w.ordinal());
    }

    /** @return the scope bound to this thread, or null */
    public static RunScope current() {
        return CURRENT.get();
    }

    /**
     * Binds the scope to this thread until the returned handle is closed.
     *
     * @return the handle restoring what was bound before
     */
    public Binding bind() {
        RunScope outer = CURRENT.get();
        CURRENT.set(this);
        return () -> {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        };
    }

    /** Undoes a {@link #bind()}; never throws. */
    @FunctionalInterface
    public interface Binding extends AutoCloseable {
        @Override
        void close();
    }

    /** @return why the question was stopped, if it was; a passed deadline counts even before its timer ran */
    public Optional<Stop> stopped() {
        Stop s = stopped;
        if (s == null && hasDeadline && System.nanoTime() - deadlineNanos >= 0) {
            stop(Stop.DEADLINE);
            s = stopped;
        }
        return Optional.ofNullable(s);
    }

    /** @return the time left before the deadline (never negative), or empty without one */
    public Optional<Duration> remaining() {
        return hasDeadline ? Optional.of(Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime())))
                : Optional.empty();
    }

    /**
     * Stops the question: interrupts the threads in its model calls and runs the stop actions. Only the
     * first stop counts.
     *
     * @param why the reason
     */
    public void stop(Stop why) {
        List<Runnable> actions;
        synchronized (this) {
            if (stopped != null) {
                return;
            }
            stopped = why;
            actions = new ArrayList<>(onStop);
            onStop.clear();
            for (Thread t : inCalls) {
                interruptedByUs.add(t);
                t.interrupt();
            }
        }
        for (Runnable r : actions) {
            runQuietly(r);
        }
    }

    /**
     * Marks something the rest of the question should know, such as a store that failed and is not to be
     * called again by this question.
     *
     * @param mark the mark
     */
    public synchronized void mark(String mark) {
        marks.add(mark);
    }

    /**
     * @param mark a mark
     * @return whether the question was marked with it
     */
    public synchronized boolean marked(String mark) {
        return marks.contains(mark);
    }

    /** Ends the scope: its deadline timer no longer runs. */
    public synchronized void finish() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /**
     * Registers an action to run when the question is stopped, until the returned handle is closed. If it
     * is stopped already, the action runs at once.
     *
     * @param action what to do, for example cancel a running statement; it must not block long
     * @return the handle that unregisters it
     */
    public Binding onStop(Runnable action) {
        synchronized (this) {
            if (stopped == null) {
                onStop.add(action);
                return () -> {
                    synchronized (RunScope.this) {
                        onStop.remove(action);
                    }
                };
            }
        }
        runQuietly(action);
        return () -> {
        };
    }

    /**
     * Runs a blocking call that a stop interrupts. An interrupt the scope delivered is cleared afterwards,
     * so that the thread goes on with a clean flag; an interrupt from anyone else is left alone.
     *
     * @param call the call, for example a model request
     * @param <T> its result type
     * @return its result
     */
    public <T> T interruptibly(Supplier<T> call) {
        Thread me = Thread.currentThread();
        synchronized (this) {
            if (stopped != null) {
                interruptedByUs.add(me);
                me.interrupt();
            }
            inCalls.add(me);
        }
        try {
            return call.get();
        } finally {
            synchronized (this) {
                inCalls.remove(me);
                if (interruptedByUs.remove(me)) {
                    Thread.interrupted();
                }
            }
        }
    }

    private static void runQuietly(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.debug("a stop action failed: {}", e.toString());
        }
    }
}
