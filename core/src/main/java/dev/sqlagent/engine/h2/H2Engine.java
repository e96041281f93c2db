package dev.sqlagent.engine.h2;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engine;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.EngineGuard;

/** H2, in-process. */
public final class H2Engine implements Engine {
    private final Dialect dialect;
    private final H2Guard guard;
    private final H2Database database;

    /** @param dialect the dialect served */
    public H2Engine(Dialect dialect) {
        this.dialect = dialect;
        this.guard = new H2Guard(dialect);
        this.database = new H2Database(dialect);
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
