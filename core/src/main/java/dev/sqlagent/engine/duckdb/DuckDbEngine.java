package dev.sqlagent.engine.duckdb;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engine;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.EngineGuard;

/** DuckDB, in-process. */
public final class DuckDbEngine implements Engine {
    private final Dialect dialect;
    private final DuckDbGuard guard;
    private final DuckDbDatabase database;

    /** @param dialect the dialect served */
    public DuckDbEngine(Dialect dialect) {
        this.dialect = dialect;
        this.guard = new DuckDbGuard(dialect);
        this.database = new DuckDbDatabase(dialect);
    }

    @Override
    public Dialect dialect() {
        return dialect;
    }

    @Override
    public EngineGuard guard() {
        return guard;
    }

    @Override
    public EngineDatabase database() {
        return database;
    }
}
