package dev.sqlagent.engine.postgres;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.PlanReader;
import java.util.Optional;

/** How the library talks to a PostgreSQL database. */
final class PostgresDatabase implements EngineDatabase {
    private final Dialect dialect;

    PostgresDatabase(Dialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public Optional<PlanReader> planReader() {
        return Optional.of(new PostgresReader());
    }

    @Override
    public boolean readsOwnFunctionsByIdentity() {
        return true;
    }

    @Override
    public boolean networked() {
        return true;
    }
}
