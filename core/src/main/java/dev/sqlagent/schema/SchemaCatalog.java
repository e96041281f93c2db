package dev.sqlagent.schema;

import dev.sqlagent.guard.GuardPolicy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * What the model may know of the database: tables and views with their columns, keys and remarks,
 * restricted to what the guard's policy allows (the model never sees what it may not query).
 * Immutable.
 */
public final class SchemaCatalog {

    /**
     * A column.
     *
     * @param name its name
     * @param type its SQL type name
     * @param nullable whether it may hold NULL
     * @param remarks its description, or empty
     * @param generated whether the database computes it from other columns (a generated column); on a
     *                  table with denied columns the agent denies it too, since it may carry one of them
     */
    public record Column(String name, String type, boolean nullable, String remarks, boolean generated) {
        /**
         * Checks the parts.
         *
         * @param name its name
         * @param type its SQL type name
         * @param nullable whether it may hold NULL
         * @param remarks its description, or empty
         * @param generated whether the database computes it from other columns
         */
        public Column {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(remarks, "remarks");
        }

        /**
         * A column that is not generated.
         *
         * @param name its name
         * @param type its SQL type name
         * @param nullable whether it may hold NULL
         * @param remarks its description, or empty
         */
        public Column(String name, String type, boolean nullable, String remarks) {
            this(name, type, nullable, remarks, false);
        }
    }

    /**
     * A foreign key column.
     *
     * @param column the referencing column
     * @param referencedTable the table referenced
     * @param referencedColumn the column referenced
     */
    public record ForeignKey(String column, String referencedTable, String referencedColumn) {
        /**
         * Checks the parts.
         *
         * @param column the referencing column
         * @param referencedTable the table referenced
         * @param referencedColumn the column referenced
         */
        public ForeignKey {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(referencedTable, "referencedTable");
            Objects.requireNonNull(referencedColumn, "referencedColumn");
        }
    }

    /**
     * A table or view.
     *
     * @param name its name as the database spells it
     * @param columns its columns in order
     * @param primaryKey the primary key columns
     * @param foreignKeys the foreign keys
     * @param remarks its description, or empty
     */
    public record Table(String name, List<Column> columns, List<String> primaryKey, List<ForeignKey> foreignKeys,
            String remarks) {
        /**
         * Copies the lists.
         *
         * @param name its name as the database spells it
         * @param columns its columns in order
         * @param primaryKey the primary key columns
         * @param foreignKeys the foreign keys
         * @param remarks its description, or empty
         */
        public Table {
            Objects.requireNonNull(name, "name");
            columns = List.copyOf(columns);
            primaryKey = List.copyOf(primaryKey);
            foreignKeys = List.copyOf(foreignKeys);
            Objects.requireNonNull(remarks, "remarks");
        }
    }

    private final List<Table> tables;
    private final java.util.Set<String> databaseTables;
    private final SchemaEnrichment enrichment;
    private volatile JoinGraph joinGraph;
    /** The SQLite FTS5 tables among {@link #tables}, lower case. */
    private final java.util.Set<String> fts5Tables;
    /** Whether the names are spelt as the database stores them (read from it), not as a host wrote them. */
    private final boolean stored;
    /**
     * The indexes of each table read from the database, by table name lower case: index name as the database
     * spells it, to its key columns in order (an empty string for an expression). Set once, before the
     * catalog is shared; a table missing here has indexes the catalog does not know.
     */
    private volatile Map<String, Map<String, List<String>>> indexes = Map.of();
    /** The functions, operators, macros and types the database defines itself (set last, by the agent). */
    private dev.sqlagent.guard.DatabaseObjects databaseObjects = dev.sqlagent.guard.DatabaseObjects.NONE;

    private SchemaCatalog(List<Table> tables, java.util.Set<String> databaseTables) {
        this(tables, databaseTables, SchemaEnrichment.EMPTY, java.util.Set.of(), false);
    }

    private SchemaCatalog(List<Table> tables, java.util.Set<String> databaseTables, SchemaEnrichment enrichment,
                          java.util.Set<String> fts5Tables, boolean stored) {
        this.stored = stored;
        this.tables = List.copyOf(tables);
        java.util.Set<String> fts5 = new java.util.HashSet<>();
        for (Table t : tables) {
            if (fts5Tables.contains(t.name().toLowerCase(Locale.ROOT))) {
                fts5.add(t.name().toLowerCase(Locale.ROOT));
            }
        }
        this.fts5Tables = java.util.Set.copyOf(fts5);
        this.enrichment = Objects.requireNonNull(enrichment, "enrichment");
        java.util.Set<String> all = new java.util.HashSet<>();
        for (String t : databaseTables) {
            all.add(t.toLowerCase(Locale.ROOT));
        }
        for (Table t : tables) {
            all.add(t.name().toLowerCase(Locale.ROOT));
        }
        this.databaseTables = java.util.Set.copyOf(all);
    }

    /**
     * A catalog of the given tables, which are also taken to be the only tables the database has.
     *
     * @param tables the tables
     * @return a catalog of them
     */
    public static SchemaCatalog of(List<Table> tables) {
        return new SchemaCatalog(tables, java.util.Set.of());
    }

    /**
     * A catalog of the given tables, in a database that also has others the model may not see.
     *
     * @param tables the tables the model may see
     * @param databaseTables the names of every table and view of the database, forbidden ones included
     * @return a catalog
     */
    public static SchemaCatalog of(List<Table> tables, java.util.Set<String> databaseTables) {
        return new SchemaCatalog(tables, databaseTables);
    }

    /**
     * What the model may be shown under a policy: the tables it allows, without the columns it denies. A
     * denied column disappears with everything that would name it: its primary-key entry, foreign keys
     * from or to it, and its descriptions, coded values, synonyms and sample values. The names of every
     * database table are kept, to tell invented names from forbidden ones.
     *
     * @param policy the effective policy
     * @return the visible catalog; this one when nothing is hidden
     */
    public SchemaCatalog visibleUnder(GuardPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        List<Table> kept = new ArrayList<>();
        java.util.Set<String> visibleTables = new java.util.HashSet<>();
        java.util.Set<String> hiddenColumns = new java.util.HashSet<>();
        boolean changed = false;
        for (Table t : tables) {
            if (!policy.allowsTable(t.name())) {
                changed = true;
                continue;
            }
            visibleTables.add(t.name().toLowerCase(Locale.ROOT));
            for (Column c : t.columns()) {
                if (denied(policy, t.name(), c.name())) {
                    hiddenColumns.add(key(t.name(), c.name()));
                }
            }
        }
        for (Table t : tables) {
            if (!visibleTables.contains(t.name().toLowerCase(Locale.ROOT))) {
                continue;
            }
            List<Column> cols = new ArrayList<>();
            for (Column c : t.columns()) {
                if (!hiddenColumns.contains(key(t.name(), c.name()))) {
                    cols.add(c);
                }
            }
            List<String> pk = new ArrayList<>();
            for (String c : t.primaryKey()) {
                if (!hiddenColumns.contains(key(t.name(), c))) {
                    pk.add(c);
                }
            }
            List<ForeignKey> fks = new ArrayList<>();
            for (ForeignKey fk : t.foreignKeys()) {
                if (!hiddenColumns.contains(key(t.name(), fk.column()))
                        && visibleTables.contains(fk.referencedTable().toLowerCase(Locale.ROOT))
                        && !hiddenColumns.contains(key(fk.referencedTable(), fk.referencedColumn()))) {
                    fks.add(fk);
                }
            }
            changed |= cols.size() != t.columns().size() || fks.size() != t.foreignKeys().size();
            kept.add(new Table(t.name(), cols, pk, fks, t.remarks()));
        }
        if (!changed) {
            return this;
        }
        SchemaEnrichment shown = enrichment.restrictedTo(visibleTables)
                .withoutColumns(k -> hiddenColumns.contains(k.toLowerCase(Locale.ROOT)));
        return keeping(new SchemaCatalog(kept, databaseTables, shown, fts5Tables, stored));
    }

    private static boolean denied(GuardPolicy policy, String table, String column) {
        for (Map.Entry<String, java.util.Set<String>> e : policy.deniedColumns().entrySet()) {
            if (e.getKey().equalsIgnoreCase(table) || table.toLowerCase(Locale.ROOT).endsWith("." + e.getKey())) {
                for (String c : e.getValue()) {
                    if (c.equalsIgnoreCase(column)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static String key(String table, String column) {
        return table.toLowerCase(Locale.ROOT) + "." + column.toLowerCase(Locale.ROOT);
    }

    /**
     * Reads the names of every table and view the database has, in every schema, forbidden ones included.
     *
     * @param dataSource the database
     * @return the names, lower case
     * @throws SQLException when the metadata cannot be read
     */
    public static java.util.Set<String> databaseTableNames(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return tableNames(c.getMetaData());
        }
    }

    private static java.util.Set<String> tableNames(DatabaseMetaData md) throws SQLException {
        java.util.Set<String> everything = new java.util.HashSet<>();
        try (ResultSet rs = md.getTables(null, null, "%", null)) {
            while (rs.next()) {
                everything.add(rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT));
            }
        }
        return everything;
    }

    /** {@return the names of every table the database has, forbidden ones included, lower case} */
    public java.util.Set<String> allTableNames() {
        return databaseTables;
    }

    /**
     * Returns a copy that knows the names of the database's other tables; this catalog is unchanged.
     *
     * @param names names of tables the database has besides this catalog's (forbidden ones too)
     * @return this catalog, told of those tables: a forbidden table the database has is a policy
     *     violation, never mistaken for a name the model invented
     */
    public SchemaCatalog withDatabaseTables(java.util.Set<String> names) {
        java.util.Set<String> all = new java.util.HashSet<>(databaseTables);
        all.addAll(names);
        return keeping(new SchemaCatalog(tables, all, enrichment, fts5Tables, stored));
    }

    /**
     * Reads the catalog from JDBC metadata, keeping only the tables the policy allows.
     *
     * @param dataSource the database
     * @param policy the guard's policy
     * @return the catalog
     * @throws SQLException when the metadata cannot be read
     */
    public static SchemaCatalog introspect(DataSource dataSource, GuardPolicy policy) throws SQLException {
        Objects.requireNonNull(dataSource, "dataSource");
        Objects.requireNonNull(policy, "policy");
        try (Connection c = dataSource.getConnection()) {
            DatabaseMetaData md = c.getMetaData();
            String catalog = c.getCatalog();
            String schema = safeSchema(c);
            Map<String, String> names = new LinkedHashMap<>();
            Map<String, String> remarks = new LinkedHashMap<>();
            java.util.Set<String> everything = tableNames(md);
            java.util.Set<String> fts5 = fts5Tables(c, md);
            try (ResultSet rs = md.getTables(catalog, schema, "%", new String[] {"TABLE", "VIEW"})) {
                while (rs.next()) {
                    String name = rs.getString("TABLE_NAME");
                    // MariaDB and MySQL name a table's database as its catalog, with no schema: a policy entry
                    // qualified by the database (shop.emp) names it too
                    String owner = rs.getString("TABLE_SCHEM") != null ? rs.getString("TABLE_SCHEM")
                            : rs.getString("TABLE_CAT");
                    String qualified = owner == null ? name : owner + "." + name;
                    if (policy.allowsTable(name) || policy.allowsTable(qualified)) {
                        names.put(name.toLowerCase(Locale.ROOT), name);
                        remarks.put(name, nullToEmpty(rs.getString("REMARKS")));
                    }
                }
            }
            List<Table> tables = new ArrayList<>();
            Map<String, Map<String, List<String>>> tableIndexes = new LinkedHashMap<>();
            // an engine without information_schema.columns.is_generated (Trino) refuses the look-up once per
            // read, not once per table
            boolean isGeneratedReadable = true;
            for (String name : names.values()) {
                List<Column> cols = new ArrayList<>();
                boolean driverSaysGenerated = true;
                try (ResultSet rs = md.getColumns(catalog, schema, name, "%")) {
                    while (rs.next()) {
                        String column = rs.getString("COLUMN_NAME");
                        if (fts5.contains(name.toLowerCase(Locale.ROOT)) && column != null
                                && (column.equalsIgnoreCase(name) || column.equalsIgnoreCase("rank"))) {
                            continue; // an FTS5 table's hidden columns (its own name, rank): no data, not in *
                        }
                        driverSaysGenerated &= knowsGenerated(rs);
                        cols.add(new Column(rs.getString("COLUMN_NAME"), nullToEmpty(rs.getString("TYPE_NAME")),
                                rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls, nullToEmpty(rs.getString("REMARKS")),
                                generated(rs)));
                    }
                }
                if (!driverSaysGenerated && isGeneratedReadable) {
                    List<Column> marked = generatedFromInformationSchema(c, schema, name, cols);
                    isGeneratedReadable = marked != null;
                    cols = marked != null ? marked : cols;
                }
                List<String> pk = new ArrayList<>();
                try (ResultSet rs = md.getPrimaryKeys(catalog, schema, name)) {
                    while (rs.next()) {
                        pk.add(rs.getString("COLUMN_NAME"));
                    }
                }
                List<ForeignKey> fks = new ArrayList<>();
                try (ResultSet rs = md.getImportedKeys(catalog, schema, name)) {
                    while (rs.next()) {
                        String ref = rs.getString("PKTABLE_NAME");
                        if (ref != null && names.containsKey(ref.toLowerCase(Locale.ROOT))) {
                            fks.add(new ForeignKey(rs.getString("FKCOLUMN_NAME"), ref, rs.getString("PKCOLUMN_NAME")));
                        }
                    }
                } catch (SQLException e) {
                    // some drivers cannot list keys of views; the table stays without them
                }
                tables.add(new Table(name, cols, pk, fks, remarks.getOrDefault(name, "")));
                Map<String, List<String>> keys = indexKeys(md, catalog, schema, name);
                if (keys != null) {
                    tableIndexes.put(name.toLowerCase(Locale.ROOT), keys);
                }
            }
            SchemaCatalog read = new SchemaCatalog(tables, everything, SchemaEnrichment.EMPTY, fts5, true);
            read.indexes = Map.copyOf(tableIndexes);
            return read;
        }
    }

    /**
     * A table's indexes from JDBC's {@code getIndexInfo}: name to key columns in order, lower case (an empty
     * string for a key part that is an expression); null when the driver cannot list them.
     */
    private static Map<String, List<String>> indexKeys(DatabaseMetaData md, String catalog, String schema,
                                                       String table) {
        Map<String, java.util.TreeMap<Integer, String>> parts = new LinkedHashMap<>();
        try (ResultSet rs = md.getIndexInfo(catalog, schema, table, false, true)) {
            while (rs.next()) {
                String index = rs.getString("INDEX_NAME");
                if (index == null || rs.getShort("TYPE") == DatabaseMetaData.tableIndexStatistic) {
                    continue;
                }
                String column = rs.getString("COLUMN_NAME");
                boolean plain = column != null && column.matches("\"?[A-Za-z_][A-Za-z0-9_$]*\"?");
                java.util.TreeMap<Integer, String> key = parts.computeIfAbsent(index, k -> new java.util.TreeMap<>());
                key.put(key.size() + 1000 * Math.max(0, rs.getShort("ORDINAL_POSITION")),
                        plain ? column.replace("\"", "").toLowerCase(Locale.ROOT) : "");
            }
        } catch (SQLException | RuntimeException e) {
            return null;
        }
        Map<String, List<String>> out = new LinkedHashMap<>();
        parts.forEach((index, key) -> out.put(index, List.copyOf(key.values())));
        return out;
    }

    /** This catalog's indexes on a copy of it. */
    private SchemaCatalog keeping(SchemaCatalog next) {
        next.indexes = indexes;
        next.databaseObjects = databaseObjects;
        return next;
    }

    /** Whether the driver fills JDBC's IS_GENERATEDCOLUMN (DuckDB's leaves it empty). */
    private static boolean knowsGenerated(ResultSet rs) {
        try {
            String v = rs.getString("IS_GENERATEDCOLUMN");
            return v != null && !v.isEmpty();
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * For a driver that does not say which columns are generated: the SQL standard's
     * {@code information_schema.columns.is_generated} ({@code ALWAYS}), where the engine has it (DuckDB does);
     * null where the engine has no such column (so that the read stops asking).
     */
    private static List<Column> generatedFromInformationSchema(Connection c, String schema, String table,
                                                               List<Column> cols) {
        Set<String> generated = new HashSet<>();
        String sql = "SELECT column_name FROM information_schema.columns WHERE table_name = ? AND is_generated = 'ALWAYS'"
                + (schema == null ? "" : " AND table_schema = ?");
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, table);
            if (schema != null) {
                ps.setString(2, schema);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    generated.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            return null; // no information_schema.is_generated: nothing more to learn, for any table
        }
        List<Column> out = new ArrayList<>();
        for (Column col : cols) {
            out.add(generated.contains(col.name()) && !col.generated()
                    ? new Column(col.name(), col.type(), col.nullable(), col.remarks(), true) : col);
        }
        return out;
    }

    /** JDBC's IS_GENERATEDCOLUMN; a driver that lacks it is read as "not generated". */
    private static boolean generated(ResultSet rs) {
        try {
            return "YES".equalsIgnoreCase(rs.getString("IS_GENERATEDCOLUMN"));
        } catch (SQLException e) {
            return false;
        }
    }

    private static String safeSchema(Connection c) {
        try {
            return c.getSchema();
        } catch (SQLException | AbstractMethodError e) {
            return null;
        }
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    /**
     * Checks that every name of a policy resolves to something this catalog's database has, by the
     * engine's identity rules ({@link dev.sqlagent.guard.PolicyResolution}): each allowed table, each denied
     * column and its table, each row filter's table and column. {@code SqlAgent} does this when it builds
     * and whenever it reads the schema; a host that calls {@code SqlGuard} itself should do it once per policy.
     * A catalog that knows no table at all ({@link #knowsNoTable()}) checks nothing.
     *
     * @param policy the host's policy
     * @param dialect the database's dialect; its quoting rules apply to a catalog read from the database (a
     *     catalog built with {@link #of} spells names as the host wrote them: they are compared as unquoted names)
     * @throws dev.sqlagent.guard.PolicyResolutionException naming each unresolved name with the nearest real ones
     */
    public void requireResolves(GuardPolicy policy, dev.sqlagent.Dialect dialect) {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(dialect, "dialect");
        if (knowsNoTable()) {
            return; // no catalog to resolve against (SchemaCatalog.of(List.of())): the guard alone decides
        }
        Map<String, List<String>> columns = new LinkedHashMap<>();
        for (Table t : tables) {
            List<String> names = new ArrayList<>();
            for (Column c : t.columns()) {
                names.add(c.name());
            }
            columns.put(t.name(), names);
        }
        // a catalog read from the database spells names as it stores them, so the engine's quoting rules apply;
        // one a host built spells them as the host wrote them, compared as unquoted names
        dev.sqlagent.guard.PolicyResolution.require(policy, stored ? dialect : null, columns, databaseTables);
    }

    /**
     * {@return whether this catalog knows no table at all, neither one the model may see nor another of the
     * database} Such a catalog (a host's {@code SchemaCatalog.of(List.of())}) resolves no policy name:
     * {@link #requireResolves} then checks nothing.
     */
    public boolean knowsNoTable() {
        return tables.isEmpty() && databaseTables.isEmpty();
    }

    /**
     * The policy the guard checks with: told every table the database has (so that it refuses a CTE named
     * like any of them, forbidden ones too) and the columns of each allowed table (so that it resolves every
     * name of a statement: closed world). A generated column of a table with denied columns is denied
     * too, since it may be computed from one of them. What the host set itself is kept. {@code SqlAgent}
     * does this for every question; a host that calls {@code SqlGuard} itself does it once per policy.
     *
     * @param policy the host's policy
     * @return the policy completed with this catalog's tables and columns
     */
    public GuardPolicy completePolicy(GuardPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        SchemaCatalog catalog = this;
        GuardPolicy.Builder b = policy.toBuilder();
        if (policy.knownTables().isEmpty()) {
            b.knownTables(catalog.allTableNames());
        }
        if (policy.databaseObjects().isEmpty()) {
            b.databaseObjects(databaseObjects);
        }
        for (String key : policy.allowedTables()) {
            if (policy.tableColumns().containsKey(key)) {
                continue;
            }
            String bare = key.substring(key.lastIndexOf('.') + 1);
            for (SchemaCatalog.Table t : catalog.tables()) {
                String name = t.name().toLowerCase(java.util.Locale.ROOT);
                if ((name.equals(key) || name.equals(bare)) && !t.columns().isEmpty()) {
                    List<String> columns = new ArrayList<>();
                    boolean denies = policy.deniedColumns().containsKey(key);
                    for (SchemaCatalog.Column c : t.columns()) {
                        columns.add(c.name());
                        if (denies && c.generated()) {
                            // computed from other columns, perhaps a denied one: denied too, and hidden
                            b.denyColumn(key, c.name());
                        }
                    }
                    b.tableColumns(key, columns);
                    if (fts5Tables.contains(name) && !policy.fts5Tables().contains(key)) {
                        b.fts5Tables(List.of(key));
                    }
                    break;
                }
            }
        }
        // each allowed table's indexes, so that no read goes through one ordered by forbidden data
        for (String key : policy.allowedTables()) {
            String bare = key.substring(key.lastIndexOf('.') + 1);
            Map<String, List<String>> known = indexes.containsKey(key) ? indexes.get(key) : indexes.get(bare);
            if (known != null && !policy.tableIndexes().containsKey(key)) {
                b.tableIndex(key, null, List.of());
                known.forEach((index, keyColumns) -> b.tableIndex(key, index, keyColumns));
                for (SchemaCatalog.Table t : tables) {
                    String name = t.name().toLowerCase(Locale.ROOT);
                    if ((name.equals(key) || name.equals(bare)) && !t.primaryKey().isEmpty()) {
                        // the order some engines store the table in (InnoDB, SQLite's rowid, H2's integer key)
                        b.tableIndex(key, GuardPolicy.PRIMARY_KEY, t.primaryKey());
                    }
                }
            }
        }
        return b.build();
    }

    /**
     * Returns a copy that knows the functions, operators, macros and types the database defines itself, which
     * {@link #completePolicy} tells the guard of; this catalog is unchanged.
     *
     * @param objects the database's own objects ({@link dev.sqlagent.guard.DatabaseObjects#read})
     * @return the catalog, knowing them
     */
    public SchemaCatalog withDatabaseObjects(dev.sqlagent.guard.DatabaseObjects objects) {
        SchemaCatalog copy = keeping(new SchemaCatalog(tables, databaseTables, enrichment, fts5Tables, stored));
        copy.databaseObjects = Objects.requireNonNull(objects, "objects");
        return copy;
    }

    /** {@return the functions, operators, macros and types the database defines itself, as far as known} */
    public dev.sqlagent.guard.DatabaseObjects databaseObjects() {
        return databaseObjects;
    }

    /**
     * {@return the tables of this catalog that are SQLite FTS5 full-text tables, lower case} They have hidden
     * columns (the table's own name, {@code rank}) that {@link #completePolicy} tells the guard of.
     */
    public java.util.Set<String> fts5Tables() {
        return fts5Tables;
    }

    /**
     * Returns a copy in which the named tables are SQLite FTS5 tables (for a catalog built with
     * {@link #of(List)} rather than read from the database); this catalog is unchanged.
     *
     * @param names tables of this catalog, any case; names it does not have are ignored
     * @return the catalog, knowing those FTS5 tables
     */
    public SchemaCatalog withFts5Tables(java.util.Set<String> names) {
        java.util.Set<String> all = new java.util.HashSet<>(fts5Tables);
        for (String n : names) {
            all.add(n.toLowerCase(Locale.ROOT));
        }
        return keeping(new SchemaCatalog(tables, databaseTables, enrichment, all, stored));
    }

    /**
     * Whether a statement of SQLite's schema ({@code sqlite_schema.sql}) creates an FTS5 table: {@code CREATE
     * VIRTUAL TABLE [IF NOT EXISTS] [schema.]name USING fts5…}, read token by token (a quoted name holding the
     * words is still one name).
     *
     * @param createSql the table's {@code sql} in {@code sqlite_schema}, may be null
     * @return whether its module is {@code fts5}
     */
    public static boolean isFts5Declaration(String createSql) {
        if (createSql == null) {
            return false;
        }
        String s = createSql;
        int[] at = {0};
        for (String w : new String[] {"create", "virtual", "table"}) {
            if (!w.equalsIgnoreCase(sqliteToken(s, at))) {
                return false;
            }
        }
        String name = sqliteToken(s, at);
        if ("if".equalsIgnoreCase(name)) {
            if (!"not".equalsIgnoreCase(sqliteToken(s, at)) || !"exists".equalsIgnoreCase(sqliteToken(s, at))) {
                return false;
            }
            name = sqliteToken(s, at);
        }
        if (name == null) {
            return false;
        }
        String next = sqliteToken(s, at);
        if (".".equals(next)) {
            if (sqliteToken(s, at) == null) {
                return false;
            }
            next = sqliteToken(s, at);
        }
        return "using".equalsIgnoreCase(next) && "fts5".equalsIgnoreCase(sqliteToken(s, at));
    }

    /** The next token of a CREATE statement from {@code at[0]}: a word, a quoted name whole, or one character. */
    private static String sqliteToken(String s, int[] at) {
        int i = at[0];
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        if (i >= s.length()) {
            at[0] = i;
            return null;
        }
        char c = s.charAt(i);
        int end;
        if (c == '"' || c == '`' || c == '\'' || c == '[') {
            char close = c == '[' ? ']' : c;
            end = i + 1;
            while (true) {
                int k = s.indexOf(close, end);
                if (k < 0) {
                    at[0] = s.length();
                    return null;
                }
                if (close != ']' && k + 1 < s.length() && s.charAt(k + 1) == close) {
                    end = k + 2;
                    continue;
                }
                end = k + 1;
                break;
            }
        } else if (Character.isLetterOrDigit(c) || c == '_') {
            end = i + 1;
            while (end < s.length() && (Character.isLetterOrDigit(s.charAt(end)) || s.charAt(end) == '_'
                    || s.charAt(end) == '$')) {
                end++;
            }
        } else {
            end = i + 1;
        }
        at[0] = end;
        return s.substring(i, end);
    }

    /** SQLite's FTS5 tables, lower case, from {@code sqlite_schema}; empty on any other database. */
    private static java.util.Set<String> fts5Tables(Connection c, DatabaseMetaData md) {
        try {
            if (!"SQLite".equalsIgnoreCase(md.getDatabaseProductName())) {
                return java.util.Set.of();
            }
        } catch (SQLException e) {
            return java.util.Set.of();
        }
        java.util.Set<String> out = new java.util.HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT name, sql FROM main.sqlite_schema WHERE type = 'table' AND rootpage = 0")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (isFts5Declaration(rs.getString(2))) {
                        out.add(rs.getString(1).toLowerCase(Locale.ROOT));
                    }
                }
            }
        } catch (SQLException e) {
            return java.util.Set.of(); // no schema table to read: no FTS5 syntax is accepted
        }
        return out;
    }

    /** {@return the tables, in order} */
    public List<Table> tables() {
        return tables;
    }

    /**
     * Whether the database has a table or view of this name in any schema, allowed or not. A name it
     * lacks is a model's invention, not a probe of the policy.
     *
     * @param name a table name, bare or schema-qualified, any case, quotes allowed
     * @return whether such a table exists
     */
    public boolean databaseHasTable(String name) {
        String bare = name.replace("\"", "").replace("`", "").replace("[", "").replace("]", "");
        int dot = bare.lastIndexOf('.');
        if (dot >= 0) {
            bare = bare.substring(dot + 1);
        }
        return databaseTables.contains(bare.trim().toLowerCase(Locale.ROOT));
    }

    /**
     * A catalog like this one with the host's enrichment added to what it already has (later entries
     * for the same table or column replace earlier ones; synonyms add up). Entries about tables the
     * database has but this catalog hides (outside the policy) are dropped, so the model never hears of
     * them.
     *
     * @param enrichment descriptions, coded values, terms, samples
     * @return a new catalog; this one is unchanged
     * @throws IllegalArgumentException when the enrichment names a table the database does not have, or
     *     a column that a visible table does not have
     */
    public SchemaCatalog enrich(SchemaEnrichment enrichment) {
        Objects.requireNonNull(enrichment, "enrichment");
        java.util.Set<String> visible = new java.util.HashSet<>();
        for (Table t : tables) {
            visible.add(t.name().toLowerCase(Locale.ROOT));
        }
        for (String t : enrichment.namedTables()) {
            if (!visible.contains(t) && !databaseHasTable(t)) {
                throw new IllegalArgumentException("the enrichment names table " + t + ", which the database does not have");
            }
        }
        for (String tc : enrichment.namedColumns()) {
            int dot = tc.indexOf('.');
            String t = tc.substring(0, dot);
            if (visible.contains(t) && column(t, tc.substring(dot + 1)).isEmpty()) {
                throw new IllegalArgumentException("the enrichment names column " + tc + ", which table " + t + " does not have");
            }
        }
        return keeping(new SchemaCatalog(tables, databaseTables, this.enrichment.plus(enrichment.restrictedTo(visible)),
                fts5Tables, stored));
    }

    /** {@return what the host added with {@link #enrich(SchemaEnrichment)}; empty when nothing} */
    public SchemaEnrichment enrichment() {
        return enrichment;
    }

    /**
     * Looks a column up by table and column name, whatever their case.
     *
     * @param table a table name, any case
     * @param column a column name, any case
     * @return the column, when the catalog has that table and the table has that column
     */
    public Optional<Column> column(String table, String column) {
        Optional<Table> t = table(table);
        if (t.isEmpty()) {
            return Optional.empty();
        }
        for (Column c : t.get().columns()) {
            if (c.name().equalsIgnoreCase(column)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /**
     * The join graph of this catalog (declared foreign keys plus edges inferred from names), built on
     * first use and kept.
     *
     * @return the graph
     */
    public JoinGraph joinGraph() {
        JoinGraph g = joinGraph;
        if (g == null) {
            g = JoinGraph.of(this);
            joinGraph = g;
        }
        return g;
    }

    /**
     * Looks a table up by name, whatever its case.
     *
     * @param name a table name, any case
     * @return the table, or empty when the catalog has none of that name
     */
    public Optional<Table> table(String name) {
        for (Table t : tables) {
            if (t.name().equalsIgnoreCase(name)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /**
     * Renders the catalog as compact DDL for a prompt.
     *
     * @return one {@code CREATE TABLE} per table, with keys and remarks as comments
     */
    public String renderDdl() {
        StringBuilder sb = new StringBuilder();
        for (Table t : tables) {
            if (!t.remarks().isEmpty()) {
                sb.append("-- ").append(t.remarks()).append('\n');
            }
            sb.append("CREATE TABLE ").append(t.name()).append(" (");
            List<String> parts = new ArrayList<>();
            for (Column c : t.columns()) {
                String p = c.name() + ' ' + c.type();
                if (!c.remarks().isEmpty()) {
                    p += " /* " + c.remarks() + " */";
                }
                parts.add(p);
            }
            if (!t.primaryKey().isEmpty()) {
                parts.add("PRIMARY KEY (" + String.join(", ", t.primaryKey()) + ")");
            }
            for (ForeignKey fk : t.foreignKeys()) {
                parts.add("FOREIGN KEY (" + fk.column() + ") REFERENCES " + fk.referencedTable() + " ("
                        + fk.referencedColumn() + ")");
            }
            sb.append(String.join(", ", parts)).append(");\n");
        }
        return sb.toString();
    }
}
