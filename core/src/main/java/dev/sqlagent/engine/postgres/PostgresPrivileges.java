package dev.sqlagent.engine.postgres;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.AuditSupport;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.engine.PrivilegeReport;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The privilege audit (PostgreSQL): what the login can read and write beyond the policy, from the catalog. */
final class PostgresPrivileges {

    private PostgresPrivileges() {
    }

    static PrivilegeReport postgres(Connection c, GuardPolicy policy) throws SQLException {
        String login = AuditSupport.scalar(c, "SELECT current_user");
        List<String> writes = new ArrayList<>();
        List<String> forbidden = new ArrayList<>();
        List<String> denied = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        if ("t".equals(AuditSupport.scalar(c, "SELECT CASE WHEN rolsuper THEN 't' ELSE 'f' END FROM pg_catalog.pg_roles "
                + "WHERE rolname = current_user"))) {
            writes.add("superuser " + login + " (every privilege)");
        }
        if ("t".equals(AuditSupport.scalar(c, "SELECT CASE WHEN has_database_privilege(current_database(), 'CREATE') THEN 't' "
                + "ELSE 'f' END"))) {
            writes.add("CREATE on database " + AuditSupport.scalar(c, "SELECT current_database()"));
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT n.nspname, has_schema_privilege(n.oid, 'CREATE') FROM pg_catalog.pg_namespace n "
                        + "WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%' "
                        + "ORDER BY 1")) {
            while (rs.next()) {
                if (rs.getBoolean(2)) {
                    writes.add("CREATE on schema " + rs.getString(1));
                }
            }
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT n.nspname, k.relname, "
                        + "has_any_column_privilege(k.oid, 'SELECT') OR has_table_privilege(k.oid, 'SELECT'), "
                        + "has_table_privilege(k.oid, 'INSERT'), has_table_privilege(k.oid, 'UPDATE') "
                        + "OR has_any_column_privilege(k.oid, 'UPDATE'), has_table_privilege(k.oid, 'DELETE'), "
                        + "has_table_privilege(k.oid, 'TRUNCATE'), "
                        + "to_regclass(quote_ident(k.relname)) = k.oid "
                        + "FROM pg_catalog.pg_class k JOIN pg_catalog.pg_namespace n ON n.oid = k.relnamespace "
                        + "WHERE k.relkind IN ('r', 'v', 'm', 'f', 'p') AND n.nspname NOT IN ('pg_catalog', "
                        + "'information_schema') AND n.nspname NOT LIKE 'pg\\_%' ORDER BY 1, 2")) {
            while (rs.next()) {
                String name = rs.getString(1) + "." + rs.getString(2);
                if (rs.getBoolean(3) && !AuditSupport.allowed(policy, rs.getString(1), rs.getString(2), rs.getBoolean(8))) {
                    forbidden.add(name);
                }
                List<String> w = new ArrayList<>();
                String[] kinds = {"INSERT", "UPDATE", "DELETE", "TRUNCATE"};
                for (int i = 0; i < kinds.length; i++) {
                    if (rs.getBoolean(4 + i)) {
                        w.add(kinds[i]);
                    }
                }
                if (!w.isEmpty()) {
                    writes.add(String.join("/", w) + " on " + name);
                }
            }
        }
        for (Map.Entry<String, Set<String>> e : policy.deniedColumns().entrySet()) {
            for (String column : e.getValue()) {
                try (PreparedStatement ps = c.prepareStatement("SELECT has_column_privilege(to_regclass(?), ?, 'SELECT')")) {
                    ps.setString(1, e.getKey());
                    ps.setString(2, column);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next() && rs.getBoolean(1)) {
                            denied.add(e.getKey() + "." + column);
                        }
                    } catch (SQLException noSuchColumnOrTable) {
                        notes.add("denied column " + e.getKey() + "." + column + " not found: "
                                + noSuchColumnOrTable.getMessage());
                    }
                }
            }
        }
        notes.add("the system catalogs (pg_catalog, information_schema) are readable by every login; the guard "
                + "refuses them");
        if ("t".equals(AuditSupport.scalar(c, "SELECT CASE WHEN has_database_privilege(current_database(), 'TEMP') THEN 't' "
                + "ELSE 'f' END"))) {
            notes.add("TEMP on the database (granted to PUBLIC by default): temporary tables could be created");
        }
        return new PrivilegeReport(Dialect.POSTGRESQL, login, writes, forbidden, denied, notes);
    }
}
