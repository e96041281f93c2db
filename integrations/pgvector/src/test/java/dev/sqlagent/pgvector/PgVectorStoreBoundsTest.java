package dev.sqlagent.pgvector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Without a server: every call but {@code createTable()} bounds the reads of its connection with a network
 * timeout of the store's timeout plus three seconds and puts the connection's own back, and a data source
 * without a login timeout gets the store's timeout. (The driver's network timeout ending a read that a
 * partition holds is proven against real servers in core's {@code PartitionTest}.)
 */
class PgVectorStoreBoundsTest {

    /** A data source of one fake connection that records what is asked of it. */
    static final class Recording implements DataSource {
        final List<String> calls = new CopyOnWriteArrayList<>();
        int loginTimeout;
        int networkTimeout = 7;

        @Override
        public Connection getConnection() {
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                    (p, m, a) -> {
                        switch (m.getName()) {
                            case "getNetworkTimeout":
                                return networkTimeout;
                            case "setNetworkTimeout":
                                networkTimeout = (Integer) a[1];
                                calls.add("networkTimeout " + a[1]);
                                return null;
                            case "isClosed":
                                return false;
                            case "close":
                                calls.add("close");
                                return null;
                            case "prepareStatement":
                                calls.add("prepare " + a[0]);
                                return statement();
                            default:
                                throw new SQLFeatureNotSupportedException(m.getName());
                        }
                    });
        }

        private PreparedStatement statement() {
            return (PreparedStatement) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {PreparedStatement.class}, (p, m, a) -> {
                        switch (m.getName()) {
                            case "executeUpdate":
                                return 1;
                            case "close":
                            case "setString":
                                return null;
                            default:
                                throw new SQLFeatureNotSupportedException(m.getName());
                        }
                    });
        }

        @Override
        public Connection getConnection(String user, String password) {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
            // not used
        }

        @Override
        public void setLoginTimeout(int seconds) {
            loginTimeout = seconds;
        }

        @Override
        public int getLoginTimeout() {
            return loginTimeout;
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
    }

    @Test
    void everyReadOfACallIsBoundedAndTheConnectionsOwnTimeoutPutBack() {
        Recording ds = new Recording();
        PgVectorStore store = PgVectorStore.builder(ds, "case_vectors", 3).timeout(Duration.ofSeconds(2)).build();

        assertThat(ds.loginTimeout).isEqualTo(2);
        assertThat(store.remove("a")).isTrue();

        assertThat(ds.calls).containsExactly("networkTimeout 5000", "prepare DELETE FROM case_vectors WHERE id = ?",
                "networkTimeout 7", "close");
    }

    @Test
    void theTimeoutIsAtLeastASecond() {
        assertThatThrownBy(() -> PgVectorStore.builder(new Recording(), "t", 3).timeout(Duration.ofMillis(500)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout");
        assertThat(PgVectorStore.builder(new Recording(), "t", 3).build().timeout())
                .isEqualTo(PgVectorStore.DEFAULT_TIMEOUT);
    }
}
