package dev.sqlagent.engine.generic;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;

/** How the library talks to a parse-only database. */
final class GenericDatabase implements EngineDatabase {
    private final Dialect dialect;

    GenericDatabase(Dialect dialect) {
        this.dialect = dialect;
    }
}
