package dev.sqlagent.guard.engine;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the database engine's own planner says a statement reads, from its plan, without running it.
 * Names are lower case.
 *
 * <p>A reading is closed-world: whatever in the plan the reader could not map to a table, a column, a
 * function or a write it knows is listed in {@link #unreadable()}, and {@link EngineCheck} refuses the
 * statement for it. A whole-row value the plan computes ({@code t.*}, a row variable) is read as every
 * column of its table.
 *
 * @param tables the tables (and views the engine did not expand) the plan opens
 * @param columns the columns the plan reads, where the engine shows them (see {@link #columnsKnown()})
 * @param functions the functions the plan calls, by the engine's name for them
 * @param writes what in the plan writes or locks (opcodes, node types, statement kinds); empty for a read
 * @param columnsKnown whether the engine shows the columns it reads; when false {@code columns} is empty
 *     and only tables, functions and writes are compared
 * @param systemColumns the engine's system columns the plan reads ({@code ctid}, {@code tableoid},
 *     {@code _rowid_}, SQLite's {@code rowid} of a table without an integer primary key …)
 * @param possibleColumns columns the plan may read without printing them (a PostgreSQL sub-plan's hidden
 *     comparison with the outer row); each counts as read
 * @param unreadable what in the plan the reader could not map (a node type, an expression shape, a name that
 *     resolves to nothing), each named; not empty means the statement is refused
 * @param starReads tables read whole, every column but those named ({@code *}, {@code t.*}, DuckDB's
 *     {@code * EXCLUDE (…)}, {@code COLUMNS(*)}, a whole-row reference), where the reader does not know the
 *     table's columns: each counts as reading every column of the table it does not except
 */
public record EngineReading(Set<Table> tables, Set<ColumnRead> columns, Set<String> functions, Set<String> writes,
                            boolean columnsKnown, Set<ColumnRead> systemColumns, Set<ColumnRead> possibleColumns,
                            Set<String> unreadable, Set<StarRead> starReads) {

    /**
     * Copies the sets, keeping their order.
     *
     * @param tables the tables (and views the engine did not expand) the plan opens
     * @param columns the columns the plan reads, where the engine shows them (see {@link #columnsKnown()})
     * @param functions the functions the plan calls, by the engine's name for them
     * @param writes what in the plan writes or locks (opcodes, node types, statement kinds); empty for a read
     * @param columnsKnown whether the engine shows the columns it reads; when false {@code columns} is empty
     *     and only tables, functions and writes are compared
     * @param systemColumns the engine's system columns the plan reads
     * @param possibleColumns columns the plan may read without printing them; each counts as read
     * @param unreadable what in the plan the reader could not map, each named
     * @param starReads tables read whole, every column but those named
     */
    public EngineReading {
        starReads = Set.copyOf(new LinkedHashSet<>(starReads));
        tables = Set.copyOf(new LinkedHashSet<>(tables));
        columns = Set.copyOf(new LinkedHashSet<>(columns));
        functions = Set.copyOf(new LinkedHashSet<>(functions));
        writes = Set.copyOf(new LinkedHashSet<>(writes));
        systemColumns = Set.copyOf(new LinkedHashSet<>(systemColumns));
        possibleColumns = Set.copyOf(new LinkedHashSet<>(possibleColumns));
        unreadable = Set.copyOf(new LinkedHashSet<>(unreadable));
    }

    /**
     * A reading without tables read whole: every column it reads is named.
     *
     * @param tables the tables (and views the engine did not expand) the plan opens
     * @param columns the columns the plan reads, where the engine shows them (see {@link #columnsKnown()})
     * @param functions the functions the plan calls, by the engine's name for them
     * @param writes what in the plan writes or locks (opcodes, node types, statement kinds); empty for a read
     * @param columnsKnown whether the engine shows the columns it reads
     * @param systemColumns the engine's system columns the plan reads
     * @param possibleColumns columns the plan may read without printing them; each counts as read
     * @param unreadable what in the plan the reader could not map, each named
     */
    public EngineReading(Set<Table> tables, Set<ColumnRead> columns, Set<String> functions, Set<String> writes,
                         boolean columnsKnown, Set<ColumnRead> systemColumns, Set<ColumnRead> possibleColumns,
                         Set<String> unreadable) {
        this(tables, columns, functions, writes, columnsKnown, systemColumns, possibleColumns, unreadable, Set.of());
    }

    /**
     * A reading without system columns and with nothing unreadable.
     *
     * @param tables the tables (and views the engine did not expand) the plan opens
     * @param columns the columns the plan reads
     * @param functions the functions the plan calls, by the engine's name for them
     * @param writes what in the plan writes or locks; empty for a read
     * @param columnsKnown whether the engine shows the columns it reads
     */
    public EngineReading(Set<Table> tables, Set<ColumnRead> columns, Set<String> functions, Set<String> writes,
                         boolean columnsKnown) {
        this(tables, columns, functions, writes, columnsKnown, Set.of(), Set.of(), Set.of());
    }

    /**
     * The reading of a plan that could not be read at all: nothing but the reason.
     *
     * @param reason what could not be read
     * @return a reading whose only content is {@code reason} as unreadable
     */
    public static EngineReading unreadable(String reason) {
        return new EngineReading(Set.of(), Set.of(), Set.of(), Set.of(), true, Set.of(), Set.of(), Set.of(reason),
                Set.of());
    }

    /**
     * A table as the engine names it.
     *
     * @param schema its schema (database, attached file) as the engine names it, lower case; never null
     * @param name its name, lower case
     * @param resolvedUnqualified whether an unqualified reference to {@code name} on this connection
     *     resolves to this table (then a bare policy entry {@code name} covers it)
     */
    public record Table(String schema, String name, boolean resolvedUnqualified) {
        /**
         * Lower-cases the names.
         *
         * @param schema its schema (database, attached file) as the engine names it, lower case; never null
         * @param name its name, lower case
         * @param resolvedUnqualified whether an unqualified reference to {@code name} on this connection
         *     resolves to this table (then a bare policy entry {@code name} covers it)
         */
        public Table {
            schema = Objects.requireNonNull(schema, "schema").toLowerCase(Locale.ROOT);
            name = Objects.requireNonNull(name, "name").toLowerCase(Locale.ROOT);
        }

        /** {@return {@code schema.name}} */
        public String qualified() {
            return schema.isEmpty() ? name : schema + "." + name;
        }

        /**
         * {@return the names a policy may give this table: {@code schema.name}, and {@code name} when it
         * resolves unqualified}
         */
        List<String> policyKeys() {
            return resolvedUnqualified ? List.of(qualified(), name) : List.of(qualified());
        }

        @Override
        public String toString() {
            return qualified();
        }
    }

    /**
     * A column read.
     *
     * @param table its table
     * @param column its name, lower case; SQLite's row id is named as the integer primary key it aliases
     */
    public record ColumnRead(Table table, String column) {
        /**
         * Lower-cases the name.
         *
         * @param table its table
         * @param column its name, lower case; SQLite's row id is named as the integer primary key it aliases
         */
        public ColumnRead {
            Objects.requireNonNull(table, "table");
            column = Objects.requireNonNull(column, "column").toLowerCase(Locale.ROOT);
        }

        @Override
        public String toString() {
            return table.qualified() + "." + column;
        }
    }

    /**
     * A table read whole: every column of it but those excepted, for a reader that does not know the table's
     * columns (DuckDB's parser tree names no column a star expands to).
     *
     * @param table the table
     * @param except the columns it does not read, lower case (an {@code EXCLUDE} list); empty for all
     */
    public record StarRead(Table table, Set<String> except) {
        /**
         * Lower-cases and copies the names.
         *
         * @param table the table
         * @param except the columns it does not read, lower case; empty for all
         */
        public StarRead {
            Objects.requireNonNull(table, "table");
            TreeSet<String> names = new TreeSet<>();
            for (String e : except) {
                names.add(e.toLowerCase(Locale.ROOT));
            }
            except = Collections.unmodifiableSet(names);
        }

        @Override
        public String toString() {
            return table.qualified() + ".*" + (except.isEmpty() ? "" : " except " + except);
        }
    }

    /**
     * {@return a stable one-line description, for logs: tables, columns, system columns, possible columns,
     * functions, writes and what could not be read, sorted}
     */
    public String describe() {
        TreeSet<String> t = new TreeSet<>();
        tables.forEach(x -> t.add(x.qualified()));
        TreeSet<String> c = new TreeSet<>();
        columns.forEach(x -> c.add(x.toString()));
        TreeSet<String> s = new TreeSet<>();
        systemColumns.forEach(x -> s.add(x.toString()));
        TreeSet<String> p = new TreeSet<>();
        possibleColumns.forEach(x -> p.add(x.toString()));
        p.removeAll(c);
        TreeSet<String> w = new TreeSet<>();
        starReads.forEach(x -> w.add(x.toString()));
        return "tables=" + t + (columnsKnown ? " columns=" + c : " columns=unknown")
                + (s.isEmpty() ? "" : " systemColumns=" + s) + (p.isEmpty() ? "" : " possibleColumns=" + p)
                + (w.isEmpty() ? "" : " starReads=" + w)
                + " functions=" + new TreeSet<>(functions)
                + (writes.isEmpty() ? "" : " writes=" + new TreeSet<>(writes))
                + (unreadable.isEmpty() ? "" : " unreadable=" + new TreeSet<>(unreadable));
    }
}
