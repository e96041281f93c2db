package dev.sqlagent.testing;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The smallest pool that behaves like a real one where it matters here: idle connections are reused
 * (so a partition can hit a connection that is already open), at most {@code max} are out at once, a
 * caller waits for one at most the login timeout, a connection that was closed or aborted while out is
 * discarded when it comes back, and an idle one is checked ({@code isValid(1)}) before it is handed out,
 * unless the pool is made without that check: then a partition hits the next read of a connection that
 * was open when it began.
 */
public final class TinyPool implements DataSource, AutoCloseable {

    private final DataSource source;
    private final int max;
    private final boolean validate;
    private final Deque<Connection> idle = new ArrayDeque<>();
    private int out;
    private boolean closed;
    private volatile int loginTimeout;

    /**
     * @param source where new connections come from
     * @param max how many may be out at once
     */
    public TinyPool(DataSource source, int max) {
        this(source, max, true);
    }

    /**
     * @param source where new connections come from
     * @param max how many may be out at once
     * @param validate whether an idle connection is checked before it is handed out
     */
    public TinyPool(DataSource source, int max, boolean validate) {
        this.source = source;
        this.max = max;
        this.validate = validate;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection c = null;
        synchronized (this) {
            long until = System.nanoTime() + Math.max(1, loginTimeout) * 1_000_000_000L;
            while (idle.isEmpty() && out >= max) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    throw new SQLTransientConnectionException("no connection free within the login timeout", "08001");
                }
                try {
                    wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("interrupted", "08001");
                }
            }
            out++;
            c = idle.pollFirst();
        }
        if (c != null && validate && !alive(c)) {
            c = null; // as HikariCP does: an idle connection is checked before it is handed out
        }
        if (c == null) {
            try {
                c = source.getConnection();
            } catch (SQLException | RuntimeException e) {
                synchronized (this) {
                    out--;
                    notifyAll();
                }
                throw e;
            }
        }
        Connection real = c;
        boolean[] returned = {false};
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (p, m, a) -> {
                    if (m.getName().equals("close")) {
                        synchronized (this) {
                            if (!returned[0]) {
                                returned[0] = true;
                                out--;
                                if (closed) {
                                    real.close();
                                } else if (!real.isClosed()) {
                                    idle.addLast(real);
                                }
                                notifyAll();
                            }
                        }
                        return null;
                    }
                    try {
                        return m.invoke(real, a);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** Closes the idle connections; connections still out are closed when they come back. */
    @Override
    public void close() {
        java.util.List<Connection> closing;
        synchronized (this) {
            closed = true;
            closing = new java.util.ArrayList<>(idle);
            idle.clear();
        }
        for (Connection c : closing) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // gone anyway
            }
        }
    }

    private static boolean alive(Connection c) {
        try {
            if (c.isValid(1)) {
                return true;
            }
        } catch (SQLException e) {
            // dead
        }
        try {
            c.close();
        } catch (SQLException ignored) {
            // dead anyway
        }
        return false;
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("one user");
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter w) {
        // not used
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        loginTimeout = seconds;
        source.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no java.util.logging here");
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
