package dev.sqlagent.engine.duckdb;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.PlanReader;
import java.util.Optional;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

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

    @Override
    public boolean beginsTransaction(boolean autoCommit) {
        return true;
    }

    /**
     * The driver cannot change an open connection's read-only flag; a read-only transaction refuses every
     * write, DDL included.
     */
    @Override
    public boolean enterReadOnly(Connection c, boolean begun) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("BEGIN TRANSACTION READ ONLY");
        }
        return false;
    }

    @Override
    public List<String> driverPackages() {
        return List.of("org.duckdb.");
    }
}
