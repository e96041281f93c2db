package dev.sqlagent.mcp;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.RowFilter;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.schema.SchemaEnrichment;
import dev.sqlagent.schema.SchemaRenderer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The schema a client may read, as the {@code describe} tool and the schema resource show it: the catalog
 * visible under the client's policy ({@link dev.sqlagent.SqlAgent#schema}: no forbidden table, no denied
 * column), rendered as the agent's model sees it (columns, types, descriptions, coded values, keys and
 * relations), with what the policy adds to every query (the row cap, which tables are row-filtered).
 */
final class SchemaDescription {

    private SchemaDescription() {
    }

    /**
     * The catalog as a client is shown it: the visible one, without the sample values of row-filtered tables
     * (they were read from every row, and would show a client rows its filter keeps from it).
     *
     * @param visible the catalog visible under the policy
     * @param policy the client's policy
     * @return the catalog to describe
     */
    static SchemaCatalog shown(SchemaCatalog visible, GuardPolicy policy) {
        SchemaEnrichment e = visible.enrichment();
        if (policy.rowFilters().isEmpty() || e.isEmpty()) {
            return visible;
        }
        SchemaEnrichment.Builder b = e.toBuilder();
        boolean changed = false;
        for (RowFilter f : policy.rowFilters()) {
            for (SchemaCatalog.Table t : visible.tables()) {
                if (!matches(t.name(), f.table())) {
                    continue;
                }
                for (SchemaCatalog.Column c : t.columns()) {
                    if (!e.sampleValues(t.name(), c.name()).isEmpty()) {
                        b.sampleValues(t.name(), c.name(), List.of());
                        changed = true;
                    }
                }
            }
        }
        return changed ? SchemaCatalog.of(visible.tables(), visible.allTableNames()).enrich(b.build()) : visible;
    }

    private static boolean matches(String table, String filtered) {
        String t = table.toLowerCase(java.util.Locale.ROOT);
        String f = filtered.toLowerCase(java.util.Locale.ROOT);
        return t.equals(f) || f.endsWith("." + t) || t.endsWith("." + f);
    }

    /**
     * @param catalog the catalog visible under the policy
     * @param policy the client's policy
     * @param dialect the database's dialect
     * @return Markdown for an agent
     */
    static String text(SchemaCatalog catalog, GuardPolicy policy, Dialect dialect) {
        StringBuilder b = new StringBuilder();
        b.append("# Database schema (").append(dialect).append(")\n\n");
        b.append("Only these tables and columns may be read, with one SELECT per call (no comments, no other ")
                .append("statement). At most ").append(policy.maxRows()).append(" rows come back per query.");
        if (!policy.rowFilters().isEmpty()) {
            b.append(" Rows are filtered for you on: ");
            List<String> on = new ArrayList<>();
            for (RowFilter f : policy.rowFilters()) {
                on.add(f.table() + "." + f.column());
            }
            b.append(String.join(", ", on)).append(" (every read of those tables sees only your rows).");
        }
        b.append("\n\n");
        if (catalog.tables().isEmpty()) {
            b.append("(no table is visible to this connection)\n");
            return b.toString();
        }
        b.append(SchemaRenderer.markdown().render(catalog, Integer.MAX_VALUE).text());
        return b.toString();
    }

    /**
     * @param catalog the catalog visible under the policy
     * @param policy the client's policy
     * @param dialect the database's dialect
     * @return the same facts as structured content
     */
    static Map<String, Object> structured(SchemaCatalog catalog, GuardPolicy policy, Dialect dialect) {
        SchemaEnrichment e = catalog.enrichment();
        List<Map<String, Object>> tables = new ArrayList<>();
        for (SchemaCatalog.Table t : catalog.tables()) {
            Map<String, Object> tm = new LinkedHashMap<>();
            tm.put("name", t.name());
            tm.put("description", e.tableDescription(t.name()).orElse(t.remarks()));
            List<Map<String, Object>> cols = new ArrayList<>();
            for (SchemaCatalog.Column c : t.columns()) {
                Map<String, Object> cm = new LinkedHashMap<>();
                cm.put("name", c.name());
                cm.put("type", c.type());
                cm.put("nullable", c.nullable());
                cm.put("description", e.columnDescription(t.name(), c.name()).orElse(c.remarks()));
                Map<String, String> coded = e.codedValues(t.name(), c.name());
                if (!coded.isEmpty()) {
                    cm.put("coded_values", coded);
                }
                cols.add(cm);
            }
            tm.put("columns", cols);
            tm.put("primary_key", t.primaryKey());
            List<Map<String, Object>> fks = new ArrayList<>();
            for (SchemaCatalog.ForeignKey fk : t.foreignKeys()) {
                Map<String, Object> fm = new LinkedHashMap<>();
                fm.put("column", fk.column());
                fm.put("references_table", fk.referencedTable());
                fm.put("references_column", fk.referencedColumn());
                fks.add(fm);
            }
            tm.put("foreign_keys", fks);
            tables.add(tm);
        }
        List<String> filtered = new ArrayList<>();
        for (RowFilter f : policy.rowFilters()) {
            filtered.add(f.table() + "." + f.column());
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("dialect", dialect.name());
        s.put("row_cap", policy.maxRows());
        s.put("row_filtered", filtered);
        s.put("tables", tables);
        return s;
    }
}
