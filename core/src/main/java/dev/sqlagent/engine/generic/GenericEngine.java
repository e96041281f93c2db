package dev.sqlagent.engine.generic;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engine;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.EngineGuard;

/** SQL Server, Oracle and any other engine: experimental, parse-only (no engine runs them in the project's tests). */
public final class GenericEngine implements Engine {
    private final Dialect dialect;
    private final GenericGuard guard;
    private final GenericDatabase database;

    /** @param dialect the dialect served */
    public GenericEngine(Dialect dialect) {
        this.dialect = dialect;
        this.guard = new GenericGuard(dialect);
        this.database = new GenericDatabase(dialect);
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
