package dev.sqlagent.guard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What model-written SQL may do: which tables it may read, which columns it may not, whether
 * {@code SELECT *} is allowed, how many rows at most. Immutable; build with {@link #builder()}.
 *
 * <p>Table names are matched after unquoting and case-folding as the dialect does (see
 * {@code docs/security.md}). A schema-qualified entry ({@code hr.employees}) matches only a reference
 * qualified with that schema; a bare entry matches only an unqualified reference (the table the
 * connection resolves unqualified names to), never {@code other_schema.employees}.
 *
 * <p>Besides tables: denied columns, whether {@code SELECT *} is allowed, which functions may be called
 * ({@link FunctionPolicy}), mandatory row filters ({@link RowFilter}), the row cap, and the input
 * length, nesting and parse-time caps that keep a hostile input from exhausting the guard.
 */
public final class GuardPolicy {

    /** Default cap on rows, added as a LIMIT when missing and enforced when larger. */
    public static final int DEFAULT_MAX_ROWS = 1000;
    /** Default cap on the SQL's length in characters. */
    public static final int DEFAULT_MAX_SQL_LENGTH = 20_000;
    /** Default cap on what one resource-expanding call may build, in bytes: 1 MiB. */
    public static final long DEFAULT_MAX_EXPANDED_BYTES = 1024 * 1024;
    /** Default cap on the nesting of parentheses, beyond which the parser's look-ahead may explode. */
    public static final int DEFAULT_MAX_NESTING_DEPTH = 24;
    /** Default cap on the time the parser may take for one SQL. */
    public static final Duration DEFAULT_PARSE_TIMEOUT = Duration.ofSeconds(2);

    private final Set<String> allowedTables;
    private final Map<String, Set<String>> deniedColumns;
    private final boolean allowSelectStar;
    private final int maxRows;
    private final int maxSqlLength;
    private final long maxExpandedBytes;
    private final Set<String> allowedTablesAsWritten;
    private final FunctionPolicy functionPolicy;
    private final List<RowFilter> rowFilters;
    private final int maxNestingDepth;
    private final Duration parseTimeout;
    private final Set<String> knownTables;
    private final Map<String, Set<String>> tableColumns;
    private final Set<String> allowedSystemColumns;
    private final Set<String> fts5Tables;
    private final Map<String, Map<String, List<String>>> tableIndexes;
    private final DatabaseObjects databaseObjects;
    private final Set<String> allowedDatabaseFunctions;

    private GuardPolicy(Builder b) {
        this.databaseObjects = b.databaseObjects;
        this.allowedDatabaseFunctions = Set.copyOf(b.allowedDatabaseFunctions);
        this.fts5Tables = Set.copyOf(b.fts5Tables);
        Map<String, Map<String, List<String>>> indexes = new LinkedHashMap<>();
        b.tableIndexes.forEach((t, is) -> indexes.put(t, java.util.Collections.unmodifiableMap(new LinkedHashMap<>(is))));
        this.tableIndexes = java.util.Collections.unmodifiableMap(indexes);
        this.knownTables = Set.copyOf(b.knownTables);
        Map<String, Set<String>> columns = new LinkedHashMap<>();
        b.tableColumns.forEach((t, cs) -> columns.put(t, Set.copyOf(cs)));
        this.tableColumns = Map.copyOf(columns);
        this.allowedSystemColumns = Set.copyOf(b.allowedSystemColumns);
        this.allowedTables = Set.copyOf(b.allowedTables);
        this.allowedTablesAsWritten = Set.copyOf(b.allowedTablesAsWritten);
        this.functionPolicy = b.functionPolicy;
        this.rowFilters = List.copyOf(b.rowFilters);
        this.maxNestingDepth = b.maxNestingDepth;
        this.parseTimeout = b.parseTimeout;
        Map<String, Set<String>> denied = new LinkedHashMap<>();
        b.deniedColumns.forEach((t, cs) -> denied.put(t, Set.copyOf(cs)));
        this.deniedColumns = Map.copyOf(denied);
        this.allowSelectStar = b.allowSelectStar;
        this.maxRows = b.maxRows;
        this.maxSqlLength = b.maxSqlLength;
        this.maxExpandedBytes = b.maxExpandedBytes;
    }

    /** {@return a new builder} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Creates a policy that allows reading the given tables, with every other setting at its default.
     *
     * @param tables the tables that may be read, at least one, none blank
     * @return a policy allowing those tables, with every other setting at its default
     * @throws IllegalArgumentException if a name is blank
     * @throws IllegalStateException if no table is given
     */
    public static GuardPolicy allowingTables(String... tables) {
        return builder().allowTables(tables).build();
    }

    /** {@return a builder holding this policy's values} */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.allowedTables.addAll(allowedTables);
        b.allowedTablesAsWritten.addAll(allowedTablesAsWritten);
        b.functionPolicy = functionPolicy;
        b.rowFilters.addAll(rowFilters);
        b.maxNestingDepth = maxNestingDepth;
        b.parseTimeout = parseTimeout;
        b.knownTables.addAll(knownTables);
        tableColumns.forEach((t, cs) -> b.tableColumns.put(t, new LinkedHashSet<>(cs)));
        b.allowedSystemColumns.addAll(allowedSystemColumns);
        b.fts5Tables.addAll(fts5Tables);
        tableIndexes.forEach((t, is) -> b.tableIndexes.put(t, new LinkedHashMap<>(is)));
        b.databaseObjects = databaseObjects;
        b.allowedDatabaseFunctions.addAll(allowedDatabaseFunctions);
        deniedColumns.forEach((t, cs) -> b.deniedColumns.put(t, new LinkedHashSet<>(cs)));
        b.allowSelectStar = allowSelectStar;
        b.maxRows = maxRows;
        b.maxSqlLength = maxSqlLength;
        b.maxExpandedBytes = maxExpandedBytes;
        return b;
    }

    /**
     * {@return the columns the policy knows each table to have, lower case, keyed like
     * {@link #allowedTables()}} The guard resolves every name of a statement against them (closed world):
     * a column of a table listed here that is neither known nor denied is an unknown name, refused. A
     * table the policy allows but does not list here is checked by name only (see {@code docs/security.md}).
     * {@code SqlAgent} fills them in from its schema catalog.
     */
    public Map<String, Set<String>> tableColumns() {
        return tableColumns;
    }

    /**
     * {@return the tables the host or the schema catalog named as SQLite FTS5 tables ({@code CREATE VIRTUAL
     * TABLE … USING fts5}), lower case, keyed like {@link #allowedTables()}} Only on these does the guard read
     * SQLite's full-text syntax: {@code MATCH}, the hidden columns (the table's own name, {@code rank}) and
     * the auxiliary functions {@code bm25}, {@code highlight}, {@code snippet}, each a read of the whole row.
     * {@code SqlAgent} fills them in from its schema catalog.
     */
    public Set<String> fts5Tables() {
        return fts5Tables;
    }

    /**
     * {@return the system columns ({@code ctid}, {@code tableoid}, {@code rowid}, …) a statement may read,
     * lower case; empty by default, so that every system column is refused}
     */
    public Set<String> allowedSystemColumns() {
        return allowedSystemColumns;
    }

    /**
     * {@return the functions, operators, aggregates, macros and types the database defines itself}
     * {@code SqlAgent} reads them when it reads the schema; {@link DatabaseObjects#NONE} when not given.
     */
    public DatabaseObjects databaseObjects() {
        return databaseObjects;
    }

    /**
     * {@return the database's own functions and operators the host allows, by signature, as
     * {@link DatabaseObjects#signature(String)} writes them}
     */
    public Set<String> allowedDatabaseFunctions() {
        return allowedDatabaseFunctions;
    }

    /** {@return allowed tables, lower case, possibly schema-qualified} */
    public Set<String> allowedTables() {
        return allowedTables;
    }

    /** {@return denied columns per table, lower case} */
    public Map<String, Set<String>> deniedColumns() {
        return deniedColumns;
    }

    /** {@return whether {@code SELECT *} and {@code t.*} are allowed} */
    public boolean allowSelectStar() {
        return allowSelectStar;
    }

    /** {@return the row cap} */
    public int maxRows() {
        return maxRows;
    }

    /** {@return the cap on SQL length in characters} */
    public int maxSqlLength() {
        return maxSqlLength;
    }

    /**
     * Returns the cap on what one call of a resource-expanding function ({@code repeat}, {@code lpad},
     * {@code printf} widths, {@code zeroblob}, {@code generate_series}, …) may build, as the guard estimates
     * it from constant arguments; a call over it, or with a size argument that is not a constant, is refused
     * as {@link ViolationType#RESOURCE_LIMIT}. On H2 the aggregates that collect their whole input and
     * recursive CTEs that grow a value are refused under any finite cap (H2 allocates in the host's heap with
     * no cap of its own). {@link Long#MAX_VALUE} turns these checks off.
     *
     * @return the cap in bytes; {@value #DEFAULT_MAX_EXPANDED_BYTES} by default
     */
    public long maxExpandedBytes() {
        return maxExpandedBytes;
    }

    /** {@return the allowed tables exactly as given to the builder (trimmed), for case-sensitive dialects} */
    Set<String> allowedTablesAsWritten() {
        return allowedTablesAsWritten;
    }

    /** {@return which functions may be called} */
    public FunctionPolicy functionPolicy() {
        return functionPolicy;
    }

    /** {@return the mandatory row filters, in the order given} */
    public List<RowFilter> rowFilters() {
        return rowFilters;
    }

    /** {@return the cap on nesting of parentheses} */
    public int maxNestingDepth() {
        return maxNestingDepth;
    }

    /** {@return the cap on parse time for one SQL} */
    public Duration parseTimeout() {
        return parseTimeout;
    }

    /**
     * The name {@link #tableIndexes()} gives a table's primary key, whatever the database calls its index: on
     * MariaDB and MySQL (InnoDB), SQLite (an {@code INTEGER PRIMARY KEY} or a {@code WITHOUT ROWID} table) and
     * H2 (an integer key) the table itself is stored, and scanned, in its order.
     */
    public static final String PRIMARY_KEY = "(primary key)";

    /**
     * {@return the indexes the policy knows each table to have, keyed like {@link #allowedTables()}: index
     * name as the database spells it, to its key columns in order, lower case (an empty string for a key
     * part that is an expression)} A table listed here with an empty map has no index. {@code SqlAgent}
     * fills them in from its schema catalog; see {@link Builder#tableIndex}.
     */
    public Map<String, Map<String, List<String>>> tableIndexes() {
        return tableIndexes;
    }

    /**
     * The indexes of a table that an access path may order by something the policy forbids: those whose key
     * holds a denied column, a column the policy does not know the table to have (when it knows its columns)
     * or an expression. Reading the table through one returns rows in the order of that key.
     *
     * @param table a table key, as in {@link #allowedTables()}
     * @return their names as the database spells them; empty when none, or when the indexes are not known
     */
    public Set<String> orderingIndexes(String table) {
        Map<String, List<String>> indexes = tableIndexes.get(table);
        if (indexes == null) {
            return Set.of();
        }
        Set<String> denied = deniedColumns.getOrDefault(table, Set.of());
        Set<String> known = tableColumns.get(table);
        Set<String> out = new LinkedHashSet<>();
        indexes.forEach((name, key) -> {
            for (String c : key) {
                if (c.isEmpty() || denied.contains(c) || known != null && !known.contains(c)) {
                    out.add(name);
                    return;
                }
            }
        });
        return out;
    }

    /**
     * {@return every table of the database the host named with {@link Builder#knownTables}, lower case
     * (allowed or not); empty when not given}
     */
    public Set<String> knownTables() {
        return knownTables;
    }

    /**
     * Whether a name, lower case and unqualified, is the name of a table the policy or the database
     * knows: an allowed table, a table with denied columns or a row filter, or a known table (with or
     * without its schema). A CTE of such a name is refused, whatever the database would read.
     *
     * @param name an unqualified name, folded to lower case
     * @return whether a table of that name may exist
     */
    public boolean namesTable(String name) {
        String n = Names.lower(name);
        for (Set<String> names : List.of(allowedTables, knownTables, deniedColumns.keySet())) {
            for (String t : names) {
                if (t.equals(n) || t.endsWith("." + n)) {
                    return true;
                }
            }
        }
        for (RowFilter f : rowFilters) {
            if (f.table().equals(n) || f.table().endsWith("." + n)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Case-insensitive check of a name as written (no dialect folding; the guard itself folds
     * identifiers as its dialect does). A qualified name needs a qualified entry and a bare name a bare one.
     *
     * @param table a table name, possibly schema-qualified, any case
     * @return whether the policy allows reading it
     */
    public boolean allowsTable(String table) {
        return allowedTables.contains(normalise(table));
    }

    static String normalise(String name) {
        return Names.lower(name.trim());
    }

    @Override
    public String toString() {
        return "GuardPolicy{tables=" + allowedTables + ", deniedColumns=" + deniedColumns
                + ", selectStar=" + allowSelectStar + ", maxRows=" + maxRows + ", functions=" + functionPolicy
                + ", rowFilters=" + rowFilters.size() + ", maxExpandedBytes=" + maxExpandedBytes + '}';
    }

    /** Builds a {@link GuardPolicy}; setters check their arguments and name them. */
    public static final class Builder {
        private final Set<String> allowedTables = new LinkedHashSet<>();
        private final Map<String, Set<String>> deniedColumns = new LinkedHashMap<>();
        private boolean allowSelectStar;
        private int maxRows = DEFAULT_MAX_ROWS;
        private int maxSqlLength = DEFAULT_MAX_SQL_LENGTH;
        private long maxExpandedBytes = DEFAULT_MAX_EXPANDED_BYTES;
        private final Set<String> allowedTablesAsWritten = new LinkedHashSet<>();
        private FunctionPolicy functionPolicy = FunctionPolicy.standard();
        private final List<RowFilter> rowFilters = new ArrayList<>();
        private int maxNestingDepth = DEFAULT_MAX_NESTING_DEPTH;
        private Duration parseTimeout = DEFAULT_PARSE_TIMEOUT;
        private final Set<String> knownTables = new LinkedHashSet<>();
        private final Map<String, Set<String>> tableColumns = new LinkedHashMap<>();
        private final Set<String> allowedSystemColumns = new LinkedHashSet<>();
        private final Set<String> fts5Tables = new LinkedHashSet<>();
        private final Map<String, Map<String, List<String>>> tableIndexes = new LinkedHashMap<>();
        private DatabaseObjects databaseObjects = DatabaseObjects.NONE;
        private final Set<String> allowedDatabaseFunctions = new LinkedHashSet<>();

        private Builder() {
        }

        /**
         * Names an index of a table and its key columns, in order. An index whose key holds a denied column (or
         * an expression, or a column the policy does not know) orders the rows of any read through it by
         * forbidden data: the guard refuses an index hint naming such an index (or any index, on a table with
         * denied columns whose indexes are not known) and, on MariaDB, MySQL, H2 and SQLite, writes every
         * reference to the table so that the engine cannot read through one; the engine check refuses a plan
         * that does (see {@code docs/security.md}). Naming a table's indexes with no key columns tells the
         * guard it has none ({@code tableIndex(t, null, List.of())}). {@code SqlAgent} fills them in from its
         * schema catalog.
         *
         * @param table the table, perhaps schema-qualified, any case, as in {@link #allowTables}
         * @param index the index's name exactly as the database spells it (printed quoted), or null to only
         *     record that the table's indexes are known
         * @param keyColumns its key columns in order, any case; an empty string for an expression
         * @return this builder
         * @throws IllegalArgumentException if the table or the index name is blank
         */
        public Builder tableIndex(String table, String index, List<String> keyColumns) {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(keyColumns, "keyColumns");
            if (table.isBlank() || index != null && index.isBlank()) {
                throw new IllegalArgumentException("table and index names must not be blank");
            }
            Map<String, List<String>> indexes = tableIndexes.computeIfAbsent(normalise(table),
                    k -> new LinkedHashMap<>());
            if (index != null) {
                List<String> key = new ArrayList<>();
                for (String c : keyColumns) {
                    key.add(c == null || c.isBlank() ? "" : normalise(c));
                }
                indexes.put(index, List.copyOf(key));
            }
            return this;
        }

        /**
         * Tells the guard the functions, operators, aggregates, macros and types the database defines itself
         * ({@link DatabaseObjects#read}), which can take a built-in's name and run SQL of their own: a call or
         * operator any of them could bind is refused unless allowed with {@link #allowDatabaseFunction}, and a
         * cast to a table's row type is a read of that table. {@code SqlAgent} fills it in from the database.
         *
         * @param objects the database's own objects
         * @return this builder
         */
        public Builder databaseObjects(DatabaseObjects objects) {
            this.databaseObjects = Objects.requireNonNull(objects, "objects");
            return this;
        }

        /**
         * Allows functions or operators the database defines itself, each by its qualified name and argument
         * types: {@code "public.initcap(integer)"}, {@code "public.||(integer,integer)"} (PostgreSQL types as
         * {@code format_type} writes them), {@code "main.my_macro(any)"} (DuckDB). Without it every call of a
         * name the database defines, built-in or not, is refused, by the guard and by the engine check alike.
         *
         * @param signatures qualified names with argument types, any case
         * @return this builder
         * @throws IllegalArgumentException if a signature is blank or has no schema and argument list
         */
        public Builder allowDatabaseFunction(String... signatures) {
            Objects.requireNonNull(signatures, "signatures");
            for (String s : signatures) {
                Objects.requireNonNull(s, "signature");
                String n = DatabaseObjects.signature(s);
                int open = n.indexOf('(');
                if (open <= 0 || !n.endsWith(")") || n.substring(0, open).indexOf('.') <= 0) {
                    throw new IllegalArgumentException("a database function is allowed by schema, name and argument "
                            + "types, such as public.initcap(integer); got '" + s + "'");
                }
                allowedDatabaseFunctions.add(n);
            }
            return this;
        }

        /**
         * Names tables that are SQLite FTS5 full-text tables ({@code CREATE VIRTUAL TABLE t USING fts5(…)}).
         * On them, and only on them, the guard reads {@code t MATCH …}, the hidden columns {@code t} and
         * {@code rank}, and {@code bm25(t)}, {@code highlight(t, …)}, {@code snippet(t, …)}, each as a read of
         * the whole row (refused where the table has a denied column). Naming a table that is not one gives
         * nothing: SQLite refuses those forms on any other table. {@code SqlAgent} fills them in from its
         * schema catalog.
         *
         * @param tables the FTS5 tables, perhaps schema-qualified, any case, as in {@link #allowTables}
         * @return this builder
         * @throws IllegalArgumentException if a name is blank
         */
        public Builder fts5Tables(Collection<String> tables) {
            Objects.requireNonNull(tables, "tables");
            for (String t : tables) {
                Objects.requireNonNull(t, "table");
                if (t.isBlank()) {
                    throw new IllegalArgumentException("table name must not be blank");
                }
                fts5Tables.add(normalise(t));
            }
            return this;
        }

        /**
         * Names the columns a table has, so that the guard resolves every name of a statement against
         * them: a name that is no column of a table in scope, of a CTE or derived table, no select-list
         * alias and no function of the engine's catalog is refused, naming it. Denied columns count as
         * known (a statement naming one is refused as reading it). Calling it again for the same table
         * adds columns.
         *
         * @param table the table, perhaps schema-qualified, any case, as in {@link #allowTables}
         * @param columns every column it has, any case
         * @return this builder
         * @throws IllegalArgumentException if a name is blank
         */
        public Builder tableColumns(String table, Collection<String> columns) {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(columns, "columns");
            if (table.isBlank()) {
                throw new IllegalArgumentException("table name must not be blank");
            }
            Set<String> known = tableColumns.computeIfAbsent(normalise(table), k -> new LinkedHashSet<>());
            for (String c : columns) {
                Objects.requireNonNull(c, "column");
                if (c.isBlank()) {
                    throw new IllegalArgumentException("column name of " + table + " must not be blank");
                }
                known.add(normalise(c));
            }
            return this;
        }

        /**
         * Allows reading system columns the engine adds to every table (PostgreSQL's {@code ctid},
         * {@code tableoid}, {@code xmin}; SQLite's {@code rowid}; H2's {@code _rowid_}; MariaDB's
         * {@code _rowid}), which are refused by default. A row-id alias stays refused on a table with denied
         * columns, since it may be that column.
         *
         * @param columns system column names, any case
         * @return this builder
         * @throws IllegalArgumentException if a name is blank
         */
        public Builder allowSystemColumns(String... columns) {
            Objects.requireNonNull(columns, "columns");
            for (String c : columns) {
                Objects.requireNonNull(c, "column");
                if (c.isBlank()) {
                    throw new IllegalArgumentException("system column name must not be blank");
                }
                allowedSystemColumns.add(normalise(c));
            }
            return this;
        }

        /**
         * Names every table (and view) the database has, allowed or not, so that the guard can refuse a
         * CTE that shadows one (on H2 a recursive CTE reads the real table of its name). Without it only
         * the tables the policy names are protected that way, and recursive CTEs are refused on H2.
         *
         * @param tables the database's tables, perhaps schema-qualified, any case
         * @return this
         * @throws IllegalArgumentException if a name is blank
         */
        public Builder knownTables(Collection<String> tables) {
            Objects.requireNonNull(tables, "tables");
            for (String t : tables) {
                Objects.requireNonNull(t, "table");
                if (t.isBlank()) {
                    throw new IllegalArgumentException("table name must not be blank");
                }
                knownTables.add(normalise(t));
            }
            return this;
        }

        /**
         * Allows reading the given tables, in addition to those already allowed.
         *
         * @param tables tables that may be read, perhaps schema-qualified, any case; none blank
         * @return this builder
         * @throws IllegalArgumentException if a name is blank
         */
        public Builder allowTables(String... tables) {
            Objects.requireNonNull(tables, "tables");
            return allowTables(java.util.Arrays.asList(tables));
        }

        /**
         * Allows reading the given tables, in addition to those already allowed.
         *
         * @param tables tables that may be read, perhaps schema-qualified, any case; none blank
         * @return this builder
         * @throws IllegalArgumentException if a name is blank
         */
        public Builder allowTables(Collection<String> tables) {
            Objects.requireNonNull(tables, "tables");
            for (String t : tables) {
                Objects.requireNonNull(t, "table");
                if (t.isBlank()) {
                    throw new IllegalArgumentException("table name must not be blank");
                }
                allowedTables.add(normalise(t));
                allowedTablesAsWritten.add(t.trim());
            }
            return this;
        }

        /**
         * Denies one column of a table: SQL that reads it (by name, through an alias, a star or a whole-row
         * reference) is rejected.
         *
         * @param table the table
         * @param column a column of it that may never be read
         * @return this builder
         * @throws IllegalArgumentException if the table or the column is blank
         */
        public Builder denyColumn(String table, String column) {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(column, "column");
            if (table.isBlank() || column.isBlank()) {
                throw new IllegalArgumentException("denied column needs a table and a column but was '"
                        + table + "." + column + "'");
            }
            deniedColumns.computeIfAbsent(normalise(table), k -> new LinkedHashSet<>()).add(normalise(column));
            return this;
        }

        /**
         * Chooses whether {@code SELECT *} and {@code t.*} are allowed; by default they are not, since a
         * star reads whatever columns the table has.
         *
         * @param allow whether {@code SELECT *} is allowed
         * @return this builder
         */
        public Builder allowSelectStar(boolean allow) {
            this.allowSelectStar = allow;
            return this;
        }

        /**
         * Sets the row cap, added to the SQL as a limit when missing and enforced when larger; defaults to
         * {@value GuardPolicy#DEFAULT_MAX_ROWS}.
         *
         * @param maxRows row cap, at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code maxRows} is below 1
         */
        public Builder maxRows(int maxRows) {
            if (maxRows < 1) {
                throw new IllegalArgumentException("maxRows must be > 0 but was " + maxRows);
            }
            this.maxRows = maxRows;
            return this;
        }

        /**
         * Sets the longest SQL the guard accepts, in characters; defaults to
         * {@value GuardPolicy#DEFAULT_MAX_SQL_LENGTH}.
         *
         * @param maxSqlLength cap on SQL length, at least 16
         * @return this builder
         * @throws IllegalArgumentException if {@code maxSqlLength} is below 16
         */
        public Builder maxSqlLength(int maxSqlLength) {
            if (maxSqlLength < 16) {
                throw new IllegalArgumentException("maxSqlLength must be >= 16 but was " + maxSqlLength);
            }
            this.maxSqlLength = maxSqlLength;
            return this;
        }

        /**
         * Sets the cap on what one resource-expanding call may build (see {@link GuardPolicy#maxExpandedBytes()});
         * defaults to {@value GuardPolicy#DEFAULT_MAX_EXPANDED_BYTES} bytes.
         *
         * @param maxExpandedBytes the cap in bytes, at least 1; {@link Long#MAX_VALUE} turns the checks off
         * @return this builder
         * @throws IllegalArgumentException if {@code maxExpandedBytes} is below 1
         */
        public Builder maxExpandedBytes(long maxExpandedBytes) {
            if (maxExpandedBytes < 1) {
                throw new IllegalArgumentException("maxExpandedBytes must be >= 1 but was " + maxExpandedBytes);
            }
            this.maxExpandedBytes = maxExpandedBytes;
            return this;
        }

        /**
         * Sets which functions the SQL may call; defaults to {@link FunctionPolicy#standard()}.
         *
         * @param functions which functions may be called, not null
         * @return this builder
         * @throws NullPointerException if {@code functions} is null
         */
        public Builder functionPolicy(FunctionPolicy functions) {
            this.functionPolicy = Objects.requireNonNull(functions, "functionPolicy");
            return this;
        }

        /**
         * Adds a mandatory row filter {@code column = ?} on every read of {@code table}.
         *
         * @param table the table (must also be allowed)
         * @param column a plain column name
         * @param value the value bound to the placeholder
         * @return this
         * @throws IllegalArgumentException if a name is blank or the column is not a plain identifier
         */
        public Builder rowFilter(String table, String column, Object value) {
            rowFilters.add(new RowFilter(table, column, value));
            return this;
        }

        /**
         * Caps the nesting of parentheses, beyond which the parser's look-ahead may explode; defaults to
         * {@value GuardPolicy#DEFAULT_MAX_NESTING_DEPTH}.
         *
         * @param maxNestingDepth cap on nesting of parentheses, 1 to 200
         * @return this builder
         * @throws IllegalArgumentException if {@code maxNestingDepth} is out of range
         */
        public Builder maxNestingDepth(int maxNestingDepth) {
            if (maxNestingDepth < 1 || maxNestingDepth > 200) {
                throw new IllegalArgumentException("maxNestingDepth must be in 1..200 but was " + maxNestingDepth);
            }
            this.maxNestingDepth = maxNestingDepth;
            return this;
        }

        /**
         * Caps the time the parser may take for one SQL; defaults to {@link GuardPolicy#DEFAULT_PARSE_TIMEOUT}.
         *
         * @param parseTimeout cap on parse time, positive
         * @return this builder
         * @throws IllegalArgumentException if {@code parseTimeout} is zero or negative
         */
        public Builder parseTimeout(Duration parseTimeout) {
            Objects.requireNonNull(parseTimeout, "parseTimeout");
            if (parseTimeout.isNegative() || parseTimeout.isZero()) {
                throw new IllegalArgumentException("parseTimeout must be > 0 but was " + parseTimeout);
            }
            this.parseTimeout = parseTimeout;
            return this;
        }

        /**
         * Builds the immutable policy from the values set so far.
         *
         * @return the policy
         * @throws IllegalStateException if no table is allowed, or a row filter names a table not allowed
         */
        public GuardPolicy build() {
            if (allowedTables.isEmpty()) {
                throw new IllegalStateException("a guard policy must allow at least one table (allowTables)");
            }
            for (RowFilter f : rowFilters) {
                if (!allowedTables.contains(f.table())) {
                    throw new IllegalStateException("row filter on table '" + f.table()
                            + "' which the policy does not allow; allowed: " + allowedTables);
                }
            }
            return new GuardPolicy(this);
        }
    }
}
