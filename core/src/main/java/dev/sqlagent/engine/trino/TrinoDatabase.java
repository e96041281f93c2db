package dev.sqlagent.engine.trino;

import dev.sqlagent.engine.EngineDatabase;

/** How the library talks to a Trino cluster. */
final class TrinoDatabase implements EngineDatabase {
}
