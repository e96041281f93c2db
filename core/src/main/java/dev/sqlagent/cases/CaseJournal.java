package dev.sqlagent.cases;

import dev.sqlagent.internal.CaseJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Append-only JSON Lines files of cases, one case a line, in segments: the active segment
 * {@code <stem>.jsonl} takes every write; a segment is sealed by renaming it to
 * {@code <stem>.replay-<millis>-<n>.jsonl} when it is full ({@value #SEGMENT_CASES} cases or
 * {@value #SEGMENT_BYTES} bytes) or when its cases are to be replayed. After a crash every segment is
 * readable up to its last complete line; a delivery that starts finds the segments an earlier run left and
 * replays them (the sink's idempotent insert makes a second replay harmless).
 *
 * <p>Two kinds of write. A case <em>written ahead</em> ({@link #writeAhead}) is on its way to the sink
 * from memory as well: it counts as live in its segment until the delivery {@linkplain #resolved resolves}
 * it (stored or refused) or {@linkplain #left leaves} it to a replay. A <em>spilled</em> case
 * ({@link #spill}) is in the journal only. A sealed segment whose every case was resolved is deleted; one
 * that holds a case left to a replay is replayed once none of its cases is live, skipping those already
 * resolved.
 *
 * <p>Writes are grouped: the cases that arrive while one write is under way go out together in the next
 * one (one {@code write} call and, when forced, one {@code fsync}), after an optional delay that lets a
 * group grow. A write returns once its cases are handed to the operating system (they survive a crash of
 * the process) or, when forced, are on the disk (they survive a crash of the machine).
 *
 * <p>Cases that can never be stored (a permanent error) go to a separate dead-letter file,
 * {@code <stem>.rejected.jsonl}, which is never replayed by itself. Thread-safe.
 */
final class CaseJournal {

    /** Cases per segment before it is sealed. */
    static final int SEGMENT_CASES = 4096;
    /** Bytes per segment before it is sealed. */
    static final long SEGMENT_BYTES = 16L << 20;
    /**
     * Cases the active segment holds before it is deleted as soon as every one of them is stored: a crash
     * replays at most about this many cases that were stored already; a lower value creates and deletes
     * the file more often.
     */
    static final int DROP_ACTIVE_AFTER = 64;

    private static final Logger LOG = LoggerFactory.getLogger(CaseJournal.class);

    /** One file of the journal. Its fields are guarded by the journal's lock. */
    static final class Segment {
        private Path path;
        private FileChannel channel;
        private int cases;
        private long bytes;
        private int live;
        private boolean spilled;
        private boolean sealed;
        private final Set<String> done = new HashSet<>();

        private Segment(Path path, boolean sealed) {
            this.path = path;
            this.sealed = sealed;
            this.spilled = sealed; // a segment found on disk is replayed
        }

        /** {@return the file} */
        Path path() {
            return path;
        }
    }

    /** Cases that go out in one write. */
    private static final class Batch {
        final StringBuilder text = new StringBuilder();
        int cases;
        int ahead;
        boolean spill;
        boolean done;
        Segment segment;
        IOException error;
    }

    private final Path file;
    private final Path deadLetters;
    private final String stem;
    private final boolean force;
    private final long groupDelayNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition written = lock.newCondition();
    private final Condition linger = lock.newCondition();
    private final Object deadLetterLock = new Object();
    private final List<Segment> sealed = new ArrayList<>();
    private Segment active;
    private Batch open = new Batch();
    private boolean writing;
    private long claims;

    /**
     * Opens a journal and takes over the segments an earlier run left.
     *
     * @param file the active segment; its folder holds the others
     * @param force whether a write is forced to the disk before it returns
     * @param groupDelay how long a write waits for more cases to join it
     */
    CaseJournal(Path file, boolean force, Duration groupDelay) {
        this.file = Objects.requireNonNull(file, "file").toAbsolutePath();
        String name = this.file.getFileName().toString();
        this.stem = name.endsWith(".jsonl") ? name.substring(0, name.length() - ".jsonl".length()) : name;
        this.deadLetters = this.file.resolveSibling(stem + ".rejected.jsonl");
        this.force = force;
        this.groupDelayNanos = groupDelay.toNanos();
        try {
            for (Path p : claimedFiles()) {
                sealed.add(new Segment(p, true));
            }
            if (Files.exists(this.file) && Files.size(this.file) > 0) {
                Segment left = new Segment(this.file, false);
                left.spilled = true;
                seal(left);
            }
        } catch (IOException e) {
            LOG.warn("cannot read the case journal's folder {}; segments of an earlier run wait for the next start",
                    this.file.getParent(), e);
        }
    }

    /** {@return the active segment's file} */
    Path file() {
        return file;
    }

    /** {@return the dead-letter file} */
    Path deadLetters() {
        return deadLetters;
    }

    /**
     * Writes a case ahead of its delivery; it is live in the returned segment until it is
     * {@linkplain #resolved resolved} or {@linkplain #left left} to a replay.
     *
     * @param c the case
     * @return the segment that holds it
     * @throws IOException when it cannot be written
     */
    Segment writeAhead(CaseRecord c) throws IOException {
        return write(CaseJson.write(c) + '\n', 1, true);
    }

    /**
     * Appends cases for a replay only.
     *
     * @param cases the cases
     * @throws IOException when they cannot be written
     */
    void spill(List<CaseRecord> cases) throws IOException {
        if (cases.isEmpty()) {
            return;
        }
        StringBuilder sb = new StringBuilder();
        for (CaseRecord c : cases) {
            sb.append(CaseJson.write(c)).append('\n');
        }
        write(sb.toString(), cases.size(), false);
    }

    private Segment write(String text, int cases, boolean ahead) throws IOException {
        Batch b;
        lock.lock();
        try {
            b = open;
            b.text.append(text);
            b.cases += cases;
            if (ahead) {
                b.ahead += cases;
            } else {
                b.spill = true;
            }
            while (!b.done) {
                if (writing) {
                    written.awaitUninterruptibly();
                    continue;
                }
                writing = true;
                lingerForMore();
                Batch mine = open;
                open = new Batch();
                Segment seg = active;
                if (seg == null) {
                    seg = new Segment(file, false);
                    active = seg;
                }
                byte[] bytes = mine.text.toString().getBytes(StandardCharsets.UTF_8);
                lock.unlock();
                IOException error = null;
                try {
                    writeOut(seg, bytes);
                } catch (IOException e) {
                    error = e;
                } catch (RuntimeException e) {
                    error = new IOException("the case journal could not be written: " + e, e);
                } finally {
                    lock.lock();
                }
                if (error == null) {
                    seg.cases += mine.cases;
                    seg.bytes += bytes.length;
                    seg.live += mine.ahead;
                    seg.spilled |= mine.spill;
                    mine.segment = seg;
                    if (seg.cases >= SEGMENT_CASES || seg.bytes >= SEGMENT_BYTES) {
                        try {
                            seal(seg);
                        } catch (IOException e) {
                            LOG.warn("cannot seal the case journal segment {}; it keeps growing", seg.path, e);
                        }
                    }
                } else {
                    mine.error = error;
                    closeChannel(seg);
                }
                mine.done = true;
                writing = false;
                written.signalAll();
            }
        } finally {
            lock.unlock();
        }
        if (b.error != null) {
            throw b.error;
        }
        return b.segment;
    }

    /** With a group delay, lets more cases join the write about to start. Called holding the lock. */
    private void lingerForMore() {
        long left = groupDelayNanos;
        while (left > 0) {
            try {
                left = linger.awaitNanos(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Writes to a segment's file, opening it when needed. Only the one writer at a time calls this. */
    private void writeOut(Segment seg, byte[] bytes) throws IOException {
        if (seg.channel == null) {
            Path parent = seg.path.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            boolean fresh = !Files.exists(seg.path);
            seg.channel = FileChannel.open(seg.path, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                    StandardOpenOption.WRITE);
            if (fresh && force) {
                syncFolder(parent);
            }
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
            seg.channel.write(buf);
        }
        if (force) {
            seg.channel.force(false);
        }
    }

    /** Makes a new or renamed file's name durable too (Linux and macOS; elsewhere a no-op). */
    private static void syncFolder(Path dir) {
        if (dir == null) {
            return;
        }
        try (FileChannel c = FileChannel.open(dir, StandardOpenOption.READ)) {
            c.force(true);
        } catch (IOException | RuntimeException e) {
            // Windows cannot open a folder as a channel; its rename is durable by itself
        }
    }

    private static void closeChannel(Segment seg) {
        if (seg.channel != null) {
            try {
                seg.channel.close();
            } catch (IOException ignored) {
                // reopened by the next write
            }
            seg.channel = null;
        }
    }

    /** Seals a segment: renames it out of the way of new writes. Called holding the lock, never mid-write. */
    private void seal(Segment seg) throws IOException {
        closeChannel(seg);
        Path target = file.resolveSibling(String.format("%s.replay-%013d-%06d.jsonl", stem, System.currentTimeMillis(),
                claims++));
        if (Files.exists(seg.path)) {
            Files.move(seg.path, target, StandardCopyOption.ATOMIC_MOVE);
            if (force) {
                syncFolder(target.getParent());
            }
        }
        seg.path = target;
        seg.sealed = true;
        if (seg == active) {
            active = null;
        }
        sealed.add(seg);
        dropIfResolved(seg);
    }

    private void dropIfResolved(Segment seg) {
        if (seg.sealed && seg.live == 0 && !seg.spilled) {
            sealed.remove(seg);
            delete(seg.path);
        }
    }

    /**
     * A case written ahead was stored or refused for good: a replay skips it.
     *
     * @param seg its segment
     * @param id its id
     */
    void resolved(Segment seg, String id) {
        lock.lock();
        try {
            seg.live--;
            seg.done.add(id);
            dropIfResolved(seg);
            if (seg == active && seg.cases >= DROP_ACTIVE_AFTER) {
                dropActiveIfResolved();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Deletes the active segment when every case in it was stored, so that a crash leaves little that was
     * stored already to replay. Called holding the lock; never while a write is under way, which would go
     * to the deleted file.
     */
    private void dropActiveIfResolved() {
        Segment seg = active;
        if (seg != null && !writing && seg.live == 0 && !seg.spilled) {
            closeChannel(seg);
            active = null;
            delete(seg.path);
        }
    }

    /**
     * Cases written ahead are left to a replay (the sink is down, the queue full, the delivery closed).
     *
     * @param seg their segment
     * @param n how many
     */
    void left(Segment seg, int n) {
        lock.lock();
        try {
            seg.live -= n;
            seg.spilled = true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Cases of a segment under replay were stored or refused for good: a later replay skips them.
     *
     * @param seg the segment
     * @param ids their ids
     */
    void replayed(Segment seg, Collection<String> ids) {
        lock.lock();
        try {
            seg.done.addAll(ids);
        } finally {
            lock.unlock();
        }
    }

    /**
     * @param seg a segment under replay
     * @param id a case's id
     * @return whether the case was stored or refused already
     */
    boolean isDone(Segment seg, String id) {
        lock.lock();
        try {
            return seg.done.contains(id);
        } finally {
            lock.unlock();
        }
    }

    /** {@return whether a segment is ready for a replay: it holds cases left to one, and none is live} */
    boolean hasReplayable() {
        lock.lock();
        try {
            if (active != null && active.spilled && active.live == 0) {
                return true;
            }
            for (Segment s : sealed) {
                if (s.spilled && s.live == 0) {
                    return true;
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** {@return whether any segment holds cases left to a replay (some may still be live)} */
    boolean hasLeft() {
        lock.lock();
        try {
            if (active != null && active.spilled) {
                return true;
            }
            for (Segment s : sealed) {
                if (s.spilled) {
                    return true;
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes the segments that are ready for a replay, sealing the active one when it is.
     *
     * @return the segments, oldest first; empty when there is nothing
     * @throws IOException when the active segment cannot be sealed
     */
    List<Segment> claimReplayable() throws IOException {
        lock.lock();
        try {
            if (active != null && active.spilled && active.live == 0 && !writing) {
                seal(active);
            }
            List<Segment> out = new ArrayList<>();
            for (Segment s : sealed) {
                if (s.spilled && s.live == 0) {
                    out.add(s);
                }
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A segment was replayed to its end: it is deleted.
     *
     * @param seg the segment
     */
    void finished(Segment seg) {
        lock.lock();
        try {
            sealed.remove(seg);
            delete(seg.path);
        } finally {
            lock.unlock();
        }
    }

    private static void delete(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            LOG.warn("cannot delete the case journal segment {}", p, e);
        }
    }

    /** Closes the active segment's file, or deletes it when every case in it was stored; a later write opens one again. */
    void close() {
        lock.lock();
        try {
            while (writing) {
                written.awaitUninterruptibly();
            }
            dropActiveIfResolved();
            if (active != null) {
                closeChannel(active);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Appends a case to the dead letters. @param c the case @throws IOException when it cannot be written */
    void reject(CaseRecord c) throws IOException {
        synchronized (deadLetterLock) {
            Path parent = deadLetters.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (OutputStream out = Files.newOutputStream(deadLetters, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE)) {
                out.write((CaseJson.write(c) + '\n').getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    private List<Path> claimedFiles() throws IOException {
        Path dir = file.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            return List.of();
        }
        String prefix = stem + ".replay-";
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> {
                String n = p.getFileName().toString();
                return n.startsWith(prefix) && n.endsWith(".jsonl");
            }).sorted().toList();
        }
    }

    /**
     * Opens a segment to read it batch by batch, so that a replay starts before a long segment is parsed
     * to its end.
     *
     * @param segment the file
     * @return the reader; close it
     * @throws IOException when the file cannot be opened
     */
    static Batches batches(Path segment) throws IOException {
        return new Batches(Files.newBufferedReader(segment, StandardCharsets.UTF_8));
    }

    /** Reads complete cases in batches, counting the lines that are not (a torn last line). */
    static final class Batches implements AutoCloseable {
        private final BufferedReader reader;
        private int torn;

        private Batches(BufferedReader reader) {
            this.reader = reader;
        }

        /** @param max the most cases  @return up to that many cases, empty at the end  @throws IOException on a read error */
        List<CaseRecord> next(int max) throws IOException {
            List<CaseRecord> out = new ArrayList<>();
            String line;
            while (out.size() < max && (line = reader.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                Optional<CaseRecord> c = CaseJson.read(line);
                if (c.isPresent()) {
                    out.add(c.get());
                } else {
                    torn++;
                }
            }
            return out;
        }

        /** {@return lines skipped so far} */
        int torn() {
            return torn;
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }
}
