package dev.sqlagent.engine.h2;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineParts;

/** H2, in-process. */
public final class H2Engine extends EngineParts {
    /** @param dialect the dialect served */
    public H2Engine(Dialect dialect) {
        super(dialect, new H2Guard(dialect), new H2Database(dialect));
    }
}
