package dev.sqlagent.engine.duckdb;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;

/** How the library talks to a DuckDB database. */
final class DuckDbDatabase implements EngineDatabase {
    private final Dialect dialect;

    DuckDbDatabase(Dialect dialect) {
        this.dialect = dialect;
    }
}
