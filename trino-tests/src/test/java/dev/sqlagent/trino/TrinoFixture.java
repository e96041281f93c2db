package dev.sqlagent.trino;

import dev.sqlagent.trinocluster.TrinoCluster;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Assumptions;

/**
 * The shared Trino cluster for this module's suites: started once per test JVM. Without a JDK 25 a suite
 * skips with a loud notice, except under {@code SQLAGENT_REQUIRE_SERVERS=true} (as {@code .ci/run} sets),
 * where it fails.
 */
final class TrinoFixture {
    /** The login the suites' administrative set-up uses (the test cluster allows everything to everyone). */
    static final String ADMIN = "sqlagent-admin";

    private TrinoFixture() {
    }

    /** {@return the running shared cluster}, or aborts (skips) the calling suite when no JDK 25 is found */
    static TrinoCluster cluster() {
        if (TrinoCluster.javaHome().isEmpty()) {
            String notice = "*** TRINO SUITE SKIPPED: no JDK 25 found (set SQLAGENT_TRINO_JAVA_HOME) ***";
            System.err.println(notice);
            if (Boolean.parseBoolean(System.getenv("SQLAGENT_REQUIRE_SERVERS"))) {
                throw new IllegalStateException(notice + " and SQLAGENT_REQUIRE_SERVERS=true");
            }
            Assumptions.abort(notice);
        }
        return TrinoCluster.shared();
    }

    /**
     * @param catalog the session's catalog
     * @param schema the session's schema
     * @return a new connection as {@link #ADMIN}
     * @throws SQLException if the cluster refuses it
     */
    static Connection admin(String catalog, String schema) throws SQLException {
        return DriverManager.getConnection(cluster().jdbcUrl(catalog, schema), ADMIN, null);
    }
}
