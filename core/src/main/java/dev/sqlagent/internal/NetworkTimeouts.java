package dev.sqlagent.internal;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Bounds every read of a call on a connection ({@link Connection#setNetworkTimeout}) and puts the
 * connection's own timeout back afterwards, so that a server or a network that stops answering holds no
 * thread of the library for longer than the call's bound: a statement timeout runs in the server and
 * needs the server's answer, which a partition never delivers. Used by every part of the library that
 * reads from a database: the executor, the engine check, the schema reads, the privilege audit, the case
 * sink and the fix store.
 *
 * <p>The driver is handed a direct executor: MySQL Connector/J applies the timeout through it, and would
 * apply it later on any other.
 */
public final class NetworkTimeouts {

    /**
     * How much longer than its statement timeout any one read of a call may take on a network engine: the
     * driver's own timeout gets a second, a cancel a second, and the abort after it a second.
     */
    public static final long GRACE_MILLIS = 3000;

    private NetworkTimeouts() {
    }

    /**
     * @param d a dialect
     * @return whether its engine is reached over the network (PostgreSQL, MariaDB, MySQL)
     */
    public static boolean networked(Dialect d) {
        return d != null && Engines.of(d).database().networked();
    }

    /**
     * Sets the network timeout on a connection to a network engine.
     *
     * @param c the connection
     * @param d its dialect; other engines are left untouched
     * @param millis the longest any one read may block, at least 1
     * @return the connection's old network timeout, or -1 when it was left untouched
     */
    public static int bind(Connection c, Dialect d, long millis) {
        return networked(d) ? bind(c, millis) : -1;
    }

    /**
     * Sets the network timeout on a connection of any engine (one without a network ignores or refuses it).
     *
     * @param c the connection
     * @param millis the longest any one read may block, at least 1
     * @return the connection's old network timeout, or -1 when the driver refused
     */
    public static int bind(Connection c, long millis) {
        try {
            int old = c.getNetworkTimeout();
            c.setNetworkTimeout(Runnable::run, (int) Math.max(1, Math.min(Integer.MAX_VALUE, millis)));
            return old;
        } catch (SQLException | RuntimeException | AbstractMethodError e) {
            return -1;
        }
    }

    /**
     * Puts back what {@link #bind} replaced.
     *
     * @param c the connection
     * @param old what {@link #bind} returned; -1 does nothing
     */
    public static void restore(Connection c, int old) {
        if (old < 0) {
            return;
        }
        try {
            if (!c.isClosed()) {
                c.setNetworkTimeout(Runnable::run, old);
            }
        } catch (SQLException | RuntimeException ignored) {
            // a broken connection is closed next; its pool discards it
        }
    }

    /**
     * Caps a timeout by what is left of the deadline of the question running on this thread.
     *
     * @param millis the configured timeout
     * @return the smaller of the two, at least 1 ms; the timeout itself outside a question or without a
     *     deadline
     */
    public static long capped(long millis) {
        RunScope scope = RunScope.current();
        if (scope == null) {
            return millis;
        }
        Optional<Duration> left = scope.remaining();
        return left.map(d -> Math.max(1, Math.min(millis, d.toMillis()))).orElse(millis);
    }

    /**
     * A data source whose connections carry a network timeout until they are closed (their own timeout is
     * put back on close), for reads that have no statement to put a timeout on, such as JDBC metadata.
     *
     * @param dataSource the data source
     * @param millis the longest any one read may block
     * @return the bounded data source
     */
    public static DataSource bounded(DataSource dataSource, long millis) {
        Objects.requireNonNull(dataSource, "dataSource");
        return new Bounded(dataSource, millis);
    }

    private static final class Bounded implements DataSource {
        private final DataSource delegate;
        private final long millis;

        Bounded(DataSource delegate, long millis) {
            this.delegate = delegate;
            this.millis = millis;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return wrap(delegate.getConnection());
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return wrap(delegate.getConnection(user, password));
        }

        private Connection wrap(Connection c) {
            int old = bind(c, millis);
            boolean[] closed = {false};
            return (Connection) Proxy.newProxyInstance(NetworkTimeouts.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (p, m, a) -> {
                        if (m.getName().equals("close") && (a == null || a.length == 0)) {
                            if (!closed[0]) {
                                closed[0] = true;
                                restore(c, old);
                            }
                        }
                        try {
                            return m.invoke(c, a);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }

        @Override
        public PrintWriter getLogWriter() throws SQLException {
            return delegate.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            delegate.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            delegate.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return delegate.getLoginTimeout();
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            return delegate.getParentLogger();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            return delegate.unwrap(iface);
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) throws SQLException {
            return delegate.isWrapperFor(iface);
        }
    }
}
