package dev.sqlagent.engine.postgres;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineGuard;

/** How the guard reads PostgreSQL's SQL. */
final class PostgresGuard implements EngineGuard {
    private final Dialect dialect;

    PostgresGuard(Dialect dialect) {
        this.dialect = dialect;
    }
}
