package dev.sqlagent.engine.h2;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineGuard;

/** How the guard reads H2's SQL. */
final class H2Guard implements EngineGuard {
    private final Dialect dialect;

    H2Guard(Dialect dialect) {
        this.dialect = dialect;
    }
}
