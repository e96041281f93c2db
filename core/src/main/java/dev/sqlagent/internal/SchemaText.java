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
        SchemaCatalog shown = selection == null ? catalog : restrict(catalog, selection);
        String text = shown.renderDdl();
        List<String> omitted = new ArrayList<>();
        while (estimate(text) > budget && !shown.tables().isEmpty()) {
            List<SchemaCatalog.Table> tables = new ArrayList<>(shown.tables());
            SchemaCatalog.Table dropped = tables.remove(tables.size() - 1);
            omitted.add("table " + dropped.name());
            shown = SchemaCatalog.of(tables);
            text = shown.renderDdl();
        }
        return new SchemaText(text, estimate(text), omitted);
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

    static int estimate(String text) {
        int tokens = 0;
        int latin = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isLetterOrDigit(c) && c < 0x2E80) {
                latin++;
                continue;
            }
            tokens += (latin + 3) / 4;
            latin = 0;
            if (!Character.isWhitespace(c)) {
                tokens++;
            }
        }
        return tokens + (latin + 3) / 4;
    }
}
