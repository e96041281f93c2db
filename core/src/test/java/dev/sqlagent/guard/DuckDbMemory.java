package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.engine.EngineCheck;
import dev.sqlagent.guard.engine.EngineReading;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.duckdb.DuckDBConnection;

/**
 * An in-memory DuckDB for the guard's DuckDB tests: one connection, a data source whose connections are
 * duplicates of it (they share its database), and the engine check over it.
 */
final class DuckDbMemory implements DataSource, AutoCloseable {

    private final DuckDBConnection connection;

    private DuckDbMemory(DuckDBConnection connection) {
        this.connection = connection;
    }

    /**
     * @param setup statements run once (tables and rows)
     * @return the open database
     */
    static DuckDbMemory open(String... setup) throws SQLException {
        DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = c.createStatement()) {
            for (String sql : setup) {
                s.execute(sql);
            }
        }
        return new DuckDbMemory(c);
    }

    /** {@return the connection the tests run statements on} */
    Connection connection() {
        return connection;
    }

    /** {@return the engine's reading of a statement, on this database} */
    EngineReading read(SqlStatement statement) throws SQLException {
        return EngineCheck.create(this, Dialect.DUCKDB).read(connection, statement);
    }

    /** {@return the engine's reading of a statement without parameters} */
    EngineReading read(String sql) throws SQLException {
        return read(new SqlStatement(sql, List.of()));
    }

    /** {@return what the engine check finds outside the policy in a statement; empty when nothing} */
    List<String> disagreements(SqlStatement statement, GuardPolicy policy) throws SQLException {
        return EngineCheck.disagreements(read(statement), policy, Dialect.DUCKDB);
    }

    @Override
    public Connection getConnection() throws SQLException {
        return connection.duplicate();
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
    }

    @Override
    public void setLoginTimeout(int seconds) {
    }

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() {
        return Logger.getGlobal();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return false;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
