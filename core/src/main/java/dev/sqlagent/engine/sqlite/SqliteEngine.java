package dev.sqlagent.engine.sqlite;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineParts;

/** SQLite 3, in-process. */
public final class SqliteEngine extends EngineParts {
    /** @param dialect the dialect served */
    public SqliteEngine(Dialect dialect) {
        super(dialect, new SqliteGuard(dialect), new SqliteDatabase(dialect));
    }
}
