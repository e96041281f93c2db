package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.DuckDbFiles;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.engine.EngineCheck;
import dev.sqlagent.guard.engine.EngineReading;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * An in-memory DuckDB for the guard's DuckDB tests, as a host opens one ({@link DuckDbFiles}, locked down, no
 * files registered), with the test's tables made through one connection kept open, and the engine check over
 * it.
 */
final class DuckDbMemory implements AutoCloseable {

    private final DuckDbFiles database;
    private final Connection connection;

    private DuckDbMemory(DuckDbFiles database, Connection connection) {
        this.database = database;
        this.connection = connection;
    }

    /**
     * @param setup statements run once (tables and rows)
     * @return the open database
     */
    static DuckDbMemory open(String... setup) throws SQLException {
        DuckDbFiles database = DuckDbFiles.builder().open();
        Connection c = database.getConnection();
        try (Statement s = c.createStatement()) {
            for (String sql : setup) {
                s.execute(sql);
            }
        }
        return new DuckDbMemory(database, c);
    }

    /** {@return the connection the tests run statements on} */
    Connection connection() {
        return connection;
    }

    /** {@return the database, whose connections share the test's tables} */
    DuckDbFiles dataSource() {
        return database;
    }

    /** {@return the engine's reading of a statement, on this database} */
    EngineReading read(SqlStatement statement) throws SQLException {
        return EngineCheck.create(database, Dialect.DUCKDB).read(connection, statement);
    }

    /** {@return what the engine check finds outside the policy in a statement; empty when nothing} */
    List<String> disagreements(SqlStatement statement, GuardPolicy policy) throws SQLException {
        return EngineCheck.disagreements(read(statement), policy, Dialect.DUCKDB);
    }

    @Override
    public void close() throws SQLException {
        connection.close();
        database.close();
    }
}
