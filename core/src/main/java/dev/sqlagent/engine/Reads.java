package dev.sqlagent.engine;

import dev.sqlagent.guard.engine.EngineReading;
import java.util.LinkedHashSet;
import java.util.Set;

/** What a reader has found so far in one plan; becomes an {@link EngineReading}. Not thread-safe. */
public final class Reads {

    /**
     * Marks, in {@link EngineReading#functions()}, a function, operator or macro the database defines itself,
     * followed by its signature ({@code public.initcap(integer)}): allowed only when the policy names it
     * ({@code GuardPolicy.Builder.allowDatabaseFunction}).
     */
    public static final String DATABASE_FUNCTION = "database's own:";
    /** Marks, in {@link EngineReading#functions()}, a cast to a catalog type, followed by the type. */
    public static final String CATALOG_CAST = "cast to catalog type:";

    public final Set<EngineReading.Table> tables = new LinkedHashSet<>();
    public final Set<EngineReading.ColumnRead> columns = new LinkedHashSet<>();
    public final Set<String> functions = new LinkedHashSet<>();
    public final Set<String> writes = new LinkedHashSet<>();
    public final Set<EngineReading.ColumnRead> systemColumns = new LinkedHashSet<>();
    public final Set<EngineReading.ColumnRead> possibleColumns = new LinkedHashSet<>();
    public final Set<String> unreadable = new LinkedHashSet<>();
    public final Set<EngineReading.StarRead> starReads = new LinkedHashSet<>();
    /** Types the plan casts to, as printed (PostgreSQL); resolved in the catalog before the reading is made. */
    public final Set<String> types = new LinkedHashSet<>();

    /** @param what something in the plan the reader cannot map, named so a person can find it */
    public void unreadable(String what) {
        unreadable.add(what);
    }

    /** @param other another reading whose findings count as this one's (a view's definition) */
    public void add(EngineReading other) {
        tables.addAll(other.tables());
        columns.addAll(other.columns());
        functions.addAll(other.functions());
        writes.addAll(other.writes());
        systemColumns.addAll(other.systemColumns());
        possibleColumns.addAll(other.possibleColumns());
        unreadable.addAll(other.unreadable());
        starReads.addAll(other.starReads());
    }

    public EngineReading reading() {
        return new EngineReading(tables, columns, functions, writes, true, systemColumns, possibleColumns, unreadable,
                starReads);
    }
}
