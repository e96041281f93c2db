package dev.sqlagent.engine;

import dev.sqlagent.Dialect;

/**
 * One database engine, as the library governs it: everything that differs between engines lives behind this
 * interface, in the engine's own package ({@code dev.sqlagent.engine.h2}, {@code …sqlite}, {@code …postgres},
 * {@code …mariadb}, {@code …duckdb}, {@code …generic}). Shared code (the guard's analysis, the engine check, the
 * executor, the privilege audit) asks {@link Engines#of(Dialect)} for the engine and calls it; it never names an
 * engine itself ({@code EngineArchitectureTest} says so).
 *
 * <p>The interface has two sides, so that what the guard needs without a database stays apart from what needs
 * one:
 * <ul>
 *   <li>{@link #guard()}: how the guard reads the engine's SQL (respellings before the parser and back, name
 *       identity rules, the function catalog, the constructs analysed only on this engine);</li>
 *   <li>{@link #database()}: how the library talks to the engine's database (reading a plan for the engine
 *       check, the read-only bounded session, its error codes, the privilege audit, catalog reading).</li>
 * </ul>
 *
 * <p>Adding an engine is a new package with one {@code Engine} and one line in {@link Engines}.
 */
public interface Engine {

    /** {@return the dialect this engine serves (an engine may serve several: MariaDB's serves MySQL too)} */
    Dialect dialect();

    /** {@return how the guard reads this engine's SQL} */
    EngineGuard guard();

    /** {@return how the library talks to this engine's database} */
    EngineDatabase database();
}
