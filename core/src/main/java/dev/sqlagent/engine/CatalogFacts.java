package dev.sqlagent.engine;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;

/**
 * How long the engine check's plan readers keep what they looked up in a database's catalog (a table's
 * columns, an index's key columns, a setting, what a type name resolved to): one window for every engine, so
 * that the documentation's promise ({@code docs/security.md}, "What the engine check keeps") is one number.
 * A fact changed within the window is read as it was; a new agent reads afresh.
 */
public final class CatalogFacts {

    /** How long a catalog fact is kept after it was read. */
    public static final Duration KEPT_FOR = Duration.ofMinutes(5);

    private CatalogFacts() {
    }

    /**
     * @param maximumSize how many facts of this kind a reader keeps at most
     * @param <K> what a fact is looked up by
     * @param <V> the fact
     * @return a cache that forgets each fact {@link #KEPT_FOR} after it was read
     */
    public static <K, V> Cache<K, V> kept(long maximumSize) {
        return Caffeine.newBuilder().maximumSize(maximumSize).expireAfterWrite(KEPT_FOR).build();
    }
}
