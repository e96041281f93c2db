package dev.sqlagent.guard.engine;

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
 * @param tables the tables (and views the engine did not expand) the plan opens
 * @param columns the columns the plan reads, where the engine shows them (see {@link #columnsKnown()})
 * @param functions the functions the plan calls, by the engine's name for them
 * @param writes what in the plan writes or locks (opcodes, node types, statement kinds); empty for a read
 * @param columnsKnown whether the engine shows the columns it reads; when false {@code columns} is empty
 *     and only tables, functions and writes are compared
 */
public record EngineReading(Set<Table> tables, Set<ColumnRead> columns, Set<String> functions, Set<String> writes,
                            boolean columnsKnown) {

    /**
     * Copies the sets, keeping their order.
     *
     * @param tables the tables (and views the engine did not expand) the plan opens
     * @param columns the columns the plan reads, where the engine shows them (see {@link #columnsKnown()})
     * @param functions the functions the plan calls, by the engine's name for them
     * @param writes what in the plan writes or locks (opcodes, node types, statement kinds); empty for a read
     * @param columnsKnown whether the engine shows the columns it reads; when false {@code columns} is empty
     *     and only tables, functions and writes are compared
     */
    public EngineReading {
        tables = Set.copyOf(new LinkedHashSet<>(tables));
        columns = Set.copyOf(new LinkedHashSet<>(columns));
        functions = Set.copyOf(new LinkedHashSet<>(functions));
        writes = Set.copyOf(new LinkedHashSet<>(writes));
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
     * @param column its name, lower case; a row id pseudo-column the engine reads is named {@code rowid}
     *     unless the table has an integer primary key it aliases, which is then named
     */
    public record ColumnRead(Table table, String column) {
        /**
         * Lower-cases the name.
         *
         * @param table its table
         * @param column its name, lower case; a row id pseudo-column the engine reads is named {@code rowid}
         *     unless the table has an integer primary key it aliases, which is then named
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

    /** {@return a stable one-line description, for logs: tables, columns, functions and writes, sorted} */
    public String describe() {
        TreeSet<String> t = new TreeSet<>();
        tables.forEach(x -> t.add(x.qualified()));
        TreeSet<String> c = new TreeSet<>();
        columns.forEach(x -> c.add(x.toString()));
        return "tables=" + t + (columnsKnown ? " columns=" + c : " columns=unknown") + " functions="
                + new TreeSet<>(functions) + (writes.isEmpty() ? "" : " writes=" + new TreeSet<>(writes));
    }
}
