package dev.sqlagent.cases;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers cases to one sink off the asking thread: {@link #accept} only puts the case into a bounded
 * queue and returns at once; the delivery's own worker thread hands it to the sink.
 *
 * <ul>
 *   <li><b>Retry budget.</b> A failed delivery is retried with back-off (doubling from
 *       {@link Builder#backoff initial} to {@link Builder#backoff max}) while both budgets last: at most
 *       {@link Builder#retryBudget attempts} tries and at most that much time since the first. When the
 *       budget is spent the case goes to the journal and the sink counts as down: later cases go
 *       straight to the journal, and one of them probes the sink at the back-off interval.</li>
 *   <li><b>Journal.</b> An append-only JSON Lines file (see {@link Builder#journal}). It is replayed
 *       into the sink as soon as a delivery succeeds again, and when the delivery is created (at startup)
 *       if it holds cases. A replay is at least once: give sinks an idempotent insert
 *       ({@link JdbcCaseSink} has one) so that nothing is stored twice.</li>
 *   <li><b>Permanent errors</b> (bad data, a constraint other than the key, a bug in the sink: see
 *       {@link #isPermanent}) are not retried: the case goes to the journal's dead-letter file
 *       ({@code <stem>.rejected.jsonl}) and is counted in {@link #rejected()}.</li>
 *   <li><b>Full queue.</b> {@link Overflow#JOURNAL} (default) writes the case to the journal on the
 *       asking thread (one small append, never a wait on the store); {@link Overflow#DISCARD} drops it,
 *       logs it and counts it in {@link #discarded()}. Neither ever blocks.</li>
 * </ul>
 *
 * <p>A case is lost only if the journal cannot be written either; that is logged and counted in
 * {@link #lost()}. The worker thread is started on demand and ends when the queue is empty and the
 * journal holds nothing; {@link #close()} stops it. Thread-safe.
 */
public final class CaseDelivery implements CaseSink, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CaseDelivery.class);

    /** Default queue capacity. */
    public static final int DEFAULT_CAPACITY = 10_000;
    /** Default attempts per case before it is journalled. */
    public static final int DEFAULT_MAX_ATTEMPTS = 5;
    /** Default time per case before it is journalled. */
    public static final Duration DEFAULT_MAX_RETRY_TIME = Duration.ofSeconds(10);
    /** Default first back-off. */
    public static final Duration DEFAULT_BACKOFF = Duration.ofMillis(100);
    /** Default longest back-off, and the probe interval of a sink that is down. */
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(1);
    /** How long {@link #close()} waits for the worker to finish the case in hand. */
    public static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    /** What happens to a case that finds the queue full. */
    public enum Overflow {
        /** Append it to the journal (default): nothing is lost, nothing waits. */
        JOURNAL,
        /** Drop it, log it and count it in {@link CaseDelivery#discarded()}. */
        DISCARD
    }

    private static final AtomicInteger THREADS = new AtomicInteger();
    /** Cases handed to {@link CaseSink#acceptAll} at once during a replay. */
    static final int REPLAY_BATCH = 100;

    private final CaseSink sink;
    private final int capacity;
    private final int maxAttempts;
    private final long maxRetryNanos;
    private final long backoffNanos;
    private final long maxBackoffNanos;
    private final Overflow overflow;
    private final Runnable onFailure;
    private final Path journalFile;
    private final String name;

    private final Object lock = new Object();
    private final Deque<CaseRecord> queue = new ArrayDeque<>();
    private CaseJournal journal;
    private Thread worker;
    private int inFlight;
    private boolean closed;
    private volatile boolean stopping;
    private volatile boolean sinkDown;
    private boolean journalPending;
    private long nextProbeNanos;
    private long probeWaitNanos;

    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong journalled = new AtomicLong();
    private final AtomicLong replayed = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong discarded = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();
    private final AtomicLong torn = new AtomicLong();

    private CaseDelivery(Builder b) {
        this.sink = b.sink;
        this.capacity = b.capacity;
        this.maxAttempts = b.maxAttempts;
        this.maxRetryNanos = b.maxRetryTime.toNanos();
        this.backoffNanos = b.backoff.toNanos();
        this.maxBackoffNanos = b.maxBackoff.toNanos();
        this.overflow = b.overflow;
        this.onFailure = b.onFailure;
        this.journalFile = b.journal;
        this.name = b.name != null ? b.name : sink.getClass().getSimpleName();
        this.probeWaitNanos = backoffNanos;
        if (journalFile != null) {
            journal = new CaseJournal(journalFile);
            if (journal.hasEntries()) {
                LOG.info("case journal {} holds cases from an earlier run; replaying them into {}", journal.file(), name);
                synchronized (lock) {
                    journalPending = true;
                    startWorker();
                }
            }
        }
    }

    /**
     * Starts a builder for the delivery of cases to one sink.
     *
     * @param sink the sink to deliver to
     * @return a builder with the defaults
     */
    public static Builder builder(CaseSink sink) {
        return new Builder(sink);
    }

    /**
     * Queues a case for delivery; never blocks on the sink and never throws.
     *
     * @param record the case
     */
    @Override
    public void accept(CaseRecord record) {
        Objects.requireNonNull(record, "record");
        boolean full;
        synchronized (lock) {
            full = closed || queue.size() >= capacity;
            if (!full) {
                queue.addLast(record);
                startWorker();
                lock.notifyAll();
                return;
            }
        }
        if (overflow == Overflow.DISCARD && !closedNow()) {
            discarded.incrementAndGet();
            LOG.warn("case queue of {} full ({} cases); case {} discarded", name, capacity, record.id());
            return;
        }
        toJournal(List.of(record), closedNow() ? "delivery closed" : "queue full");
    }

    private boolean closedNow() {
        synchronized (lock) {
            return closed;
        }
    }

    private void startWorker() {
        if (worker == null && !closed) {
            Thread t = new Thread(this::work, "sqlagent-case-delivery-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            worker = t;
            t.start();
        }
    }

    private void work() {
        try {
            while (true) {
                CaseRecord next = null;
                boolean replay = false;
                synchronized (lock) {
                    while (true) {
                        if (stopping) {
                            worker = null;
                            lock.notifyAll();
                            return;
                        }
                        if (journalPending && !sinkDown) {
                            replay = true; // the sink is up: empty the journal before newer cases
                            break;
                        }
                        next = queue.pollFirst();
                        if (next != null) {
                            inFlight++;
                            break;
                        }
                        if (!journalPending) {
                            worker = null; // idle: a later accept starts a new worker
                            lock.notifyAll();
                            return;
                        }
                        long wait = nextProbeNanos - System.nanoTime();
                        if (wait <= 0) {
                            replay = true;
                            break;
                        }
                        lock.wait(Math.max(1, wait / 1_000_000));
                    }
                }
                try {
                    if (replay) {
                        replay();
                    } else {
                        deliver(next);
                    }
                } finally {
                    if (next != null) {
                        synchronized (lock) {
                            inFlight--;
                            lock.notifyAll();
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            synchronized (lock) {
                if (worker == Thread.currentThread()) {
                    worker = null;
                }
                lock.notifyAll();
            }
        }
    }

    /** Delivers one case within the retry budget, or journals it. */
    private void deliver(CaseRecord c) throws InterruptedException {
        if (sinkDown && System.nanoTime() < nextProbeNanos) {
            toJournal(List.of(c), "sink down");
            return;
        }
        boolean probe = sinkDown;
        long start = System.nanoTime();
        long wait = backoffNanos;
        for (int attempt = 1; ; attempt++) {
            Throwable error = tryOnce(c);
            if (error == null) {
                delivered.incrementAndGet();
                markUp();
                return;
            }
            if (isPermanent(error)) {
                reject(c, error);
                return;
            }
            long spent = System.nanoTime() - start;
            if (probe || stopping || attempt >= maxAttempts || spent + wait > maxRetryNanos) {
                LOG.warn("case sink {} failed {} time(s) for case {}; journalled until it is back", name, attempt,
                        c.id(), error);
                toJournal(List.of(c), "retry budget spent");
                markDown();
                return;
            }
            sleep(wait);
            wait = Math.min(wait * 2, maxBackoffNanos);
        }
    }

    private Throwable tryBatch(List<CaseRecord> batch) {
        try {
            sink.acceptAll(batch);
            return null;
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Exception | Error e) {
            failures.incrementAndGet();
            try {
                onFailure.run();
            } catch (RuntimeException ignored) {
                // a listener must not stop the delivery
            }
            return e;
        }
    }

    private Throwable tryOnce(CaseRecord c) {
        try {
            sink.accept(c);
            return null;
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Exception | Error e) {
            failures.incrementAndGet();
            try {
                onFailure.run();
            } catch (RuntimeException ignored) {
                // a listener must not stop the delivery
            }
            return e;
        }
    }

    private void markUp() {
        if (sinkDown) {
            LOG.info("case sink {} is back", name);
        }
        sinkDown = false;
        probeWaitNanos = backoffNanos;
        synchronized (lock) {
            journalPending = journal != null && journal.hasEntries();
        }
    }

    private void markDown() {
        sinkDown = true;
        long now = System.nanoTime();
        nextProbeNanos = now + probeWaitNanos;
        probeWaitNanos = Math.min(probeWaitNanos * 2, maxBackoffNanos);
        synchronized (lock) {
            journalPending = true;
        }
    }

    private void sleep(long nanos) throws InterruptedException {
        synchronized (lock) {
            long until = System.nanoTime() + nanos;
            long left;
            while (!stopping && (left = until - System.nanoTime()) > 0) {
                lock.wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    /** Replays the journal: each case tried once; on the first transient failure the rest go back. */
    private void replay() {
        CaseJournal j;
        synchronized (lock) {
            j = journal;
        }
        if (j == null) {
            synchronized (lock) {
                journalPending = false;
            }
            return;
        }
        List<Path> files;
        try {
            files = j.claim();
        } catch (IOException e) {
            LOG.warn("cannot claim the case journal {} for a replay", j.file(), e);
            markDown();
            return;
        }
        for (Path f : files) {
            switch (replayFile(j, f)) {
                case DONE:
                    break;
                case STOPPED:
                    return;
                default:
                    markDown();
                    return;
            }
        }
        markUp();
    }

    private enum Replayed { DONE, STOPPED, FAILED }

    /** Replays one claimed file in batches; what is left goes back into the journal. */
    private Replayed replayFile(CaseJournal j, Path f) {
        try (CaseJournal.Batches in = CaseJournal.batches(f)) {
            try {
                List<CaseRecord> batch;
                while (!(batch = in.next(REPLAY_BATCH)).isEmpty()) {
                    if (stopping) {
                        putBack(j, f, batch, in);
                        return Replayed.STOPPED;
                    }
                    Throwable error = tryBatch(batch);
                    if (error == null) {
                        replayed.addAndGet(batch.size());
                        sinkDown = false;
                        continue;
                    }
                    if (isPermanent(error)) {
                        // find the case the store refuses: one by one, the others still go in
                        for (int k = 0; k < batch.size(); k++) {
                            CaseRecord c = batch.get(k);
                            Throwable e = tryOnce(c);
                            if (e == null) {
                                replayed.incrementAndGet();
                            } else if (isPermanent(e)) {
                                reject(c, e);
                            } else {
                                error = e;
                                batch = batch.subList(k, batch.size());
                                break;
                            }
                        }
                        if (isPermanent(error)) {
                            continue;
                        }
                    }
                    LOG.warn("case sink {} failed again during the replay of {}", name, f, error);
                    putBack(j, f, batch, in);
                    return Replayed.FAILED;
                }
            } finally {
                if (in.torn() > 0) {
                    torn.addAndGet(in.torn());
                    LOG.warn("case journal {} had {} incomplete line(s) (a crash while writing); skipped", f, in.torn());
                }
            }
        } catch (IOException e) {
            LOG.warn("cannot read the claimed case journal {}; left for the next replay", f, e);
            return Replayed.FAILED;
        }
        delete(f);
        return Replayed.DONE;
    }

    /** Moves the batch in hand and the unread rest of a claimed file back into the journal. */
    private boolean putBack(CaseJournal j, Path claimed, List<CaseRecord> batch, CaseJournal.Batches in)
            throws IOException {
        List<CaseRecord> rest = new ArrayList<>(batch);
        List<CaseRecord> more;
        while (!(more = in.next(1000)).isEmpty()) {
            rest.addAll(more);
        }
        in.close();
        putBack(j, claimed, rest);
        return true;
    }

    private void putBack(CaseJournal j, Path claimed, List<CaseRecord> rest) {
        try {
            j.appendAll(rest);
            delete(claimed);
        } catch (IOException e) {
            LOG.warn("cannot move {} cases back into the journal; {} is kept for the next replay", rest.size(), claimed, e);
        }
    }

    private static void delete(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException e) {
            LOG.warn("cannot delete the replayed case journal {}", f, e);
        }
    }

    private void reject(CaseRecord c, Throwable error) {
        rejected.incrementAndGet();
        LOG.warn("case sink {} refused case {} for good ({}); kept in the dead letters", name, c.id(), error.toString());
        try {
            journal().reject(c);
        } catch (IOException e) {
            lost.incrementAndGet();
            LOG.error("case {} LOST: refused by {} and the dead-letter file cannot be written", c.id(), name, e);
        }
    }

    private void toJournal(List<CaseRecord> cases, String why) {
        try {
            journal().appendAll(cases);
            journalled.addAndGet(cases.size());
            synchronized (lock) {
                journalPending = true;
                if (!stopping) {
                    startWorker();
                }
            }
        } catch (IOException e) {
            lost.addAndGet(cases.size());
            LOG.error("{} case(s) LOST ({}): the journal of {} cannot be written", cases.size(), why, name, e);
        }
    }

    private CaseJournal journal() throws IOException {
        synchronized (lock) {
            if (journal == null) {
                Path dir = Files.createTempDirectory("sqlagent-case-journal");
                journal = new CaseJournal(dir.resolve("cases.jsonl"));
                LOG.warn("no case journal configured; spilling the cases of {} to {}", name, journal.file());
            }
            return journal;
        }
    }

    /**
     * Whether a delivery failure can never succeed by trying again: SQLState class 22 (data) or 23
     * (integrity constraint; the case id itself never conflicts with an idempotent sink), their JDBC
     * exception types, an argument or null-pointer error or any {@link Error} from the sink. Everything
     * else (connection, timeout, I/O, resource, unknown) is transient.
     *
     * @param e the failure
     * @return whether it is permanent
     */
    public static boolean isPermanent(Throwable e) {
        if (e instanceof SQLDataException || e instanceof SQLIntegrityConstraintViolationException) {
            return true;
        }
        if (e instanceof SQLException) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof SQLException) {
                    String state = ((SQLException) t).getSQLState();
                    if (state != null && (state.startsWith("22") || state.startsWith("23"))) {
                        return true;
                    }
                }
            }
            return false;
        }
        return e instanceof IllegalArgumentException || e instanceof NullPointerException
                || e instanceof ClassCastException || e instanceof Error;
    }

    /**
     * Waits until every case accepted so far was delivered, journalled or rejected (not for a journal
     * replay).
     *
     * @param timeout the longest wait
     * @return whether the queue was empty and nothing in hand within the timeout
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            long left;
            while (!queue.isEmpty() || inFlight > 0) {
                left = until - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                lock.wait(Math.max(1, left / 1_000_000));
            }
            return true;
        }
    }

    /**
     * Stops the worker: the case in hand gets up to {@link #CLOSE_WAIT} to finish, and whatever is still
     * queued is written to the journal (replayed by the next delivery on the same journal). Later
     * {@link #accept} calls go straight to the journal. Idempotent.
     */
    @Override
    public void close() {
        Thread w;
        List<CaseRecord> left;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            stopping = true;
            w = worker;
            lock.notifyAll();
        }
        if (w != null && w != Thread.currentThread()) {
            try {
                w.join(CLOSE_WAIT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (w.isAlive()) {
                LOG.warn("case sink {} still busy after {}; its case in hand may be stored twice after a replay", name,
                        CLOSE_WAIT);
            }
        }
        synchronized (lock) {
            left = new ArrayList<>(queue);
            queue.clear();
            lock.notifyAll();
        }
        if (!left.isEmpty()) {
            toJournal(left, "delivery closed");
        }
    }

    /** {@return the sink delivered to} */
    public CaseSink sink() {
        return sink;
    }

    /** {@return the journal file, or null while none was configured or needed} */
    public Path journalFile() {
        synchronized (lock) {
            return journal == null ? null : journal.file();
        }
    }

    /** {@return how many cases wait in the queue} */
    public int waiting() {
        synchronized (lock) {
            return queue.size();
        }
    }

    /** {@return whether the worker thread is alive (it ends when idle and after {@link #close()})} */
    public boolean running() {
        Thread w;
        synchronized (lock) {
            w = worker;
        }
        return w != null && w.isAlive();
    }

    /** {@return whether the sink counts as down (its last delivery failed)} */
    public boolean sinkDown() {
        return sinkDown;
    }

    /** {@return how many cases were delivered on their first pass (not counting replays)} */
    public long delivered() {
        return delivered.get();
    }

    /** {@return how many delivery attempts failed, retries and replays included} */
    public long failures() {
        return failures.get();
    }

    /** {@return how many cases were written to the journal (queue full, budget spent, sink down or closed)} */
    public long journalled() {
        return journalled.get();
    }

    /** {@return how many cases were delivered from the journal} */
    public long replayed() {
        return replayed.get();
    }

    /** {@return how many cases were refused for good and kept in the dead-letter file} */
    public long rejected() {
        return rejected.get();
    }

    /** {@return how many cases were dropped by {@link Overflow#DISCARD}} */
    public long discarded() {
        return discarded.get();
    }

    /** {@return how many cases were lost because the journal could not be written either} */
    public long lost() {
        return lost.get();
    }

    /** {@return how many incomplete journal lines were skipped during replays (a crash while writing)} */
    public long tornLines() {
        return torn.get();
    }

    @Override
    public String toString() {
        return "CaseDelivery[" + name + ", waiting=" + waiting() + ", delivered=" + delivered() + ", journalled="
                + journalled() + ", replayed=" + replayed() + ", rejected=" + rejected() + ", lost=" + lost() + "]";
    }

    /** Builds a {@link CaseDelivery}; setters check their arguments. */
    public static final class Builder {
        private final CaseSink sink;
        private int capacity = DEFAULT_CAPACITY;
        private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
        private Duration maxRetryTime = DEFAULT_MAX_RETRY_TIME;
        private Duration backoff = DEFAULT_BACKOFF;
        private Duration maxBackoff = DEFAULT_MAX_BACKOFF;
        private Overflow overflow = Overflow.JOURNAL;
        private Runnable onFailure = () -> { };
        private Path journal;
        private String name;

        private Builder(CaseSink sink) {
            this.sink = Objects.requireNonNull(sink, "sink");
        }

        /**
         * Sets the queue's capacity and what happens to a case that finds it full; defaults to
         * {@value CaseDelivery#DEFAULT_CAPACITY} and {@link Overflow#JOURNAL}.
         *
         * @param capacity cases that may wait in memory, at least 1
         * @param overflow what happens to a case that finds the queue full
         * @return this
         * @throws IllegalArgumentException if the capacity is below 1
         */
        public Builder queue(int capacity, Overflow overflow) {
            if (capacity < 1) {
                throw new IllegalArgumentException("capacity must be > 0 but was " + capacity);
            }
            this.capacity = capacity;
            this.overflow = Objects.requireNonNull(overflow, "overflow");
            return this;
        }

        /**
         * Sets the retry budget of one case before it goes to the journal; defaults to
         * {@value CaseDelivery#DEFAULT_MAX_ATTEMPTS} attempts and
         * {@link CaseDelivery#DEFAULT_MAX_RETRY_TIME}.
         *
         * @param maxAttempts deliveries tried per case in all, at least 1 (1: no retry)
         * @param maxTime the longest time spent on one case before it is journalled, at least 0
         * @return this
         * @throws IllegalArgumentException if out of range
         */
        public Builder retryBudget(int maxAttempts, Duration maxTime) {
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be > 0 but was " + maxAttempts);
            }
            Objects.requireNonNull(maxTime, "maxTime");
            if (maxTime.isNegative()) {
                throw new IllegalArgumentException("maxTime must not be negative but was " + maxTime);
            }
            this.maxAttempts = maxAttempts;
            this.maxRetryTime = maxTime;
            return this;
        }

        /**
         * Sets the back-off between retries; defaults to {@link CaseDelivery#DEFAULT_BACKOFF} doubling up to
         * {@link CaseDelivery#DEFAULT_MAX_BACKOFF}.
         *
         * @param initial the wait before the first retry, above 0
         * @param max the longest wait, doubled up to it; also how often a sink that is down is probed
         * @return this
         * @throws IllegalArgumentException if not positive or max below initial
         */
        public Builder backoff(Duration initial, Duration max) {
            Objects.requireNonNull(initial, "initial");
            Objects.requireNonNull(max, "max");
            if (initial.isZero() || initial.isNegative() || max.compareTo(initial) < 0) {
                throw new IllegalArgumentException("backoff must be > 0 and max >= initial but was " + initial + ", "
                        + max);
            }
            this.backoff = initial;
            this.maxBackoff = max;
            return this;
        }

        /**
         * Sets the journal file, where cases wait while the sink cannot take them.
         *
         * @param file the journal file ({@code .jsonl}); its folder is created when needed. Without one, a
         *     temporary folder is created at the first spill and named in the log; such a journal is not
         *     replayed by the next run.
         * @return this
         */
        public Builder journal(Path file) {
            this.journal = Objects.requireNonNull(file, "journal");
            return this;
        }

        /**
         * Sets a callback told of every failed delivery attempt, for metrics; by default none. It runs on
         * the delivery thread; what it throws is ignored.
         *
         * @param onFailure told of every failed attempt, not null; should not throw
         * @return this builder
         * @throws NullPointerException if {@code onFailure} is null
         */
        public Builder onFailure(Runnable onFailure) {
            this.onFailure = Objects.requireNonNull(onFailure, "onFailure");
            return this;
        }

        /**
         * Sets the sink's name in log lines; defaults to the sink's simple class name.
         *
         * @param name the sink's name in logs, not null
         * @return this builder
         * @throws NullPointerException if {@code name} is null
         */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * Builds the delivery; it replays its journal at once if the journal holds cases.
         *
         * @return the delivery
         */
        public CaseDelivery build() {
            return new CaseDelivery(this);
        }
    }
}
