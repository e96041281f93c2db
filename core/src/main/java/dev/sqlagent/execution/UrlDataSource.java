package dev.sqlagent.execution;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} over a JDBC URL that opens a new {@link DriverManager} connection per call: no
 * pool, nothing shared. Enough for command-line tools, tests and small hosts; a server application
 * should give the agent its pooled data source instead. The password is never in {@link #toString()}.
 */
public final class UrlDataSource implements DataSource {

    private final String url;
    private final String user;
    private final String password;
    private volatile int loginTimeout;

    /**
     * Creates a data source that opens a new connection to a JDBC URL for every request.
     *
     * @param url the JDBC URL
     * @param user the user, or null to leave it to the URL
     * @param password the password, or null
     */
    public UrlDataSource(String url, String user, String password) {
        java.util.Objects.requireNonNull(url, "url");
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /** {@return the JDBC URL} */
    public String url() {
        return url;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return getConnection(user, password);
    }

    @Override
    public Connection getConnection(String username, String pass) throws SQLException {
        Properties p = new Properties();
        if (username != null) {
            p.setProperty("user", username);
        }
        if (pass != null) {
            p.setProperty("password", pass);
        }
        int seconds = loginTimeout;
        if (seconds > 0) {
            // per connection, never DriverManager.setLoginTimeout (global to the JVM); a URL setting wins
            if (url.startsWith("jdbc:postgresql:") && !url.contains("loginTimeout=")) {
                p.setProperty("loginTimeout", Integer.toString(seconds));
            } else if ((url.startsWith("jdbc:mariadb:") || url.startsWith("jdbc:mysql:"))
                    && !url.contains("connectTimeout=")) {
                p.setProperty("connectTimeout", Integer.toString(seconds * 1000));
            }
        }
        return DriverManager.getConnection(url, p);
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        // not used
    }

    /**
     * Bounds opening a connection: PostgreSQL's {@code loginTimeout} (connect and handshake) or MariaDB's
     * and MySQL's {@code connectTimeout}, unless the URL sets them; other drivers take it from their URL.
     *
     * @param seconds the bound, 0 for the driver's default
     */
    @Override
    public void setLoginTimeout(int seconds) {
        this.loginTimeout = Math.max(0, seconds);
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
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper for " + iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    @Override
    public String toString() {
        return "SimpleDataSource[" + url + ", user=" + user + "]";
    }
}
