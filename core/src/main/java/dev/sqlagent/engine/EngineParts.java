package dev.sqlagent.engine;

import dev.sqlagent.Dialect;
import java.util.Objects;

/**
 * An {@link Engine} made of its two sides: each engine package's {@code Engine} extends this with its own
 * {@link EngineGuard} and {@link EngineDatabase}, which stay package-private there.
 */
public abstract class EngineParts implements Engine {
    private final Dialect dialect;
    private final EngineGuard guard;
    private final EngineDatabase database;

    /**
     * @param dialect the dialect served
     * @param guard how the guard reads the engine's SQL
     * @param database how the library talks to the engine's database
     */
    protected EngineParts(Dialect dialect, EngineGuard guard, EngineDatabase database) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.guard = Objects.requireNonNull(guard, "guard");
        this.database = Objects.requireNonNull(database, "database");
    }

    @Override
    public final Dialect dialect() {
        return dialect;
    }

    @Override
    public final EngineGuard guard() {
        return guard;
    }

    @Override
    public final EngineDatabase database() {
        return database;
    }
}
