package dev.sqlagent.engine.mariadb;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineParts;

/** MariaDB, and MySQL (constructed with {@link Dialect#MYSQL}): one protocol and one set of error codes. */
public final class MariaDbEngine extends EngineParts {
    /** @param dialect the dialect served */
    public MariaDbEngine(Dialect dialect) {
        super(dialect, new MariaDbGuard(dialect), new MariaDbDatabase(dialect));
    }
}
