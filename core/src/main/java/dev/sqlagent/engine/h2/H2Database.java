package dev.sqlagent.engine.h2;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.PlanReader;
import java.util.Optional;
import java.util.List;

/** How the library talks to a H2 database. */
final class H2Database implements EngineDatabase {
    private final Dialect dialect;

    H2Database(Dialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public Optional<PlanReader> planReader() {
        return Optional.of(new H2Reader());
    }

    @Override
    public List<String> driverPackages() {
        return List.of("org.h2.");
    }
}
