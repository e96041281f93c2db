package dev.sqlagent.engine.sqlite;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;

/** How the library talks to a SQLite database. */
final class SqliteDatabase implements EngineDatabase {
    private final Dialect dialect;

    SqliteDatabase(Dialect dialect) {
        this.dialect = dialect;
    }
}
