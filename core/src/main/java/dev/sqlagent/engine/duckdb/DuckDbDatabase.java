package dev.sqlagent.engine.duckdb;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.PlanReader;
import java.util.Optional;

/** How the library talks to a DuckDB database. */
final class DuckDbDatabase implements EngineDatabase {
    private final Dialect dialect;

    DuckDbDatabase(Dialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public Optional<PlanReader> planReader() {
        return Optional.of(new DuckDbReader());
    }

    @Override
    public boolean readsOwnFunctionsByIdentity() {
        return true;
    }
}
