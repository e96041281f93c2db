package dev.sqlagent.engine.duckdb;

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

/** The privilege audit (DuckDB): what the login can read and write beyond the policy, from the catalog. */
final class DuckDbPrivileges {

    private DuckDbPrivileges() {
    }

    /**
     * DuckDB has no logins or grants; what matters is whether the engine can reach past the registered data:
     * external access on (any file, URL, extension, {@code ATTACH}, {@code COPY}) and a configuration a
     * statement can change back are writes in this report's sense (a guard miss would not be stopped), and
     * so is a database open read-write.
     */
    static PrivilegeReport duckdb(Connection c, GuardPolicy policy) throws SQLException {
        List<String> writes = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        if (Boolean.parseBoolean(AuditSupport.scalar(c, "SELECT current_setting('enable_external_access')::VARCHAR"))) {
            writes.add("enable_external_access is on: a statement can read any file or URL, ATTACH, COPY and load "
                    + "extensions (register files with DuckDbFiles, which turns it off)");
        }
        if (!Boolean.parseBoolean(AuditSupport.scalar(c, "SELECT current_setting('lock_configuration')::VARCHAR"))) {
            writes.add("lock_configuration is off: a statement can change any setting back (SET lock_configuration"
                    + " = true after the setup)");
        }
        if (!c.isReadOnly()) {
            notes.add("the database is open read-write; the executor runs each statement in a read-only "
                    + "transaction (open a database file with duckdb.read_only=true to refuse writes at any time)");
        }
        List<String> forbidden = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT schema_name, table_name FROM duckdb_tables() WHERE NOT internal UNION ALL "
                        + "SELECT schema_name, view_name FROM duckdb_views() WHERE NOT internal ORDER BY 1, 2")) {
            while (rs.next()) {
                if (!AuditSupport.allowed(policy, rs.getString(1), rs.getString(2), "main".equals(rs.getString(1)))) {
                    forbidden.add(rs.getString(1) + "." + rs.getString(2));
                }
            }
        }
        List<String> denied = new ArrayList<>();
        policy.deniedColumns().forEach((t, cs) -> cs.forEach(col -> denied.add(t + "." + col)));
        notes.add("DuckDB has no grants: every table and column of the database is readable by every connection");
        return new PrivilegeReport(Dialect.DUCKDB, "(in-process)", writes, forbidden, denied, notes);
    }
}
