package dev.sqlagent.engine.postgres;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineParts;

/** PostgreSQL. */
public final class PostgresEngine extends EngineParts {
    /** @param dialect the dialect served */
    public PostgresEngine(Dialect dialect) {
        super(dialect, new PostgresGuard(dialect), new PostgresDatabase(dialect));
    }
}
