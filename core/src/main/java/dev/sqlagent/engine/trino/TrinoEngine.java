package dev.sqlagent.engine.trino;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engine;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.EngineGuard;

/** Trino: a coordinator and workers over many catalogs, reached with the host's Trino JDBC driver. */
public final class TrinoEngine implements Engine {
    private final Dialect dialect;
    private final TrinoGuard guard;
    private final TrinoDatabase database;

    /** @param dialect the dialect served */
    public TrinoEngine(Dialect dialect) {
        this.dialect = dialect;
        this.guard = new TrinoGuard();
        this.database = new TrinoDatabase();
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
