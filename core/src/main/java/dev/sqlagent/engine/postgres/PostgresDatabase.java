package dev.sqlagent.engine.postgres;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;

/** How the library talks to a PostgreSQL database. */
final class PostgresDatabase implements EngineDatabase {
    private final Dialect dialect;

    PostgresDatabase(Dialect dialect) {
        this.dialect = dialect;
    }
}
