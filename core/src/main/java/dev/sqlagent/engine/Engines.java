package dev.sqlagent.engine;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.duckdb.DuckDbEngine;
import dev.sqlagent.engine.generic.GenericEngine;
import dev.sqlagent.engine.h2.H2Engine;
import dev.sqlagent.engine.mariadb.MariaDbEngine;
import dev.sqlagent.engine.postgres.PostgresEngine;
import dev.sqlagent.engine.sqlite.SqliteEngine;
import dev.sqlagent.engine.trino.TrinoEngine;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The registry: one line per engine. This file and {@link Dialect}'s constants are the only shared places that
 * name an engine.
 */
public final class Engines {
    private static final Map<Dialect, Engine> ENGINES = new EnumMap<>(Dialect.class);

    static {
        register(new H2Engine(Dialect.H2));
        register(new SqliteEngine(Dialect.SQLITE));
        register(new PostgresEngine(Dialect.POSTGRESQL));
        register(new MariaDbEngine(Dialect.MARIADB));
        register(new MariaDbEngine(Dialect.MYSQL));
        register(new DuckDbEngine(Dialect.DUCKDB));
        register(new TrinoEngine(Dialect.TRINO));
        register(new GenericEngine(Dialect.SQLSERVER));
        register(new GenericEngine(Dialect.ORACLE));
        register(new GenericEngine(Dialect.GENERIC));
    }

    private Engines() {
    }

    private static void register(Engine engine) {
        ENGINES.put(engine.dialect(), engine);
    }

    /**
     * @param dialect a dialect
     * @return its engine
     */
    public static Engine of(Dialect dialect) {
        Engine e = ENGINES.get(Objects.requireNonNull(dialect, "dialect"));
        if (e == null) {
            throw new IllegalStateException("no engine registered for " + dialect);
        }
        return e;
    }
}
