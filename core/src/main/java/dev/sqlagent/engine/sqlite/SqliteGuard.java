package dev.sqlagent.engine.sqlite;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineGuard;

/** How the guard reads SQLite's SQL. */
final class SqliteGuard implements EngineGuard {
    private final Dialect dialect;

    SqliteGuard(Dialect dialect) {
        this.dialect = dialect;
    }
}
