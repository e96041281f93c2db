package dev.sqlagent.engine.mariadb;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engine;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.EngineGuard;

/** MariaDB, and MySQL (constructed with {@link Dialect#MYSQL}): one protocol and one set of error codes. */
public final class MariaDbEngine implements Engine {
    private final Dialect dialect;
    private final MariaDbGuard guard;
    private final MariaDbDatabase database;

    /** @param dialect the dialect served */
    public MariaDbEngine(Dialect dialect) {
        this.dialect = dialect;
        this.guard = new MariaDbGuard(dialect);
        this.database = new MariaDbDatabase(dialect);
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
