package dev.sqlagent.cases;

import dev.sqlagent.Dialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Bounds every read of a call on the network engines (PostgreSQL, MariaDB, MySQL) at twice the statement
 * timeout, and puts the connection's own timeout back afterwards: the stores of this package
 * ({@link JdbcCaseSink}, {@link JdbcFixStore}) must never hang a worker or a question on a silent network.
 */
final class NetworkTimeouts {

    private NetworkTimeouts() {
    }

    /**
     * @param c the connection
     * @param d its dialect
     * @param timeout the statement timeout; reads are bounded at twice it
     * @return the connection's old network timeout, or -1 when it was left untouched
     */
    static int bind(Connection c, Dialect d, Duration timeout) {
        if (d != Dialect.POSTGRESQL && d != Dialect.MARIADB && d != Dialect.MYSQL) {
            return -1;
        }
        try {
            int old = c.getNetworkTimeout();
            c.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis() * 2));
            return old;
        } catch (SQLException | UnsupportedOperationException e) {
            return -1;
        }
    }

    /**
     * @param c the connection
     * @param old what {@link #bind} returned; -1 does nothing
     */
    static void restore(Connection c, int old) {
        if (old < 0) {
            return;
        }
        try {
            if (!c.isClosed()) {
                c.setNetworkTimeout(Runnable::run, old);
            }
        } catch (SQLException | UnsupportedOperationException ignored) {
            // a broken connection is closed next
        }
    }
}
