package dev.sqlagent.engine.trino;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineParts;

/** Trino: a coordinator and workers over many catalogs, reached with the host's Trino JDBC driver. */
public final class TrinoEngine extends EngineParts {
    /** @param dialect the dialect served */
    public TrinoEngine(Dialect dialect) {
        super(dialect, new TrinoGuard(), new TrinoDatabase());
    }
}
