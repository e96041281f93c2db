package dev.sqlagent.engine.mariadb;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineGuard;

/** How the guard reads MariaDB or MySQL's SQL. */
final class MariaDbGuard implements EngineGuard {
    private final Dialect dialect;

    MariaDbGuard(Dialect dialect) {
        this.dialect = dialect;
    }
}
