package dev.sqlagent.vector;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * An exact vector store in memory: vectors kept L2-normalised in one contiguous float array and
 * searched by a full scan (cosine = dot product of unit vectors) into a bounded heap of primitives, so
 * a search allocates only its result. Good for up to a few hundred thousand entries; beyond that use an
 * approximate index.
 *
 * <p>Thread-safe: searches run concurrently with each other under a read lock, additions and removals
 * take a write lock. The store can be {@linkplain #save saved} to a file and {@linkplain #load loaded}
 * again.
 */
public final class InMemoryVectorStore implements VectorStore {

    private static final int MAGIC = 0x53515653; // "SQVS"
    private static final int FORMAT_VERSION = 1;
    private static final int MAX_STRING_BYTES = 1 << 20;
    private static final int MAX_DIMENSION = 1 << 16;

    private final int dimension;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final VectorSlots entries;

    /**
     * Creates an empty store.
     *
     * @param dimension the dimension of every vector, at least 1
     * @throws IllegalArgumentException if the dimension is below 1
     */
    public InMemoryVectorStore(int dimension) {
        if (dimension < 1 || dimension > MAX_DIMENSION) {
            throw new IllegalArgumentException(
                    "dimension must be between 1 and " + MAX_DIMENSION + " but was " + dimension);
        }
        this.dimension = dimension;
        this.entries = new VectorSlots(dimension, 16);
    }

    /**
     * Returns the dimension of the stored vectors.
     *
     * @return the dimension
     */
    @Override
    public int dimension() {
        return dimension;
    }

    /**
     * Returns how many entries are stored.
     *
     * @return the number of entries
     */
    @Override
    public int size() {
        lock.readLock().lock();
        try {
            return entries.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Adds an entry or replaces the one with the same id. The vector is stored normalised; the zero
     * vector is accepted and is similar to nothing (score 0).
     *
     * @throws IllegalArgumentException if the id is blank, the dimension differs or a component is
     *     not finite
     * @throws NullPointerException if an argument, a metadata key or a metadata value is null
     */
    @Override
    public void add(String id, float[] vector, Map<String, String> meta) {
        float[] unit = entries.checkEntry(id, vector);
        Map<String, String> metaCopy = Map.copyOf(Objects.requireNonNull(meta, "metadata"));
        lock.writeLock().lock();
        try {
            put(id, unit, metaCopy);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Stores an already normalised vector; the caller holds the write lock. */
    private void put(String id, float[] unit, Map<String, String> meta) {
        int s = entries.slotOf(id);
        if (s < 0) {
            entries.append(id, unit, meta);
        } else {
            entries.set(s, unit, meta);
        }
    }

    /**
     * Removes the entry with this id, if there is one. The last entry moves into the freed slot, so
     * removal costs the same whatever the size.
     *
     * @param id the entry's id
     * @return whether an entry was removed
     */
    @Override
    public boolean remove(String id) {
        Objects.requireNonNull(id, "id");
        lock.writeLock().lock();
        try {
            int s = entries.slotOf(id);
            if (s < 0) {
                return false;
            }
            entries.removeMovingLast(s);
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Finds the entries most similar to the query by a full scan.
     *
     * @throws IllegalArgumentException if the dimension differs, {@code k < 1} or a component is not
     *     finite
     * @throws NullPointerException if the query or the filter is null
     */
    @Override
    public List<VectorMatch> search(float[] query, int k, Predicate<Map<String, String>> filter) {
        float[] q = entries.unit(query);
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1 but was " + k);
        }
        Objects.requireNonNull(filter, "filter");
        lock.readLock().lock();
        try {
            int n = entries.size();
            TopK top = new TopK(Math.min(k, Math.max(n, 1)));
            float[] d = entries.data();
            int dim = dimension;
            if (filter == VectorFilter.everything()) {
                for (int i = 0, off = 0; i < n; i++, off += dim) {
                    top.offer(VectorMath.dot(q, d, off), i);
                }
            } else {
                for (int i = 0, off = 0; i < n; i++, off += dim) {
                    if (filter.test(entries.metadata(i))) {
                        top.offer(VectorMath.dot(q, d, off), i);
                    }
                }
            }
            return top.drain(this);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Writes the store to a file, replacing it atomically where the file system allows: a crash
     * during saving leaves the previous file intact.
     *
     * <p>The format (version 1, big-endian): the magic {@code SQVS}, the format version, the dimension,
     * the entry count, then per entry the id, the metadata pairs and the unit vector, and a CRC-32 of
     * all of it.
     *
     * @param file the file to write
     * @throws IOException if writing fails
     */
    public void save(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(tmp)) {
                writeTo(out);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private void writeTo(OutputStream raw) throws IOException {
        CRC32 crc = new CRC32();
        DataOutputStream out = new DataOutputStream(
                new CheckedOutputStream(new BufferedOutputStream(raw, 1 << 16), crc));
        lock.readLock().lock();
        try {
            out.writeInt(MAGIC);
            out.writeInt(FORMAT_VERSION);
            out.writeInt(dimension);
            int size = entries.size();
            float[] data = entries.data();
            out.writeInt(size);
            byte[] vectorBytes = new byte[dimension * Float.BYTES];
            for (int i = 0; i < size; i++) {
                writeString(out, entries.id(i));
                Map<String, String> meta = entries.metadata(i);
                out.writeInt(meta.size());
                for (Map.Entry<String, String> e : meta.entrySet()) {
                    writeString(out, e.getKey());
                    writeString(out, e.getValue());
                }
                int off = i * dimension;
                for (int d = 0, b = 0; d < dimension; d++, b += 4) {
                    int bits = Float.floatToIntBits(data[off + d]);
                    vectorBytes[b] = (byte) (bits >>> 24);
                    vectorBytes[b + 1] = (byte) (bits >>> 16);
                    vectorBytes[b + 2] = (byte) (bits >>> 8);
                    vectorBytes[b + 3] = (byte) bits;
                }
                out.write(vectorBytes);
            }
        } finally {
            lock.readLock().unlock();
        }
        out.flush();
        long checksum = crc.getValue();
        out.writeLong(checksum);
        out.flush();
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_STRING_BYTES) {
            throw new IOException("cannot save a string of " + bytes.length + " bytes (at most "
                    + MAX_STRING_BYTES + "): " + s.substring(0, 40) + "...");
        }
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    /**
     * Reads a store written by {@link #save}.
     *
     * @param file the file to read
     * @return a new store holding the saved entries
     * @throws IOException if the file cannot be read, is not such a file, has an unsupported version,
     *     is truncated or is corrupt (the message says which)
     */
    public static InMemoryVectorStore load(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        long fileSize = Files.size(file);
        try (InputStream in = Files.newInputStream(file)) {
            return readFrom(in, fileSize, file.toString());
        } catch (EOFException e) {
            throw new IOException("vector store file " + file + " is truncated", e);
        }
    }

    private static InMemoryVectorStore readFrom(InputStream raw, long fileSize, String name) throws IOException {
        CRC32 crc = new CRC32();
        DataInputStream in = new DataInputStream(new CheckedInputStream(new BufferedInputStream(raw, 1 << 16), crc));
        int magic = in.readInt();
        if (magic != MAGIC) {
            throw new IOException(name + " is not a vector store file (magic 0x" + Integer.toHexString(magic) + ")");
        }
        int version = in.readInt();
        if (version != FORMAT_VERSION) {
            throw new IOException(name + " has format version " + version + "; this library reads version "
                    + FORMAT_VERSION);
        }
        int dimension = in.readInt();
        int count = in.readInt();
        if (dimension < 1 || dimension > MAX_DIMENSION) {
            throw new IOException(name + " is corrupt: dimension " + dimension);
        }
        if (count < 0 || (long) count * dimension * Float.BYTES > fileSize) {
            throw new IOException(name + " is corrupt or truncated: " + count + " entries of dimension "
                    + dimension + " cannot fit in " + fileSize + " bytes");
        }
        InMemoryVectorStore store = new InMemoryVectorStore(dimension);
        byte[] vectorBytes = new byte[dimension * Float.BYTES];
        for (int i = 0; i < count; i++) {
            String id = readString(in, name);
            int pairs = in.readInt();
            if (pairs < 0 || pairs > MAX_STRING_BYTES) {
                throw new IOException(name + " is corrupt: entry " + i + " has " + pairs + " metadata pairs");
            }
            Map<String, String> meta = new LinkedHashMap<>();
            for (int p = 0; p < pairs; p++) {
                meta.put(readString(in, name), readString(in, name));
            }
            in.readFully(vectorBytes);
            float[] v = new float[dimension];
            for (int d = 0, b = 0; d < dimension; d++, b += 4) {
                int bits = (vectorBytes[b] & 0xff) << 24 | (vectorBytes[b + 1] & 0xff) << 16
                        | (vectorBytes[b + 2] & 0xff) << 8 | (vectorBytes[b + 3] & 0xff);
                v[d] = Float.intBitsToFloat(bits);
                if (!Float.isFinite(v[d])) {
                    throw new IOException(name + " is corrupt: entry " + i + " has a non-finite component");
                }
            }
            if (id.isBlank() || store.entries.slotOf(id) >= 0) {
                throw new IOException(name + " is corrupt: entry " + i + " has a blank or repeated id");
            }
            store.put(id, v, Map.copyOf(meta));
        }
        long expected = crc.getValue();
        long stored = in.readLong();
        if (stored != expected) {
            throw new IOException(name + " is corrupt: checksum mismatch");
        }
        if (in.read() != -1) {
            throw new IOException(name + " is corrupt: unexpected bytes after the checksum");
        }
        return store;
    }

    private static String readString(DataInputStream in, String name) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_STRING_BYTES) {
            throw new IOException(name + " is corrupt: string length " + length);
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A bounded min-heap of (score, slot) in two primitive arrays; the weakest hit sits at the root. */
    private static final class TopK {
        private final float[] scores;
        private final int[] slots;
        private int count;

        TopK(int k) {
            scores = new float[k];
            slots = new int[k];
        }

        void offer(float score, int slot) {
            if (count < scores.length) {
                int i = count++;
                while (i > 0) {
                    int parent = (i - 1) >>> 1;
                    if (scores[parent] <= score) {
                        break;
                    }
                    scores[i] = scores[parent];
                    slots[i] = slots[parent];
                    i = parent;
                }
                scores[i] = score;
                slots[i] = slot;
            } else if (score > scores[0]) {
                siftDownFromRoot(score, slot);
            }
        }

        private void siftDownFromRoot(float score, int slot) {
            int i = 0;
            int half = count >>> 1;
            while (i < half) {
                int child = 2 * i + 1;
                int right = child + 1;
                if (right < count && scores[right] < scores[child]) {
                    child = right;
                }
                if (score <= scores[child]) {
                    break;
                }
                scores[i] = scores[child];
                slots[i] = slots[child];
                i = child;
            }
            scores[i] = score;
            slots[i] = slot;
        }

        /** Empties the heap into matches, best first; ties go to the smaller id. */
        List<VectorMatch> drain(InMemoryVectorStore store) {
            List<VectorMatch> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                out.add(new VectorMatch(store.entries.id(slots[i]), scores[i], store.entries.metadata(slots[i])));
            }
            out.sort((a, b) -> {
                int c = Double.compare(b.score(), a.score());
                return c != 0 ? c : a.id().compareTo(b.id());
            });
            return out;
        }
    }
}
