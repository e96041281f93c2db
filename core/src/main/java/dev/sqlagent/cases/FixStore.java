package dev.sqlagent.cases;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The fix store SPI: where verified fixes are kept, so that a failure corrected once is corrected again
 * without a model call. A fix is the corrected SQL of a failed statement that then ran without error;
 * the agent looks one up by a {@link Key} (the failure's hash and its error category) before asking the
 * model to correct, and puts one after the corrected SQL ran.
 *
 * <p>The agent keys the failure (the failed SQL's tokens with literals compared exactly, the error
 * category, the database's message without codes, the fingerprints of the effective policy and of the
 * schema) and hands the store only a hash of that key, so that a store never has to hold or index a
 * statement. The agent checks every fix a store returns with the current guard before it runs it: a fix
 * the guard refuses (a stale or tampered row of a shared store) is not used, and the model is asked.
 *
 * <p>Implementations are thread-safe, expire a fix that was not used for their expiry time (judged by
 * their own {@link Clock}), and treat a second {@link #put} of a key as a replacement, also when it comes
 * from another process at the same time. A store that throws never fails a question: the agent treats it
 * as "no fix", logs it at WARN on the {@code dev.sqlagent.cases.FixStore} logger and counts it in
 * {@code AgentMetrics.fixStoreFailures()}. Two are provided: {@link #inMemory()} (the default, one per
 * agent) and {@link JdbcFixStore} (a table that several agent instances share).
 */
public interface FixStore {

    /** Default bound of the in-memory store. */
    int DEFAULT_SIZE = 10_000;
    /** Default time a fix is kept after its last use. */
    Duration DEFAULT_EXPIRY = Duration.ofHours(24);

    /**
     * Looks up the verified fix of a failure. A hit counts as a use: the fix's expiry starts again.
     *
     * @param key the failure's key
     * @return its fix, or empty when there is none or it expired
     * @throws Exception when the store cannot be read; the agent then proceeds as without a fix
     */
    Optional<String> get(Key key) throws Exception;

    /**
     * Keeps a verified fix, replacing any fix of the same key.
     *
     * @param key the failure's key
     * @param fixedSql the corrected SQL, which ran without error
     * @throws Exception when the store cannot be written; the agent then carries on without keeping it
     */
    void put(Key key, String fixedSql) throws Exception;

    /**
     * The in-memory store with the default bound ({@value #DEFAULT_SIZE} fixes) and expiry (24 hours after
     * the last use), on the system clock.
     *
     * @return a new store
     */
    static FixStore inMemory() {
        return inMemory(DEFAULT_SIZE, DEFAULT_EXPIRY, Clock.systemUTC());
    }

    /**
     * An in-memory store (Caffeine): bounded, expiring after access, private to one process.
     *
     * @param maxSize the most fixes kept, at least 1; the least used go first
     * @param expiry how long an unused fix is kept, positive
     * @param clock the clock expiry is judged by
     * @return a new store
     * @throws IllegalArgumentException if the size or the expiry is out of range
     */
    static FixStore inMemory(int maxSize, Duration expiry, Clock clock) {
        if (maxSize < 1) {
            throw new IllegalArgumentException("maxSize must be > 0 but was " + maxSize);
        }
        Objects.requireNonNull(expiry, "expiry");
        Objects.requireNonNull(clock, "clock");
        if (expiry.isNegative() || expiry.isZero()) {
            throw new IllegalArgumentException("expiry must be positive but was " + expiry);
        }
        Cache<String, String> fixes = Caffeine.newBuilder().maximumSize(maxSize).expireAfterAccess(expiry)
                .ticker(() -> {
                    Instant now = clock.instant();
                    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
                }).build();
        return new FixStore() {
            @Override
            public Optional<String> get(Key key) {
                return Optional.ofNullable(fixes.getIfPresent(key.hash()));
            }

            @Override
            public void put(Key key, String fixedSql) {
                fixes.put(key.hash(), Objects.requireNonNull(fixedSql, "fixedSql"));
            }

            @Override
            public String toString() {
                return "FixStore.inMemory{size=" + fixes.estimatedSize() + ", maxSize=" + maxSize + ", expiry="
                        + expiry + '}';
            }
        };
    }

    /**
     * The key of one failure under one policy and schema, as the agent hands it to a store.
     *
     * @param hash the SHA-256 of the full key, 64 lowercase hex digits: equal hashes are the same failure
     *     under the same policy and schema
     * @param category the failure's error category (an {@code ErrorCategory} name), kept for reading a
     *     store, never needed to match
     * @param policyFingerprint the fingerprint of the policy the fix was learnt under, for reading a store
     * @param schemaFingerprint the fingerprint of the schema the fix was learnt on, for reading a store
     */
    record Key(String hash, String category, String policyFingerprint, String schemaFingerprint) {

        private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");
        private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9_]{1,64}");

        /**
         * Checks the fields.
         *
         * @param hash the SHA-256 of the full key, 64 lowercase hex digits
         * @param category the failure's error category
         * @param policyFingerprint the fingerprint of the policy
         * @param schemaFingerprint the fingerprint of the schema
         * @throws IllegalArgumentException if the hash is not 64 lowercase hex digits or a label is not
         *     1 to 64 letters, digits or underscores
         */
        public Key {
            Objects.requireNonNull(hash, "hash");
            Objects.requireNonNull(category, "category");
            Objects.requireNonNull(policyFingerprint, "policyFingerprint");
            Objects.requireNonNull(schemaFingerprint, "schemaFingerprint");
            if (!HASH.matcher(hash).matches()) {
                throw new IllegalArgumentException("hash must be 64 lowercase hex digits but was '" + hash + "'");
            }
            for (String label : new String[] {category, policyFingerprint, schemaFingerprint}) {
                if (!LABEL.matcher(label).matches()) {
                    throw new IllegalArgumentException(
                            "key labels must be 1 to 64 letters, digits or underscores but one was '" + label + "'");
                }
            }
        }
    }
}
