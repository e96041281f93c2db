package dev.sqlagent.internal;

import dev.sqlagent.schema.SchemaCatalog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Selector's answer, checked against the catalog: the tables kept, the columns kept per table (an
 * empty set keeps every column), the model's reason, and the names it gave that the catalog lacks
 * (dropped).
 *
 * @param columns table name (as the catalog spells it) to kept columns
 * @param reason the model's reason, or empty
 * @param unknown names the model gave that are not in the catalog
 */
public record Selection(Map<String, Set<String>> columns, String reason, List<String> unknown) {

    /** Copies the parts. */
    public Selection {
        Map<String, Set<String>> copy = new LinkedHashMap<>();
        columns.forEach((t, cs) -> copy.put(t, Set.copyOf(cs)));
        columns = java.util.Collections.unmodifiableMap(copy);
        unknown = List.copyOf(unknown);
    }

    /** @return the tables kept */
    public Set<String> tables() {
        return columns.keySet();
    }

    /**
     * Reads the selector's JSON reply {@code {related_tables, related_columns, reason}} and checks every
     * name against the catalog: unknown tables and columns are dropped and listed; a column of a table
     * not listed adds that table.
     *
     * @param reply the model's reply
     * @param catalog the catalog the selection is made from
     * @return the selection, empty when the reply holds no JSON object or names no known table
     */
    public static Optional<Selection> parse(String reply, SchemaCatalog catalog) {
        Optional<Map<String, Object>> object = LenientJson.firstObject(reply);
        if (object.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Object> o = object.get();
        Map<String, Set<String>> kept = new LinkedHashMap<>();
        List<String> unknown = new ArrayList<>();
        for (String t : LenientJson.strings(o.get("related_tables"))) {
            Optional<SchemaCatalog.Table> table = catalog.table(bare(t));
            if (table.isPresent()) {
                kept.putIfAbsent(table.get().name(), new LinkedHashSet<>());
            } else {
                unknown.add(t);
            }
        }
        Object rc = o.get("related_columns");
        if (rc instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) rc).entrySet()) {
                String t = String.valueOf(e.getKey());
                Optional<SchemaCatalog.Table> table = catalog.table(bare(t));
                if (table.isEmpty()) {
                    unknown.add(t);
                    continue;
                }
                Set<String> cols = kept.computeIfAbsent(table.get().name(), k -> new LinkedHashSet<>());
                for (String c : LenientJson.strings(e.getValue())) {
                    Optional<String> col = column(table.get(), c);
                    if (col.isPresent()) {
                        cols.add(col.get());
                    } else {
                        unknown.add(table.get().name() + "." + c);
                    }
                }
            }
        } else if (rc instanceof List) {
            for (String qualified : LenientJson.strings(rc)) {
                int dot = qualified.lastIndexOf('.');
                Optional<SchemaCatalog.Table> table = dot < 0 ? Optional.empty()
                        : catalog.table(bare(qualified.substring(0, dot)));
                Optional<String> col = table.flatMap(tb -> column(tb, qualified.substring(dot + 1)));
                if (col.isPresent()) {
                    kept.computeIfAbsent(table.get().name(), k -> new LinkedHashSet<>()).add(col.get());
                } else {
                    unknown.add(qualified);
                }
            }
        }
        if (kept.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Selection(kept, LenientJson.text(o.get("reason")), unknown));
    }

    private static Optional<String> column(SchemaCatalog.Table table, String name) {
        String n = bare(name);
        for (SchemaCatalog.Column c : table.columns()) {
            if (c.name().equalsIgnoreCase(n)) {
                return Optional.of(c.name());
            }
        }
        return Optional.empty();
    }

    private static String bare(String name) {
        String n = name.trim().replace("\"", "").replace("`", "").replace("[", "").replace("]", "");
        int dot = n.lastIndexOf('.');
        return (dot >= 0 ? n.substring(dot + 1) : n).toLowerCase(Locale.ROOT);
    }
}
