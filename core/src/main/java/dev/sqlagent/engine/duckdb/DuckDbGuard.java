package dev.sqlagent.engine.duckdb;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineGuard;

/** How the guard reads DuckDB's SQL. */
final class DuckDbGuard implements EngineGuard {
    private final Dialect dialect;

    DuckDbGuard(Dialect dialect) {
        this.dialect = dialect;
    }
}
