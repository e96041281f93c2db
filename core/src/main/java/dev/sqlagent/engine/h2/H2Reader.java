package dev.sqlagent.engine.h2;

import com.github.benmanes.caffeine.cache.Cache;
import dev.sqlagent.engine.CatalogFacts;
import dev.sqlagent.engine.Explain;
import dev.sqlagent.engine.PlanReader;
import dev.sqlagent.engine.Reads;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.engine.EngineReading;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * H2's reading of a statement: {@code EXPLAIN} prints the statement as H2 will run it, after its own
 * parse, which {@link H2Query} reads with a tokenizer and the statement's structure. H2 prints a view by its
 * name (its query only in a comment): the view's stored definition is explained and read in its place, so a
 * view over a forbidden table is seen. A plan that is not a query is a write. Catalog look-ups (a table's
 * columns, whether it is a view, its generated columns, an index's key columns, the identifier-case setting)
 * run on the same connection with the same time cap.
 *
 * <p><b>Kept for five minutes.</b> One reader serves one agent's database. What it looks up in the catalog
 * is kept for five minutes after it was read: each table's entry (columns, generated columns, view
 * definition), each index's key columns, and {@code CASE_INSENSITIVE_IDENTIFIERS}. A table altered, an index
 * re-created with another key under the same name, or the setting changed within that time is read with the
 * facts as they were; a new table, view or index is read when first seen. A statement is always explained
 * afresh. Build a new agent (or wait five minutes) after such a change for the check to see it at once.
 */
final class H2Reader implements PlanReader {

    private static final int MAX_VIEW_DEPTH = 8;

    /** A table's catalog entry: columns, generated columns, and the view definition if it is one. */
    private record Entry(Set<String> columns, Map<String, String> generated, String viewDefinition) {
    }

    /** An index's key column, as {@code INFORMATION_SCHEMA.INDEX_COLUMNS} names it. */
    private record KeyColumn(String schema, String table, String column) {
    }

    private final Cache<String, Entry> entries = CatalogFacts.kept(10_000);
    /** Index key columns by index schema and name, kept as long as the tables' entries. */
    private final Cache<String, List<KeyColumn>> indexKeys = CatalogFacts.kept(10_000);
    /**
     * The database's {@code CASE_INSENSITIVE_IDENTIFIERS} setting, kept as long as the tables' entries: one
     * reader serves one agent's database, and the setting is the database's, not a session's.
     */
    private final Cache<Boolean, Boolean> identifierCase = CatalogFacts.kept(1);

    @Override
    public EngineReading read(Connection c, SqlStatement statement, int timeoutSeconds) throws SQLException {
        Reads reads = new Reads();
        read(c, statement, timeoutSeconds, reads, 0, new HashSet<>());
        return reads.reading();
    }

    private void read(Connection c, SqlStatement statement, int timeoutSeconds, Reads reads, int depth,
                      Set<String> viewsOnPath) throws SQLException {
        String plan;
        try (PreparedStatement ps = Explain.prepare(c, "EXPLAIN ", statement, timeoutSeconds)) {
            try (ResultSet rs = ps.executeQuery()) {
                StringBuilder b = new StringBuilder();
                while (rs.next()) {
                    b.append(rs.getString(1)).append('\n');
                }
                plan = b.toString();
            }
        }
        String schema = c.getSchema();
        H2Query.read(plan, schema == null ? "" : schema, new H2Query.Catalog() {
            @Override
            public Set<String> columns(EngineReading.Table table) throws SQLException {
                return entry(c, table, timeoutSeconds).columns();
            }

            @Override
            public Map<String, String> generated(EngineReading.Table table) throws SQLException {
                return entry(c, table, timeoutSeconds).generated();
            }

            @Override
            public boolean view(EngineReading.Table table, Reads out) throws SQLException {
                String definition = entry(c, table, timeoutSeconds).viewDefinition();
                if (definition == null) {
                    return false;
                }
                if (definition.isBlank()) {
                    out.unreadable("the view " + table + ", whose definition this login may not read");
                } else if (depth >= MAX_VIEW_DEPTH || !viewsOnPath.add(table.qualified())) {
                    out.unreadable("the view " + table + ", nested too deep or in a cycle");
                } else {
                    read(c, new SqlStatement(definition, List.of()), timeoutSeconds, out, depth + 1, viewsOnPath);
                    viewsOnPath.remove(table.qualified());
                }
                return true;
            }
        }, caseInsensitiveIdentifiers(c, timeoutSeconds), reads);
        indexOrder(c, plan, schema == null ? "" : schema, timeoutSeconds, reads);
    }

    /** An access path in the plan's comments: {@code /* SCHEMA.INDEX *}{@code /} or {@code /* SCHEMA.INDEX: condition}. */
    private static final java.util.regex.Pattern ACCESS_PATH = java.util.regex.Pattern.compile(
            "/\\*\\s*(\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)\\.(\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)"
                    + "\\s*(?::|\\*/)");

    /**
     * A scan of an index returns rows in the order of its key: whatever depends on that order (a LIMIT, an
     * aggregate, the answer's own order) reads the key, so each key column counts as a possible read of its
     * table. A comment naming no index (a table scan) adds nothing; a literal that looks like one only adds reads.
     */
    private void indexOrder(Connection c, String plan, String currentSchema, int timeoutSeconds, Reads reads)
            throws SQLException {
        java.util.regex.Matcher m = ACCESS_PATH.matcher(plan);
        Set<String> seen = new HashSet<>();
        while (m.find()) {
            String indexSchema = unquote(m.group(1));
            String index = unquote(m.group(2));
            String key = indexSchema + "\u0000" + index;
            if (!seen.add(key)) {
                continue;
            }
            List<KeyColumn> keys = indexKeys.getIfPresent(key);
            if (keys == null) {
                keys = keyColumns(c, indexSchema, index, timeoutSeconds);
                indexKeys.put(key, keys);
            }
            for (KeyColumn k : keys) {
                EngineReading.Table t = new EngineReading.Table(k.schema(), k.table(),
                        k.schema().equalsIgnoreCase(currentSchema));
                reads.possibleColumns.add(new EngineReading.ColumnRead(t, k.column().toLowerCase(java.util.Locale.ROOT)));
            }
        }
    }

    private static List<KeyColumn> keyColumns(Connection c, String indexSchema, String index, int timeoutSeconds)
            throws SQLException {
        List<KeyColumn> keys = new java.util.ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME "
                + "FROM INFORMATION_SCHEMA.INDEX_COLUMNS WHERE INDEX_SCHEMA = ? AND INDEX_NAME = ? "
                + "ORDER BY ORDINAL_POSITION")) {
            timeout(ps, timeoutSeconds);
            ps.setString(1, indexSchema);
            ps.setString(2, index);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    keys.add(new KeyColumn(rs.getString(1), rs.getString(2), rs.getString(3)));
                }
            }
        }
        return List.copyOf(keys);
    }

    private static String unquote(String name) {
        return name.startsWith("\"") ? name.substring(1, name.length() - 1).replace("\"\"", "\"") : name;
    }

    /**
     * Whether the database compares identifiers ignoring case ({@code CASE_INSENSITIVE_IDENTIFIERS}); the
     * plan prints names as the identities they resolved to under any other setting, which compare exactly.
     * A setting that cannot be read fails the check.
     */
    private boolean caseInsensitiveIdentifiers(Connection c, int timeoutSeconds) throws SQLException {
        Boolean known = identifierCase.getIfPresent(Boolean.TRUE);
        if (known != null) {
            return known;
        }
        boolean read = readCaseInsensitiveIdentifiers(c, timeoutSeconds);
        identifierCase.put(Boolean.TRUE, read);
        return read;
    }

    private static boolean readCaseInsensitiveIdentifiers(Connection c, int timeoutSeconds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS "
                + "WHERE SETTING_NAME = 'CASE_INSENSITIVE_IDENTIFIERS'")) {
            timeout(ps, timeoutSeconds);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("H2's CASE_INSENSITIVE_IDENTIFIERS setting cannot be read");
                }
                return "true".equalsIgnoreCase(rs.getString(1));
            }
        }
    }

    private Entry entry(Connection c, EngineReading.Table table, int timeoutSeconds) throws SQLException {
        Entry cached = entries.getIfPresent(table.qualified());
        if (cached != null) {
            return cached;
        }
        Set<String> columns = new HashSet<>();
        Map<String, String> generated = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, IS_GENERATED, GENERATION_EXPRESSION "
                + "FROM INFORMATION_SCHEMA.COLUMNS WHERE LOWER(TABLE_SCHEMA) = ? AND LOWER(TABLE_NAME) = ?")) {
            timeout(ps, timeoutSeconds);
            ps.setString(1, table.schema());
            ps.setString(2, table.name());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1); // the identity: "salary" and SALARY are two columns
                    columns.add(name);
                    if ("ALWAYS".equalsIgnoreCase(rs.getString(2)) && rs.getString(3) != null) {
                        generated.put(name, rs.getString(3));
                    }
                }
            }
        }
        String view = null;
        try (PreparedStatement ps = c.prepareStatement("SELECT T.TABLE_TYPE, V.VIEW_DEFINITION FROM "
                + "INFORMATION_SCHEMA.TABLES T LEFT JOIN INFORMATION_SCHEMA.VIEWS V ON V.TABLE_SCHEMA = T.TABLE_SCHEMA "
                + "AND V.TABLE_NAME = T.TABLE_NAME WHERE LOWER(T.TABLE_SCHEMA) = ? AND LOWER(T.TABLE_NAME) = ?")) {
            timeout(ps, timeoutSeconds);
            ps.setString(1, table.schema());
            ps.setString(2, table.name());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && "VIEW".equalsIgnoreCase(rs.getString(1))) {
                    view = rs.getString(2) == null ? "" : rs.getString(2);
                }
            }
        }
        Entry e = new Entry(Set.copyOf(columns), Map.copyOf(generated), view);
        entries.put(table.qualified(), e);
        return e;
    }

    private static void timeout(PreparedStatement ps, int timeoutSeconds) throws SQLException {
        if (timeoutSeconds > 0) {
            ps.setQueryTimeout(timeoutSeconds);
        }
    }
}
