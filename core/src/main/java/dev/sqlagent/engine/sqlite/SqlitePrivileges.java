package dev.sqlagent.engine.sqlite;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.AuditSupport;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.engine.PrivilegeReport;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** The privilege audit (SQLite): what the login can read and write beyond the policy, from the catalog. */
final class SqlitePrivileges {

    private SqlitePrivileges() {
    }

    static PrivilegeReport sqlite(Connection c, GuardPolicy policy) throws SQLException {
        List<String> writes = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        boolean queryOnly = "1".equals(AuditSupport.scalar(c, "PRAGMA query_only"));
        boolean autoCommit = c.getAutoCommit();
        if (!queryOnly) {
            try (Statement st = c.createStatement()) {
                if (!autoCommit) {
                    c.rollback();
                    c.setAutoCommit(true);
                }
                String version = AuditSupport.scalar(c, "PRAGMA main.user_version");
                st.execute("BEGIN IMMEDIATE");
                try {
                    st.execute("PRAGMA main.user_version = " + Integer.parseInt(version));
                    writes.add("the database file is open read-write (open it with mode=ro, or PRAGMA query_only)");
                } catch (SQLException readOnly) {
                    // SQLITE_READONLY: the file was opened read-only
                } finally {
                    st.execute("ROLLBACK");
                }
            } catch (SQLException cannotBegin) {
                // a read-only or busy file: no write transaction
            } finally {
                if (!autoCommit) {
                    c.setAutoCommit(false);
                }
            }
        }
        List<String> forbidden = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT name FROM main.sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' "
                        + "ESCAPE '\\' ORDER BY name")) {
            while (rs.next()) {
                if (!AuditSupport.allowed(policy, "main", rs.getString(1), true)) {
                    forbidden.add(rs.getString(1));
                }
            }
        }
        List<String> denied = new ArrayList<>();
        policy.deniedColumns().forEach((t, cs) -> cs.forEach(col -> denied.add(t + "." + col)));
        notes.add("SQLite has no grants: every table and column of the file is readable by whoever opens it");
        return new PrivilegeReport(Dialect.SQLITE, "(file)", writes, forbidden, denied, notes);
    }
}
