package dev.sqlagent.engine.h2;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;

/** How the library talks to a H2 database. */
final class H2Database implements EngineDatabase {
    private final Dialect dialect;

    H2Database(Dialect dialect) {
        this.dialect = dialect;
    }
}
