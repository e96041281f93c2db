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
 * Delivers cases to one sink off the asking thread: {@link #accept} puts the case into a bounded
 * queue and returns; the delivery's own worker thread hands it to the sink. With a journal file,
 * {@link #accept} first writes the case to the journal ({@link Durability#WRITE_AHEAD}, the default
 * then), so that a case whose question has returned survives a crash of the host; it never waits for the
 * sink.
 *
 * <ul>
 *   <li><b>Retry budget.</b> A failed delivery is retried with back-off (doubling from
 *       {@link Builder#backoff initial} to {@link Builder#backoff max}) while both budgets last: at most
 *       {@link Builder#retryBudget attempts} tries and at most that much time since the first. When the
 *       budget is spent the case goes to the journal and the sink counts as down: later cases go
 *       straight to the journal, and one of them probes the sink at the back-off interval.</li>
 *   <li><b>Journal.</b> Append-only JSON Lines files (see {@link Builder#journal}) in segments. Written
 *       ahead, a case is delivered from memory and its segment is deleted once every case in it is stored;
 *       the cases left to the journal (sink down, queue full, closing) are replayed into the sink in
 *       batches as soon as a delivery succeeds again, and when the delivery is created (at startup) if
 *       the journal holds cases, an earlier run's included. While the sink is down, the worker leaves the
 *       whole queue to the journal at once (one write, or none for cases written ahead), so a backlog
 *       shrinks. A replay is at least once: give sinks an idempotent insert ({@link JdbcCaseSink} has
 *       one) so that nothing is stored twice.</li>
 *   <li><b>Permanent errors</b> (bad data, a constraint other than the key, a bug in the sink: see
 *       {@link #isPermanent}) are not retried: the case goes to the journal's dead-letter file
 *       ({@code <stem>.rejected.jsonl}) and is counted in {@link #rejected()}.</li>
 *   <li><b>Full queue.</b> {@link Overflow#JOURNAL} (default) writes the case to the journal on the
 *       asking thread (one small append, never a wait on the store); {@link Overflow#DISCARD} drops it,
 *       logs it and counts it in {@link #discarded()}. Neither ever blocks.</li>
 * </ul>
 *
 * <p>A case is lost only if the journal cannot be written either; that is logged and counted in
 * {@link #lost()} (a case that cannot be written ahead is still delivered from memory, and logged). The worker thread is started on demand and ends when the queue is empty and the
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
    /** How long an idle worker waits for the next case before its thread ends. */
    static final Duration IDLE_LINGER = Duration.ofSeconds(1);
    /** How long {@link #close()} waits for the worker to finish the case in hand. */
    public static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    /**
     * When a case reaches the journal; see {@link Builder#durability}. Each level costs the asking thread
     * more (the figures are in {@code docs/benchmarks.md}) and keeps more cases through a crash.
     */
    public enum Durability {
        /**
         * Only when the sink cannot take the case: the queue is full, the sink is down or the delivery is
         * closing. The asking thread writes nothing while the sink keeps up; a crash of the host loses the
         * cases still queued in memory. The default without a journal file.
         */
        SPILL,
        /**
         * Every case is written to the journal before {@link #accept} returns (handed to the operating
         * system; the cases that arrive while a write is under way go out together in the next one): a
         * crash of the host process, {@code kill -9} included, loses no case it accepted. A crash of the
         * machine may lose the last writes. The default with a journal file.
         */
        WRITE_AHEAD,
        /**
         * As {@link #WRITE_AHEAD}, and forced to the disk ({@code fsync}) before {@link #accept} returns: a
         * power loss loses nothing either, at the cost of one disk flush per group of cases.
         */
        WRITE_AHEAD_SYNC
    }

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
    private final Durability durability;
    private final Duration groupCommit;
    private final String name;

    private final Object lock = new Object();
    private final Deque<Entry> queue = new ArrayDeque<>();
    private CaseJournal journal;
    private Thread worker;
    private int inFlight;
    private boolean closed;
    private volatile boolean stopping;
    private volatile boolean sinkDown;
    private long nextProbeNanos;
    private long probeWaitNanos;

    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong writtenAhead = new AtomicLong();
    private final AtomicLong journalled = new AtomicLong();
    private final AtomicLong replayed = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong discarded = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();
    private final AtomicLong torn = new AtomicLong();

    /** A case on its way to the sink, and the journal segment it was written ahead to, if any. */
    private record Entry(CaseRecord record, CaseJournal.Segment segment) {
    }

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
        this.durability = b.durability != null ? b.durability
                : b.journal != null ? Durability.WRITE_AHEAD : Durability.SPILL;
        this.groupCommit = b.groupCommit;
        this.name = b.name != null ? b.name : sink.getClass().getSimpleName();
        this.probeWaitNanos = backoffNanos;
        if (journalFile != null) {
            journal = new CaseJournal(journalFile, durability == Durability.WRITE_AHEAD_SYNC, groupCommit);
            if (journal.hasReplayable()) {
                LOG.info("case journal {} holds cases from an earlier run; replaying them into {}", journal.file(), name);
                synchronized (lock) {
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
     * Queues a case for delivery, writing it to the journal first when the delivery writes ahead; never
     * waits for the sink and never throws.
     *
     * @param record the case
     */
    @Override
    public void accept(CaseRecord record) {
        Objects.requireNonNull(record, "record");
        CaseJournal.Segment segment = null;
        if (durability != Durability.SPILL) {
            try {
                segment = journal.writeAhead(record);
                writtenAhead.incrementAndGet();
            } catch (IOException e) {
                LOG.error("case {} could not be written ahead to the journal of {}; it is delivered from memory only",
                        record.id(), name, e);
            }
        }
        Entry entry = new Entry(record, segment);
        boolean full;
        synchronized (lock) {
            full = closed || queue.size() >= capacity;
            if (!full) {
                queue.addLast(entry);
                startWorker();
                lock.notifyAll();
                return;
            }
        }
        if (segment == null && overflow == Overflow.DISCARD && !closedNow()) {
            discarded.incrementAndGet();
            LOG.warn("case queue of {} full ({} cases); case {} discarded", name, capacity, record.id());
            return;
        }
        toJournal(List.of(entry), closedNow() ? "delivery closed" : "queue full");
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

    /** Called holding the lock. */
    private boolean replayPending() {
        return journal != null && journal.hasReplayable();
    }

    private void work() {
        long idleSince = 0;
        try {
            while (true) {
                Entry next = null;
                boolean replay = false;
                synchronized (lock) {
                    while (true) {
                        if (stopping) {
                            worker = null;
                            lock.notifyAll();
                            return;
                        }
                        boolean pending = replayPending();
                        if (pending && !sinkDown) {
                            replay = true; // the sink is up: empty the journal before newer cases
                            break;
                        }
                        next = queue.pollFirst();
                        if (next != null) {
                            inFlight++;
                            idleSince = 0;
                            break;
                        }
                        if (!pending) {
                            // idle: linger a moment for the next case (starting a thread per case costs more
                            // than the case), then retire; a later accept starts a new worker
                            long now = System.nanoTime();
                            if (idleSince == 0) {
                                idleSince = now;
                            }
                            long left = idleSince + IDLE_LINGER.toNanos() - now;
                            if (left > 0) {
                                lock.wait(Math.max(1, left / 1_000_000));
                                continue;
                            }
                            worker = null;
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
    private void deliver(Entry e) throws InterruptedException {
        CaseRecord c = e.record();
        if (sinkDown && System.nanoTime() < nextProbeNanos) {
            spillQueued(e);
            return;
        }
        boolean probe = sinkDown;
        long start = System.nanoTime();
        long wait = backoffNanos;
        for (int attempt = 1; ; attempt++) {
            Throwable error = tryOnce(c);
            if (error == null) {
                delivered.incrementAndGet();
                resolved(e);
                markUp();
                return;
            }
            if (isPermanent(error)) {
                reject(c, error);
                resolved(e);
                return;
            }
            long spent = System.nanoTime() - start;
            if (probe || stopping || attempt >= maxAttempts || spent + wait > maxRetryNanos) {
                LOG.warn("case sink {} failed {} time(s) for case {}; journalled until it is back", name, attempt,
                        c.id(), error);
                toJournal(List.of(e), "retry budget spent");
                markDown();
                return;
            }
            sleep(wait);
            wait = Math.min(wait * 2, maxBackoffNanos);
        }
    }

    /**
     * The sink is down: this case and every case queued behind it go to the journal at once, in one
     * write (nothing to write for cases written ahead), so that a backlog shrinks while the sink is down.
     */
    private void spillQueued(Entry first) {
        List<Entry> batch = new ArrayList<>();
        batch.add(first);
        synchronized (lock) {
            Entry more;
            while ((more = queue.pollFirst()) != null) {
                batch.add(more);
            }
            inFlight += batch.size() - 1;
        }
        try {
            toJournal(batch, "sink down");
        } finally {
            synchronized (lock) {
                inFlight -= batch.size() - 1;
                lock.notifyAll();
            }
        }
    }

    private void resolved(Entry e) {
        if (e.segment() != null) {
            journal.resolved(e.segment(), e.record().id());
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
    }

    private void markDown() {
        sinkDown = true;
        long now = System.nanoTime();
        nextProbeNanos = now + probeWaitNanos;
        probeWaitNanos = Math.min(probeWaitNanos * 2, maxBackoffNanos);
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

    /** Replays the journal's segments that are ready, batch by batch; stops at the first transient failure. */
    private void replay() {
        CaseJournal j;
        synchronized (lock) {
            j = journal;
        }
        if (j == null) {
            return;
        }
        List<CaseJournal.Segment> segments;
        try {
            segments = j.claimReplayable();
        } catch (IOException e) {
            LOG.warn("cannot claim the case journal {} for a replay", j.file(), e);
            markDown();
            return;
        }
        for (CaseJournal.Segment s : segments) {
            switch (replaySegment(j, s)) {
                case DONE:
                    j.finished(s);
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

    /**
     * Replays one sealed segment in batches, skipping the cases already stored; on a failure the segment
     * stays for the next replay, which skips what this one stored.
     */
    private Replayed replaySegment(CaseJournal j, CaseJournal.Segment seg) {
        try (CaseJournal.Batches in = CaseJournal.batches(seg.path())) {
            try {
                List<CaseRecord> read;
                while (!(read = in.next(REPLAY_BATCH)).isEmpty()) {
                    if (stopping) {
                        return Replayed.STOPPED;
                    }
                    List<CaseRecord> batch = new ArrayList<>(read.size());
                    for (CaseRecord c : read) {
                        if (!j.isDone(seg, c.id())) {
                            batch.add(c);
                        }
                    }
                    if (batch.isEmpty()) {
                        continue;
                    }
                    Throwable error = tryBatch(batch);
                    if (error == null) {
                        replayed.addAndGet(batch.size());
                        j.replayed(seg, ids(batch));
                        sinkDown = false;
                        continue;
                    }
                    if (isPermanent(error)) {
                        // find the case the store refuses: one by one, the others still go in
                        for (CaseRecord c : batch) {
                            Throwable e = tryOnce(c);
                            if (e == null) {
                                replayed.incrementAndGet();
                            } else if (isPermanent(e)) {
                                reject(c, e);
                            } else {
                                error = e;
                                break;
                            }
                            j.replayed(seg, List.of(c.id()));
                        }
                        if (isPermanent(error)) {
                            continue;
                        }
                    }
                    LOG.warn("case sink {} failed again during the replay of {}", name, seg.path(), error);
                    return Replayed.FAILED;
                }
            } finally {
                if (in.torn() > 0) {
                    torn.addAndGet(in.torn());
                    LOG.warn("case journal {} had {} incomplete line(s) (a crash while writing); skipped", seg.path(),
                            in.torn());
                }
            }
        } catch (IOException e) {
            LOG.warn("cannot read the case journal segment {}; left for the next replay", seg.path(), e);
            return Replayed.FAILED;
        }
        return Replayed.DONE;
    }

    private static List<String> ids(List<CaseRecord> cases) {
        List<String> out = new ArrayList<>(cases.size());
        for (CaseRecord c : cases) {
            out.add(c.id());
        }
        return out;
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

    /**
     * Leaves cases to a replay: those written ahead are in the journal already and are only marked; the
     * others are appended in one write.
     */
    private void toJournal(List<Entry> entries, String why) {
        List<CaseRecord> toWrite = new ArrayList<>();
        CaseJournal.Segment seg = null;
        int ahead = 0;
        for (Entry e : entries) {
            if (e.segment() == null) {
                toWrite.add(e.record());
                continue;
            }
            if (e.segment() != seg && seg != null) {
                journal.left(seg, ahead);
                ahead = 0;
            }
            seg = e.segment();
            ahead++;
        }
        if (seg != null) {
            journal.left(seg, ahead);
        }
        journalled.addAndGet(entries.size() - toWrite.size());
        if (!toWrite.isEmpty()) {
            try {
                journal().spill(toWrite);
                journalled.addAndGet(toWrite.size());
            } catch (IOException e) {
                lost.addAndGet(toWrite.size());
                LOG.error("{} case(s) LOST ({}): the journal of {} cannot be written", toWrite.size(), why, name, e);
            }
        }
        synchronized (lock) {
            if (!stopping) {
                startWorker();
            }
        }
    }

    private CaseJournal journal() throws IOException {
        synchronized (lock) {
            if (journal == null) {
                Path dir = Files.createTempDirectory("sqlagent-case-journal");
                journal = new CaseJournal(dir.resolve("cases.jsonl"), false, Duration.ZERO);
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
     * queued is left to the journal (written to it now unless it was written ahead), for the next delivery
     * on the same journal to replay. Later {@link #accept} calls go straight to the journal. Idempotent.
     */
    @Override
    public void close() {
        Thread w;
        List<Entry> left;
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
        CaseJournal j;
        synchronized (lock) {
            j = journal;
        }
        if (j != null) {
            j.close();
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

    /**
     * Returns how many cases were written to the journal ahead of their delivery.
     *
     * @return cases written ahead ({@link Durability#WRITE_AHEAD} and {@link Durability#WRITE_AHEAD_SYNC});
     *     0 with {@link Durability#SPILL}
     */
    public long writtenAhead() {
        return writtenAhead.get();
    }

    /**
     * Returns how many cases were left to the journal for a replay (queue full, budget spent, sink down or
     * closed); with a write-ahead journal they were there already and are only marked.
     *
     * @return cases left to the journal
     */
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
        private Durability durability;
        private Duration groupCommit = Duration.ZERO;
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
         * Sets when a case reaches the journal and how long a write waits for more cases to join it. By
         * default {@link Durability#WRITE_AHEAD} with a journal file and {@link Durability#SPILL} without
         * one, and no wait: the cases that arrive while a write is under way go out together in the next
         * write anyway. A wait lets a group grow (fewer writes, and fewer disk flushes with
         * {@link Durability#WRITE_AHEAD_SYNC}) and adds up to that much to every {@link #accept}.
         *
         * @param durability when a case reaches the journal
         * @param groupCommit how long a write waits for more cases, zero or more; under a second
         * @return this
         * @throws IllegalArgumentException if the wait is negative or a second or longer
         */
        public Builder durability(Durability durability, Duration groupCommit) {
            Objects.requireNonNull(durability, "durability");
            Objects.requireNonNull(groupCommit, "groupCommit");
            if (groupCommit.isNegative() || groupCommit.compareTo(Duration.ofSeconds(1)) >= 0) {
                throw new IllegalArgumentException("groupCommit must be >= 0 and < 1s but was " + groupCommit);
            }
            this.durability = durability;
            this.groupCommit = groupCommit;
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
         * @throws IllegalStateException if a write-ahead durability was asked for without a journal file
         */
        public CaseDelivery build() {
            if (durability != null && durability != Durability.SPILL && journal == null) {
                throw new IllegalStateException("durability " + durability + " writes every case to the journal: "
                        + "call journal(file) too");
            }
            return new CaseDelivery(this);
        }
    }
}
