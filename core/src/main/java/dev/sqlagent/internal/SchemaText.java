package dev.sqlagent.internal;

import dev.sqlagent.schema.SchemaCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Renders the schema a role sees, restricted to a selection and kept within a token budget.
 *
 * @param text the rendered schema
 * @param estimatedTokens its estimated size
 * @param omitted what the budget cut, for the trace
 */
public record SchemaText(String text, int estimatedTokens, List<String> omitted) {

    /** Copies the list. */
    public SchemaText {
        omitted = List.copyOf(omitted);
    }

    /**
     * @param catalog the catalog
     * @param selection table → columns to keep (an empty set keeps all), or null for everything
     * @param budget the most estimated tokens
     * @return the rendering
     */
    public static SchemaText render(SchemaCatalog catalog, Map<String, Set<String>> selection, int budget) {
        dev.sqlagent.schema.RenderedSchema r = selection == null ? RENDERER.render(catalog, budget)
                : RENDERER.render(catalog, allColumnsWhereEmpty(catalog, selection), budget);
        return new SchemaText(r.text(), r.estimatedTokens(), r.omitted());
    }

    private static final dev.sqlagent.schema.SchemaRenderer RENDERER = dev.sqlagent.schema.SchemaRenderer.ddl();

    /**
     * @param catalog the catalog
     * @param selection table → columns, an empty set meaning every column
     * @return the selection with every empty column set ("all columns") spelled out from the catalog
     */
    public static Map<String, Set<String>> allColumnsWhereEmpty(SchemaCatalog catalog, Map<String, Set<String>> selection) {
        Map<String, Set<String>> out = new java.util.LinkedHashMap<>();
        selection.forEach((t, cs) -> {
            if (cs.isEmpty()) {
                Set<String> all = new java.util.LinkedHashSet<>();
                catalog.table(t).ifPresent(table -> table.columns().forEach(c -> all.add(c.name())));
                out.put(t, all);
            } else {
                out.put(t, cs);
            }
        });
        return out;
    }

    /**
     * @param catalog the catalog
     * @param selection table → columns to keep (an empty set keeps all)
     * @return the catalog restricted to the selection; key columns are always kept
     */
    public static SchemaCatalog restrict(SchemaCatalog catalog, Map<String, Set<String>> selection) {
        List<SchemaCatalog.Table> kept = new ArrayList<>();
        for (SchemaCatalog.Table t : catalog.tables()) {
            Set<String> cols = null;
            for (Map.Entry<String, Set<String>> e : selection.entrySet()) {
                if (e.getKey().equalsIgnoreCase(t.name())) {
                    cols = e.getValue();
                }
            }
            if (cols == null) {
                continue;
            }
            if (cols.isEmpty()) {
                kept.add(t);
                continue;
            }
            List<SchemaCatalog.Column> columns = new ArrayList<>();
            for (SchemaCatalog.Column c : t.columns()) {
                boolean key = t.primaryKey().contains(c.name())
                        || t.foreignKeys().stream().anyMatch(fk -> fk.column().equals(c.name()));
                if (key || cols.stream().anyMatch(x -> x.equalsIgnoreCase(c.name()))) {
                    columns.add(c);
                }
            }
            kept.add(new SchemaCatalog.Table(t.name(), columns, t.primaryKey(), t.foreignKeys(), t.remarks()));
        }
        return SchemaCatalog.of(kept);
    }
}
