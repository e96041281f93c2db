package dev.sqlagent.engine.mariadb;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;

/** How the library talks to a MariaDB or MySQL database. */
final class MariaDbDatabase implements EngineDatabase {
    private final Dialect dialect;

    MariaDbDatabase(Dialect dialect) {
        this.dialect = dialect;
    }
}
