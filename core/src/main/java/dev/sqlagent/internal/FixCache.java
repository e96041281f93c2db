package dev.sqlagent.internal;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Verified fixes, reused without asking the model again: key = normalised failed SQL + error category +
 * normalised message, value = a corrected SQL that then executed successfully. A fix that failed or was
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
     * @param failedSql the SQL that failed
     * @param category its error category
     * @param message the database's message
     * @return the key of that failure
     */
    public static String key(String failedSql, String category, String message) {
        String sql = SPACE.matcher(failedSql.trim()).replaceAll(" ").toLowerCase(Locale.ROOT);
        while (sql.endsWith(";")) {
            sql = sql.substring(0, sql.length() - 1).trim();
        }
        String msg = SQL_ECHO.matcher(message).replaceAll("");
        msg = CODES.matcher(msg).replaceAll("");
        msg = SPACE.matcher(msg.trim()).replaceAll(" ").toLowerCase(Locale.ROOT);
        return sql + '\u0000' + category + '\u0000' + msg;
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
