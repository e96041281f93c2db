package dev.sqlagent.engine.generic;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;
import java.util.List;

/** How the library talks to a parse-only database. */
final class GenericDatabase implements EngineDatabase {
    private final Dialect dialect;

    GenericDatabase(Dialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public List<String> driverPackages() {
        return switch (dialect) {
            case SQLSERVER -> List.of("com.microsoft.sqlserver.");
            case ORACLE -> List.of("oracle.");
            default -> List.of();
        };
    }
}
