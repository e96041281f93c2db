package dev.sqlagent.engine.duckdb;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineParts;

/** DuckDB, in-process. */
public final class DuckDbEngine extends EngineParts {
    /** @param dialect the dialect served */
    public DuckDbEngine(Dialect dialect) {
        super(dialect, new DuckDbGuard(dialect), new DuckDbDatabase(dialect));
    }
}
