package dev.sqlagent.guard.engine;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.internal.NetworkTimeouts;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Least-privilege check: asks the database's catalog what the login can read and write, and reports what
 * goes beyond the policy (tables outside it, denied columns, any write), so a host knows where the guard is
 * its only line of defence. Reads the catalog only; changes nothing.
 *
 * <ul>
 *   <li>PostgreSQL: {@code has_table_privilege}, {@code has_any_column_privilege},
 *       {@code has_column_privilege}, {@code has_schema_privilege}, {@code has_database_privilege}, superuser
 *       status.</li>
 *   <li>MariaDB/MySQL: {@code information_schema.user_privileges}, {@code schema_privileges},
 *       {@code table_privileges} and {@code column_privileges} of the current account (privileges through
 *       roles are not followed: a note says so).</li>
 *   <li>SQLite: no grants exist, every table is readable; writing is possible unless the file is opened
 *       read-only or {@code PRAGMA query_only} is on (probed by writing the header's {@code user_version} back
 *       unchanged inside a transaction that is rolled back).</li>
 *   <li>H2: admin status ({@code INFORMATION_SCHEMA.USERS}), a read-only database, reads by preparing (never
 *       running) a {@code SELECT} of each table the login can see (H2 checks the right then; a user who is not
 *       an admin cannot read {@code INFORMATION_SCHEMA.RIGHTS}), writes from
 *       {@code INFORMATION_SCHEMA.TABLE_PRIVILEGES} of the login and {@code PUBLIC} (grants through roles are
 *       not followed). H2 has no column rights.</li>
 * </ul>
 */
public final class PrivilegeAudit {

    /**
     * The longest any one read of the audit may block on PostgreSQL, MariaDB and MySQL (the connection's
     * network timeout for the audit, put back afterwards): a catalog that stops answering fails the audit
     * with a connection error instead of holding the caller.
     */
    public static final Duration NETWORK_TIMEOUT = Duration.ofSeconds(30);

    private PrivilegeAudit() {
    }

    /**
     * Audits what the login of a data source can read and write beyond the policy, reading the catalog only.
     *
     * @param dataSource the database, connected as the login to audit
     * @param dialect its dialect
     * @param policy the policy the agent enforces
     * @return the report
     * @throws SQLException if the catalog cannot be read
     * @throws IllegalArgumentException if the dialect has no audit (SQL Server, Oracle, generic)
     */
    public static PrivilegeReport audit(DataSource dataSource, Dialect dialect, GuardPolicy policy) throws SQLException {
        Objects.requireNonNull(dataSource, "dataSource");
        Objects.requireNonNull(dialect, "dialect");
        Objects.requireNonNull(policy, "policy");
        try (Connection c = dataSource.getConnection()) {
            int network = NetworkTimeouts.bind(c, dialect, NetworkTimeouts.capped(NETWORK_TIMEOUT.toMillis()));
            try {
                return Engines.of(dialect).database().auditPrivileges(c, dialect, policy);
            } finally {
                NetworkTimeouts.restore(c, network);
            }
        }
    }
}
