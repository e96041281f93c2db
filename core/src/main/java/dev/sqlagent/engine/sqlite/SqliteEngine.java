package dev.sqlagent.engine.sqlite;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engine;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.EngineGuard;

/** SQLite 3, in-process. */
public final class SqliteEngine implements Engine {
    private final Dialect dialect;
    private final SqliteGuard guard;
    private final SqliteDatabase database;

    /** @param dialect the dialect served */
    public SqliteEngine(Dialect dialect) {
        this.dialect = dialect;
        this.guard = new SqliteGuard(dialect);
        this.database = new SqliteDatabase(dialect);
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
