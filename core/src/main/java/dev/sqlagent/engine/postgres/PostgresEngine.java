package dev.sqlagent.engine.postgres;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engine;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.EngineGuard;

/** PostgreSQL. */
public final class PostgresEngine implements Engine {
    private final Dialect dialect;
    private final PostgresGuard guard;
    private final PostgresDatabase database;

    /** @param dialect the dialect served */
    public PostgresEngine(Dialect dialect) {
        this.dialect = dialect;
        this.guard = new PostgresGuard(dialect);
        this.database = new PostgresDatabase(dialect);
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
