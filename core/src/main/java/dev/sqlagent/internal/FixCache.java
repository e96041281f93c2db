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
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verified fixes, reused without asking the model again: key = the failed SQL's tokens + error category +
 * normalised message + the fingerprints of the policy and schema ({@link #key}), value = a corrected SQL
 * that then executed successfully. The agent checks a cached fix with the current guard before using it. A fix that failed or was
 * rejected is never put here. The fixes live in a {@link FixStore} (in memory by default, or shared by
 * several instances), which sees only a hash of the key; a store that fails counts as "no fix", is logged
 * at WARN and counted ({@link #failures()}), and never fails a question. After a failure the store is
 * left alone for {@link #FIRST_PAUSE} (doubling up to {@link #LONGEST_PAUSE} while it keeps failing):
 * lookups find nothing and fixes are not kept, counted in {@link #skipped()}, and then one call tries it
 * again; the question that met the failure does not call it again at all. So a store that stops
 * answering costs one wait (its own bound), not one per question or two in one question.
 * Thread-safe.
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

    /** How long a store that failed is left alone before it is tried again. */
    public static final Duration FIRST_PAUSE = Duration.ofSeconds(1);
    /** The longest pause of a store that keeps failing. */
    public static final Duration LONGEST_PAUSE = Duration.ofSeconds(30);

    private static final String STORE_FAILED = FixCache.class.getName() + ".storeFailed";

    private final FixStore store;
    private final LongSupplier nanos;
    private final LongAdder failures = new LongAdder();
    private final LongAdder skipped = new LongAdder();
    private boolean paused;
    private long pausedUntil;
    private long pause = FIRST_PAUSE.toNanos();

    /**
     * @param size the most fixes kept
     * @param expiry how long an unused fix is kept
     */
    public FixCache(int size, Duration expiry) {
        this(FixStore.inMemory(size, expiry, Clock.systemUTC()));
    }

    /** @param store where the fixes are kept */
    public FixCache(FixStore store) {
        this(store, System::nanoTime);
    }

    /**
     * @param store where the fixes are kept
     * @param nanos the time, for the pause after a failure
     */
    public FixCache(FixStore store, LongSupplier nanos) {
        this.store = Objects.requireNonNull(store, "store");
        this.nanos = Objects.requireNonNull(nanos, "nanos");
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
        if (!mayCall()) {
            return Optional.empty();
        }
        try {
            Optional<String> fix = store.get(k);
            if (fix == null) {
                throw new IllegalStateException("fix store returned null instead of an Optional");
            }
            answered();
            return fix.filter(s -> !s.isBlank());
        } catch (Exception | LinkageError e) {
            failed("get", k, e);
            return Optional.empty();
        }
    }

    /**
     * @return whether the store may be called now: the question running on this thread did not see it fail,
     *     and it is not paused, or its pause is over (a probe)
     */
    private synchronized boolean mayCall() {
        RunScope question = RunScope.current();
        if (question != null && question.marked(STORE_FAILED)) {
            skipped.increment();
            return false;
        }
        if (!paused) {
            return true;
        }
        long now = nanos.getAsLong();
        if (now - pausedUntil < 0) {
            skipped.increment();
            return false;
        }
        pausedUntil = now + pause; // one probe; the other calls meanwhile are skipped
        return true;
    }

    private synchronized void answered() {
        paused = false;
        pause = FIRST_PAUSE.toNanos();
    }

    /**
     * @param key a failure's key
     * @param fixedSql a fix that executed successfully
     */
    public void put(String key, String fixedSql) {
        FixStore.Key k = storeKey(key);
        if (!mayCall()) {
            return;
        }
        try {
            store.put(k, fixedSql);
            answered();
        } catch (Exception | LinkageError e) {
            failed("put", k, e);
        }
    }

    private void failed(String operation, FixStore.Key k, Throwable e) {
        RunScope question = RunScope.current();
        if (question != null) {
            question.mark(STORE_FAILED);
        }
        synchronized (this) {
            long now = nanos.getAsLong();
            if (paused) {
                pause = Math.min(pause * 2, LONGEST_PAUSE.toNanos());
            }
            paused = true;
            pausedUntil = now + pause;
        }
        failures.increment();
        LOG.warn("fix store {} failed to {} the fix for {} {}; the question goes on without it", store,
                operation, k.category(), k.hash().substring(0, 12), e);
    }

    /** @return how many store calls failed */
    public long failures() {
        return failures.sum();
    }

    /** @return how many store calls were skipped because the store had failed just before */
    public long skipped() {
        return skipped.sum();
    }

    /** @return the store the fixes live in */
    public FixStore store() {
        return store;
    }
}
