package dev.sqlagent.engine.generic;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineGuard;

/** How the guard reads parse-only's SQL. */
final class GenericGuard implements EngineGuard {
    private final Dialect dialect;

    GenericGuard(Dialect dialect) {
        this.dialect = dialect;
    }
}
