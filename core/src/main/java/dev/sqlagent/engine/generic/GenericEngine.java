package dev.sqlagent.engine.generic;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineParts;

/** SQL Server, Oracle and any other engine: experimental, parse-only (no engine runs them in the project's tests). */
public final class GenericEngine extends EngineParts {
    /** @param dialect the dialect served */
    public GenericEngine(Dialect dialect) {
        super(dialect, new GenericGuard(dialect), new GenericDatabase(dialect));
    }
}
