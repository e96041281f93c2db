package dev.sqlagent.engine.h2;

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
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The privilege audit (H2): what the login can read and write beyond the policy, from the catalog. */
final class H2Privileges {

    private H2Privileges() {
    }

    static PrivilegeReport h2(Connection c, GuardPolicy policy) throws SQLException {
        String login = AuditSupport.scalar(c, "SELECT CURRENT_USER");
        String schema = c.getSchema() == null ? "" : c.getSchema().toLowerCase(Locale.ROOT);
        List<String> writes = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        boolean admin;
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT IS_ADMIN FROM INFORMATION_SCHEMA.USERS WHERE USER_NAME = ?")) {
            ps.setString(1, login);
            try (ResultSet rs = ps.executeQuery()) {
                admin = rs.next() && rs.getBoolean(1);
            }
        }
        boolean readOnly = c.getMetaData().isReadOnly();
        if (admin && !readOnly) {
            writes.add("admin user " + login + " (every right)");
        }
        // H2 checks the right to read when a statement is prepared: prepare (never run) a read of each table
        List<String[]> visible = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE FROM INFORMATION_SCHEMA.TABLES "
                        + "WHERE TABLE_SCHEMA <> 'INFORMATION_SCHEMA' ORDER BY 1, 2")) {
            while (rs.next()) {
                visible.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3)});
            }
        }
        List<String> forbidden = new ArrayList<>();
        Set<String> readableTables = new HashSet<>();
        for (String[] v : visible) {
            String quoted = quoteH2(v[0]) + "." + quoteH2(v[1]);
            String key = (v[0] + "." + v[1]).toLowerCase(Locale.ROOT);
            if (admin || AuditSupport.prepares(c, "SELECT 1 FROM " + quoted)) {
                readableTables.add(key);
                if (!AuditSupport.allowed(policy, v[0], v[1], v[0].equalsIgnoreCase(schema))) {
                    forbidden.add(key);
                }
            }
        }
        if (!admin && !readOnly) {
            // writes are checked only when they run: read the grants instead (the login's own and PUBLIC's)
            Map<String, Set<String>> grants = new java.util.TreeMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_SCHEMA, TABLE_NAME, PRIVILEGE_TYPE "
                    + "FROM INFORMATION_SCHEMA.TABLE_PRIVILEGES WHERE GRANTEE IN (?, 'PUBLIC')")) {
                ps.setString(1, login);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String p = rs.getString(3).toUpperCase(Locale.ROOT);
                        if (!p.equals("SELECT")) {
                            grants.computeIfAbsent((rs.getString(1) + "." + rs.getString(2)).toLowerCase(Locale.ROOT),
                                    k -> new java.util.TreeSet<>()).add(p);
                        }
                    }
                }
            }
            grants.forEach((t, ps) -> writes.add(String.join("/", ps) + " on " + t));
        }
        List<String> denied = new ArrayList<>();
        policy.deniedColumns().forEach((t, cs) -> {
            String key = t.contains(".") ? t : schema + "." + t;
            if (readableTables.contains(key)) {
                cs.forEach(col -> denied.add(t + "." + col));
            }
        });
        notes.add("H2 has no column rights: a readable table's denied columns are readable");
        if (readOnly) {
            notes.add("the database is read-only");
        }
        return new PrivilegeReport(Dialect.H2, login, writes, forbidden, denied, notes);
    }

    private static String quoteH2(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
