package dev.sqlagent.vector;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The entries of a {@link VectorStore} kept in memory, for implementations of it (the exact store here,
 * the approximate one in integrations): per slot an id, its metadata and its unit vector, the vectors in
 * one contiguous float array (slot {@code s} at {@code data()[s * dimension ..]}) that grows by half when
 * full, and the slot of each live id. A slot may be retired: its id no longer finds it and its metadata
 * is dropped, but its vector stays (a graph index still routes through it).
 *
 * <p>Not thread-safe: the store locks around it, reads under its read lock, changes under its write
 * lock.
 */
public final class VectorSlots {

    private final int dimension;
    private final int minCapacity;
    private final Map<String, Integer> slotOf = new HashMap<>();
    private float[] data = new float[0];
    private String[] ids = new String[0];
    private Map<?, ?>[] metadata = new Map<?, ?>[0];
    private int size;

    /**
     * Creates empty slots.
     *
     * @param dimension the dimension of every vector, at least 1
     * @param minCapacity how many slots to make room for at the first addition, at least 1
     * @throws IllegalArgumentException if the dimension or the capacity is below 1
     */
    public VectorSlots(int dimension, int minCapacity) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1 but was " + dimension);
        }
        if (minCapacity < 1) {
            throw new IllegalArgumentException("minCapacity must be >= 1 but was " + minCapacity);
        }
        this.dimension = dimension;
        this.minCapacity = minCapacity;
    }

    /**
     * Checks what {@link VectorStore#add} receives and returns the vector to store.
     *
     * @param id the entry's id
     * @param vector the entry's vector
     * @return a unit-length copy of the vector (the zero vector stays zero)
     * @throws IllegalArgumentException if the id is blank, the dimension differs or a component is not
     *     finite
     * @throws NullPointerException if the id or the vector is null
     */
    public float[] checkEntry(String id, float[] vector) {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("id must not be blank");
        }
        return unit(vector);
    }

    /**
     * Checks a vector's dimension and normalises it.
     *
     * @param vector a vector to store or to search by
     * @return its unit-length copy (the zero vector stays zero)
     * @throws IllegalArgumentException if the dimension differs or a component is not finite
     * @throws NullPointerException if the vector is null
     */
    public float[] unit(float[] vector) {
        Objects.requireNonNull(vector, "vector");
        if (vector.length != dimension) {
            throw new IllegalArgumentException(
                    "vector dimension must be " + dimension + " but was " + vector.length);
        }
        return VectorMath.normalise(vector);
    }

    /** {@return the dimension of every vector} */
    public int dimension() {
        return dimension;
    }

    /** {@return how many slots are in use, retired ones included} */
    public int size() {
        return size;
    }

    /**
     * The vectors, slot after slot. The array is replaced when the slots grow: read it again after an
     * addition.
     *
     * @return the array itself, not a copy
     */
    public float[] data() {
        return data;
    }

    /**
     * {@return the id stored in a slot (a retired slot keeps its id)}
     *
     * @param slot a slot below {@link #size()}
     */
    public String id(int slot) {
        return ids[slot];
    }

    /**
     * {@return the metadata of a slot, or null when the slot is retired}
     *
     * @param slot a slot below {@link #size()}
     */
    @SuppressWarnings("unchecked")
    public Map<String, String> metadata(int slot) {
        return (Map<String, String>) metadata[slot];
    }

    /**
     * {@return whether a slot holds a live entry (is not retired)}
     *
     * @param slot a slot below {@link #size()}
     */
    public boolean live(int slot) {
        return metadata[slot] != null;
    }

    /**
     * {@return the slot of the live entry with an id, or -1 if there is none}
     *
     * @param id an entry's id
     */
    public int slotOf(String id) {
        Integer s = slotOf.get(id);
        return s == null ? -1 : s;
    }

    /**
     * Stores an entry in a new slot at the end; the id must not be live already.
     *
     * @param id the id
     * @param unit the vector as it is to be stored (normally {@link #checkEntry}'s result); copied
     * @param meta the metadata, not null (an immutable copy is best: it is handed out as it is)
     * @return the new slot
     * @throws IllegalStateException if the id is live already, or the slots cannot grow further (the
     *     vectors would pass the largest Java array)
     */
    public int append(String id, float[] unit, Map<String, String> meta) {
        Objects.requireNonNull(meta, "metadata");
        if (slotOf.containsKey(id)) {
            throw new IllegalStateException("id is stored already: " + id);
        }
        int s = size;
        if (s == ids.length) {
            grow(s);
        }
        ids[s] = id;
        slotOf.put(id, s);
        size++;
        set(s, unit, meta);
        return s;
    }

    private void grow(int s) {
        int capacity = Math.max(minCapacity, s + (s >> 1));
        if ((long) capacity * dimension > Integer.MAX_VALUE - 8) {
            capacity = (Integer.MAX_VALUE - 8) / dimension;
            if (capacity <= s) {
                throw new IllegalStateException("store is full: " + s + " entries of dimension " + dimension);
            }
        }
        data = Arrays.copyOf(data, capacity * dimension);
        ids = Arrays.copyOf(ids, capacity);
        metadata = Arrays.copyOf(metadata, capacity);
    }

    /**
     * Replaces the vector and metadata of a live slot in place.
     *
     * @param slot a live slot
     * @param unit the vector as it is to be stored; copied
     * @param meta the metadata, not null
     */
    public void set(int slot, float[] unit, Map<String, String> meta) {
        metadata[slot] = Objects.requireNonNull(meta, "metadata");
        System.arraycopy(unit, 0, data, slot * dimension, dimension);
    }

    /**
     * Retires a live slot: its id no longer finds it and its metadata is dropped; the slot and its
     * vector stay.
     *
     * @param slot a live slot
     */
    public void retire(int slot) {
        slotOf.remove(ids[slot], slot);
        metadata[slot] = null;
    }

    /**
     * Frees a slot by moving the last slot into it, so removal costs the same whatever the size.
     *
     * @param slot a slot below {@link #size()}
     */
    public void removeMovingLast(int slot) {
        slotOf.remove(ids[slot], slot);
        int last = size - 1;
        if (slot != last) {
            ids[slot] = ids[last];
            metadata[slot] = metadata[last];
            System.arraycopy(data, last * dimension, data, slot * dimension, dimension);
            if (metadata[slot] != null) {
                slotOf.put(ids[slot], slot);
            }
        }
        ids[last] = null;
        metadata[last] = null;
        size--;
    }
}
