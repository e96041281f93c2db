package dev.sqlagent.internal;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.schema.SchemaCatalog;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Verified fixes, reused without asking the model again: key = the failed SQL's tokens + error category +
 * normalised message + the fingerprints of the policy and schema ({@link #key}), value = a corrected SQL
 * that then executed successfully. The agent checks a cached fix with the current guard before using it. A fix that failed or was
 * rejected is never put here. Bounded and expiring (Caffeine); thread-safe.
 */
public final class FixCache {

    /** Default bound. */
    public static final int DEFAULT_SIZE = 10_000;
    /** Default time a fix is kept after its last use. */
    public static final Duration DEFAULT_EXPIRY = Duration.ofHours(24);

    private static final Pattern SQL_ECHO = Pattern.compile("(?is)(;\\s*sql statement:|\\bsql:\\s).*$");
    private static final Pattern CODES = Pattern.compile("\\[[0-9-]+\\]|\\(\\d{4,}\\)");
    private static final Pattern SPACE = Pattern.compile("\\s+");

    private final Cache<String, String> fixes;

    /**
     * @param size the most fixes kept
     * @param expiry how long an unused fix is kept
     */
    public FixCache(int size, Duration expiry) {
        this.fixes = Caffeine.newBuilder().maximumSize(size).expireAfterAccess(expiry).build();
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
        return sql + '\u0000' + category + '\u0000' + msg + '\u0000' + Fingerprints.of(policy) + '\u0000'
                + Fingerprints.of(schema);
    }

    /** @param key a failure's key  @return its verified fix */
    public Optional<String> lookup(String key) {
        return Optional.ofNullable(fixes.getIfPresent(key));
    }

    /**
     * @param key a failure's key
     * @param fixedSql a fix that executed successfully
     */
    public void put(String key, String fixedSql) {
        fixes.put(key, fixedSql);
    }

    /** @return how many fixes are kept (approximately) */
    public long size() {
        return fixes.estimatedSize();
    }
}
