package dev.sqlagent.internal;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.RowFilter;
import dev.sqlagent.schema.SchemaCatalog;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Short, stable fingerprints of what a learnt fix depends on besides the failure itself: the effective
 * policy (allowed tables, denied columns, row filters and their values, the row cap, {@code SELECT *},
 * the function policy) and the schema (tables, columns and their types). Two policies or schemas that
 * differ in any of these have different fingerprints. Each is computed once per instance and kept while
 * the instance lives. Thread-safe.
 */
public final class Fingerprints {

    private static final Cache<Object, String> KNOWN = Caffeine.newBuilder().weakKeys().maximumSize(1_024).build();

    private Fingerprints() {
    }

    /** @param policy a policy  @return its fingerprint */
    public static String of(GuardPolicy policy) {
        return KNOWN.get(policy, p -> digest(describe((GuardPolicy) p)));
    }

    /** @param catalog a schema  @return its fingerprint */
    public static String of(SchemaCatalog catalog) {
        return KNOWN.get(catalog, c -> digest(describe((SchemaCatalog) c)));
    }

    private static String describe(GuardPolicy p) {
        Map<String, Set<String>> denied = new TreeMap<>();
        p.deniedColumns().forEach((t, cs) -> denied.put(t, new TreeSet<>(cs)));
        List<String> filters = new ArrayList<>();
        for (RowFilter f : p.rowFilters()) {
            filters.add(f.table() + "." + f.column() + "=" + f.value() + ":"
                    + (f.value() == null ? "null" : f.value().getClass().getName()));
        }
        filters.sort(null);
        return "tables=" + new TreeSet<>(p.allowedTables()) + "\ndenied=" + denied + "\nfilters=" + filters
                + "\nmaxRows=" + p.maxRows() + "\nstar=" + p.allowSelectStar() + "\nfunctions=" + p.functionPolicy();
    }

    private static String describe(SchemaCatalog c) {
        Map<String, List<String>> tables = new TreeMap<>();
        for (SchemaCatalog.Table t : c.tables()) {
            List<String> cols = new ArrayList<>();
            for (SchemaCatalog.Column col : t.columns()) {
                cols.add(col.name() + " " + col.type());
            }
            tables.put(t.name(), cols);
        }
        return tables.toString();
    }

    private static String digest(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
