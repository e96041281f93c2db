package dev.sqlagent.guard.engine;

import java.util.LinkedHashSet;
import java.util.Set;

/** What a reader has found so far in one plan; becomes an {@link EngineReading}. Not thread-safe. */
final class Reads {

    final Set<EngineReading.Table> tables = new LinkedHashSet<>();
    final Set<EngineReading.ColumnRead> columns = new LinkedHashSet<>();
    final Set<String> functions = new LinkedHashSet<>();
    final Set<String> writes = new LinkedHashSet<>();
    final Set<EngineReading.ColumnRead> systemColumns = new LinkedHashSet<>();
    final Set<EngineReading.ColumnRead> possibleColumns = new LinkedHashSet<>();
    final Set<String> unreadable = new LinkedHashSet<>();
    final Set<EngineReading.StarRead> starReads = new LinkedHashSet<>();
    /** Types the plan casts to, as printed (PostgreSQL); resolved in the catalog before the reading is made. */
    final Set<String> types = new LinkedHashSet<>();

    /** @param what something in the plan the reader cannot map, named so a person can find it */
    void unreadable(String what) {
        unreadable.add(what);
    }

    /** @param other another reading whose findings count as this one's (a view's definition) */
    void add(EngineReading other) {
        tables.addAll(other.tables());
        columns.addAll(other.columns());
        functions.addAll(other.functions());
        writes.addAll(other.writes());
        systemColumns.addAll(other.systemColumns());
        possibleColumns.addAll(other.possibleColumns());
        unreadable.addAll(other.unreadable());
        starReads.addAll(other.starReads());
    }

    EngineReading reading() {
        return new EngineReading(tables, columns, functions, writes, true, systemColumns, possibleColumns, unreadable,
                starReads);
    }
}
