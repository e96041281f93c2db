package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.PolicyResolutionException.Kind;
import dev.sqlagent.guard.PolicyResolutionException.Unresolved;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Resolves a policy's names against what the database has, by the engine's identity rules: a name the
 * database stores resolves a policy entry when a reference to it, quoted exactly as stored, is the entry
 * to the guard ({@code Names.fold}: PostgreSQL's {@code "Orders"} is not the entry {@code orders}, H2's
 * stored {@code ORDERS} is). The policy is closed-world like the guard: an allowed table, a denied column,
 * a row filter's table or column that resolves to nothing is an error, never a warning, since a misspelt
 * denial would leave the real column open. Pure.
 */
public final class PolicyResolution {

    /** At most this many nearest names are offered per unresolved one. */
    static final int NEAREST = 3;

    private PolicyResolution() {
    }

    /**
     * The policy's names that resolve to nothing the database has.
     *
     * @param policy the host's policy (before a catalog completed it)
     * @param dialect the engine whose identity rules apply to names as the database stores them; null when the
     *     names are spelt as a host wrote them, and are compared as unquoted names (folded to lower case)
     * @param tables the tables whose columns are known: each name as the database stores it, to its columns
     *     as stored (at least every table the policy allows that the database has)
     * @param otherTables the names of every other table and view of the database, any schema, lower case;
     *     a policy entry naming one of them resolves by name only (its columns are not known)
     * @return the unresolved names, in the policy's order; empty when every name resolves
     */
    public static List<Unresolved> unresolved(GuardPolicy policy, Dialect dialect, Map<String, List<String>> tables,
                                              Set<String> otherTables) {
        Set<String> every = new LinkedHashSet<>(tables.keySet());
        every.addAll(otherTables);
        List<Unresolved> out = new ArrayList<>();
        for (String entry : policy.allowedTables()) {
            if (table(entry, dialect, tables) == null && !byNameOnly(entry, tables, otherTables)) {
                out.add(new Unresolved(Kind.ALLOWED_TABLE, entry, nearest(bare(entry), every)));
            }
        }
        for (Map.Entry<String, Set<String>> denied : policy.deniedColumns().entrySet()) {
            columns(denied.getKey(), denied.getValue(), Kind.DENIED_COLUMN_TABLE, Kind.DENIED_COLUMN, dialect, tables,
                    otherTables, every, out);
        }
        for (RowFilter f : policy.rowFilters()) {
            columns(f.table(), Set.of(f.column()), Kind.ROW_FILTER_TABLE, Kind.ROW_FILTER_COLUMN, dialect, tables,
                    otherTables, every, out);
        }
        return out;
    }

    /**
     * Throws when a name of the policy resolves to nothing the database has.
     *
     * @param policy the host's policy
     * @param dialect the engine whose identity rules apply, or null, as in {@link #unresolved}
     * @param tables the tables whose columns are known, as in {@link #unresolved}
     * @param otherTables every other table of the database, lower case
     * @throws PolicyResolutionException naming each unresolved name with the nearest real ones
     */
    public static void require(GuardPolicy policy, Dialect dialect, Map<String, List<String>> tables,
                               Set<String> otherTables) {
        List<Unresolved> missing = unresolved(policy, dialect, tables, otherTables);
        if (!missing.isEmpty()) {
            throw new PolicyResolutionException(missing);
        }
    }

    private static void columns(String tableEntry, Set<String> columns, Kind tableKind, Kind columnKind,
                                Dialect dialect, Map<String, List<String>> tables, Set<String> otherTables,
                                Set<String> every, List<Unresolved> out) {
        String stored = table(tableEntry, dialect, tables);
        if (stored == null) {
            if (!byNameOnly(tableEntry, tables, otherTables)) {
                out.add(new Unresolved(tableKind, tableEntry, nearest(bare(tableEntry), every)));
            }
            return;
        }
        List<String> have = tables.get(stored);
        for (String column : columns) {
            boolean found = false;
            for (String c : have) {
                if (folds(c, dialect).equals(column)) {
                    found = true;
                    break;
                }
            }
            if (!found) {
                out.add(new Unresolved(columnKind, tableEntry + "." + column, nearest(column, have)));
            }
        }
    }

    /** The stored name of the table an entry resolves to, or null. */
    private static String table(String entry, Dialect dialect, Map<String, List<String>> tables) {
        String bare = bare(entry);
        for (String stored : tables.keySet()) {
            String key = folds(stored, dialect);
            // the catalog's tables are those of the connection's schema: a qualified entry resolves by its
            // table's name there, and a qualified stored name by its own
            if (key.equals(entry) || key.equals(bare) && !bare.equals(entry) || bare(key).equals(entry)) {
                return stored;
            }
        }
        return null;
    }

    /**
     * A table the database has whose columns are not known (another schema, a table the policy does not
     * allow): resolved by name only. Never a name the known tables have in another case: there the
     * engine's identity rules have decided ({@code "Orders"} on PostgreSQL is not {@code orders}).
     */
    private static boolean byNameOnly(String entry, Map<String, List<String>> tables, Set<String> otherTables) {
        String bare = bare(entry);
        for (String stored : tables.keySet()) {
            if (bare(stored).toLowerCase(Locale.ROOT).equals(bare)) {
                return false;
            }
        }
        return otherTables.contains(entry) || otherTables.contains(bare);
    }

    /** The key the guard compares with policy entries for a reference quoted exactly as the name is stored. */
    private static String folds(String stored, Dialect dialect) {
        if (dialect == null) {
            return Names.lower(stored);
        }
        StringBuilder key = new StringBuilder();
        for (String part : stored.split("\\.", -1)) {
            key.append(key.length() == 0 ? "" : ".").append(Names.fold("\"" + part.replace("\"", "\"\"") + "\"",
                    dialect));
        }
        return key.toString();
    }

    private static String bare(String name) {
        return name.substring(name.lastIndexOf('.') + 1);
    }

    /**
     * The names closest to {@code name} by edit distance (case ignored), closest first, at most three, each
     * within a distance of half the longer name (at least 2).
     *
     * @param name the unresolved name
     * @param candidates the names the database has
     * @return the nearest ones, perhaps none
     */
    public static List<String> nearest(String name, Collection<String> candidates) {
        String n = name.toLowerCase(Locale.ROOT);
        record Scored(String name, int distance) {
        }
        List<Scored> scored = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (String c : candidates) {
            if (!seen.add(c.toLowerCase(Locale.ROOT))) {
                // the stored spelling comes first; the same name folded is no second suggestion
                continue;
            }
            String lc = c.toLowerCase(Locale.ROOT);
            int d = distance(n, bare(lc).length() < lc.length() && !n.contains(".") ? bare(lc) : lc);
            if (d <= Math.max(2, Math.max(n.length(), c.length()) / 2)) {
                scored.add(new Scored(c, d));
            }
        }
        scored.sort(Comparator.comparingInt(Scored::distance).thenComparing(Scored::name));
        List<String> out = new ArrayList<>();
        for (Scored s : scored) {
            if (out.size() == NEAREST) {
                break;
            }
            out.add(s.name());
        }
        return out;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
