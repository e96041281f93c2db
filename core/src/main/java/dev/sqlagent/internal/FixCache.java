package dev.sqlagent.internal;

import dev.sqlagent.cases.FixStore;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.schema.SchemaCatalog;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verified fixes, reused without asking the model again: key = the failed SQL's tokens + error category +
 * normalised message + the fingerprints of the policy and schema ({@link #key}), value = a corrected SQL
 * that then executed successfully. The agent checks a cached fix with the current guard before using it. A fix that failed or was
 * rejected is never put here. The fixes live in a {@link FixStore} (in memory by default, or shared by
 * several instances), which sees only a hash of the key; a store that fails counts as "no fix", is logged
 * at WARN and counted ({@link #failures()}), and never fails a question. Thread-safe.
 */
public final class FixCache {

    /** Default bound. */
    public static final int DEFAULT_SIZE = FixStore.DEFAULT_SIZE;
    /** Default time a fix is kept after its last use. */
    public static final Duration DEFAULT_EXPIRY = FixStore.DEFAULT_EXPIRY;

    private static final Logger LOG = LoggerFactory.getLogger(FixStore.class);
    private static final Pattern SQL_ECHO = Pattern.compile("(?is)(;\\s*sql statement:|\\bsql:\\s).*$");
    private static final Pattern CODES = Pattern.compile("\\[[0-9-]+\\]|\\(\\d{4,}\\)");
    private static final Pattern SPACE = Pattern.compile("\\s+");
    private static final char SEP = '\u0000';

    private final FixStore store;
    private final LongAdder failures = new LongAdder();

    /**
     * @param size the most fixes kept
     * @param expiry how long an unused fix is kept
     */
    public FixCache(int size, Duration expiry) {
        this(FixStore.inMemory(size, expiry, Clock.systemUTC()));
    }

    /** @param store where the fixes are kept */
    public FixCache(FixStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * @param store where the fixes are kept, or null for the default in-memory store
     * @return a cache over it
     */
    public static FixCache over(FixStore store) {
        return new FixCache(store != null ? store : FixStore.inMemory());
    }

    /**
     * The key of one failure under one policy and schema. The failed SQL is compared by its tokens
     * ({@link SqlTokens}): words without case, literals and quoted names exactly, so a fix learnt for
     * {@code 'ab-1'} never answers a question about {@code 'AB-1'}. The policy's and the schema's
     * fingerprints are part of the key: a fix learnt under one policy is never served under another.
     *
     * @param failedSql the SQL that failed
     * @param category its error category
     * @param message the database's message
     * @param policy the effective policy of the request
     * @param schema the schema the request sees
     * @return the key of that failure
     */
    public static String key(String failedSql, String category, String message, GuardPolicy policy,
            SchemaCatalog schema) {
        String sql = SqlTokens.canonical(failedSql);
        String msg = SQL_ECHO.matcher(message).replaceAll("");
        msg = CODES.matcher(msg).replaceAll("");
        msg = SPACE.matcher(msg.trim()).replaceAll(" ").toLowerCase(Locale.ROOT);
        // the labels come first: they never hold the separator, so storeKey can read them back
        return category + SEP + Fingerprints.of(policy) + SEP + Fingerprints.of(schema) + SEP + sql + SEP + msg;
    }

    /**
     * @param key a key made by {@link #key}
     * @return what the store sees of it: the SHA-256 of the whole key, and its labels
     */
    public static FixStore.Key storeKey(String key) {
        String[] labels = key.split(String.valueOf(SEP), 4);
        if (labels.length < 4) {
            throw new IllegalArgumentException("not a fix cache key");
        }
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return new FixStore.Key(HexFormat.of().formatHex(d), labels[0], labels[1], labels[2]);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    /**
     * @param key a failure's key
     * @return its verified fix; empty also when the store failed or returned a blank fix
     */
    public Optional<String> lookup(String key) {
        FixStore.Key k = storeKey(key);
        try {
            Optional<String> fix = store.get(k);
            if (fix == null) {
                throw new IllegalStateException("fix store returned null instead of an Optional");
            }
            return fix.filter(s -> !s.isBlank());
        } catch (Exception | LinkageError e) {
            failed("get", k, e);
            return Optional.empty();
        }
    }

    /**
     * @param key a failure's key
     * @param fixedSql a fix that executed successfully
     */
    public void put(String key, String fixedSql) {
        FixStore.Key k = storeKey(key);
        try {
            store.put(k, fixedSql);
        } catch (Exception | LinkageError e) {
            failed("put", k, e);
        }
    }

    private void failed(String operation, FixStore.Key k, Throwable e) {
        failures.increment();
        LOG.warn("fix store {} failed to {} the fix for {} {}; the question goes on without it", store,
                operation, k.category(), k.hash().substring(0, 12), e);
    }

    /** @return how many store calls failed */
    public long failures() {
        return failures.sum();
    }

    /** @return the store the fixes live in */
    public FixStore store() {
        return store;
    }
}
