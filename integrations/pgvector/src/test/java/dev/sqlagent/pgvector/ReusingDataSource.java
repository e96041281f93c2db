package dev.sqlagent.pgvector;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source that gives back connections it opened before, as a host's pool does: closing one returns it
 * (rolled back and in auto-commit mode) for the next borrower, and a broken one is dropped. The contract opens
 * thousands of connections one statement at a time (a thousand adds and searches in one test); opening each
 * anew cost PostgreSQL's backend start, about 30 ms here, four of the module's five minutes.
 */
final class ReusingDataSource implements DataSource {

    private final DataSource opener;
    private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();

    ReusingDataSource(DataSource opener) {
        this.opener = opener;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection physical = idle.pollFirst();
        if (physical == null || physical.isClosed()) {
            physical = opener.getConnection();
        }
        Connection borrowed = physical;
        boolean[] returned = {false};
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "close":
                            if (!returned[0]) {
                                returned[0] = true;
                                giveBack(borrowed);
                            }
                            return null;
                        case "isClosed":
                            return returned[0] || borrowed.isClosed();
                        case "unwrap":
                            return ((Class<?>) args[0]).isInstance(proxy) ? proxy : borrowed.unwrap((Class<?>) args[0]);
                        case "isWrapperFor":
                            return ((Class<?>) args[0]).isInstance(proxy) || borrowed.isWrapperFor((Class<?>) args[0]);
                        case "equals":
                            return proxy == args[0];
                        case "hashCode":
                            return System.identityHashCode(proxy);
                        default:
                            if (returned[0]) {
                                throw new SQLException("connection is closed");
                            }
                            try {
                                return method.invoke(borrowed, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                    }
                });
    }

    private void giveBack(Connection c) throws SQLException {
        try {
            if (!c.isClosed() && !c.getAutoCommit()) {
                c.rollback();
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            c.close();
            return;
        }
        if (!c.isClosed()) {
            idle.addFirst(c);
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("one login only");
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
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return false;
    }
}
