package dev.sqlagent.engine.mariadb;

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

/** The privilege audit (MariaDB / MySQL): what the login can read and write beyond the policy, from the catalog. */
final class MariaDbPrivileges {
    private static final Set<String> MYSQL_SYSTEM = Set.of("information_schema", "mysql", "performance_schema", "sys");
    private static final Set<String> MYSQL_WRITES = Set.of("INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER",
            "INDEX", "CREATE VIEW", "CREATE ROUTINE", "ALTER ROUTINE", "CREATE TEMPORARY TABLES", "EXECUTE",
            "FILE", "SUPER", "TRIGGER", "EVENT", "REFERENCES", "LOCK TABLES", "CREATE USER", "GRANT OPTION",
            "RELOAD", "SHUTDOWN", "PROCESS", "DELETE HISTORY", "CREATE TABLESPACE", "BINLOG ADMIN",
            "CONNECTION ADMIN", "READ_ONLY ADMIN", "SET USER", "FEDERATED ADMIN", "REPLICATION SLAVE ADMIN");

    private MariaDbPrivileges() {
    }

    static PrivilegeReport mysql(Connection c, Dialect dialect, GuardPolicy policy) throws SQLException {
        String account = AuditSupport.scalar(c, "SELECT CURRENT_USER()");
        int at = account.lastIndexOf('@');
        String grantee = "'" + account.substring(0, Math.max(at, 0)) + "'@'" + account.substring(at + 1) + "'";
        String database = AuditSupport.scalar(c, "SELECT DATABASE()");
        String current = database == null ? "" : database.toLowerCase(Locale.ROOT);
        List<String> writes = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Set<String> global = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT PRIVILEGE_TYPE FROM information_schema.USER_PRIVILEGES WHERE GRANTEE = ?")) {
            ps.setString(1, grantee);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    global.add(rs.getString(1).toUpperCase(Locale.ROOT));
                }
            }
        }
        global.stream().filter(MYSQL_WRITES::contains).sorted().forEach(p -> writes.add(p + " on *.*"));
        Map<String, Set<String>> schemaPrivs = new java.util.TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT TABLE_SCHEMA, PRIVILEGE_TYPE FROM information_schema.SCHEMA_PRIVILEGES WHERE GRANTEE = ?")) {
            ps.setString(1, grantee);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    schemaPrivs.computeIfAbsent(rs.getString(1).toLowerCase(Locale.ROOT), k -> new HashSet<>())
                            .add(rs.getString(2).toUpperCase(Locale.ROOT));
                }
            }
        }
        schemaPrivs.forEach((s, ps) -> ps.stream().filter(MYSQL_WRITES::contains).sorted()
                .forEach(p -> writes.add(p + " on " + s + ".*")));
        Map<String, Set<String>> tablePrivs = new java.util.TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_SCHEMA, TABLE_NAME, PRIVILEGE_TYPE "
                + "FROM information_schema.TABLE_PRIVILEGES WHERE GRANTEE = ?")) {
            ps.setString(1, grantee);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    tablePrivs.computeIfAbsent((rs.getString(1) + "." + rs.getString(2)).toLowerCase(Locale.ROOT),
                            k -> new HashSet<>()).add(rs.getString(3).toUpperCase(Locale.ROOT));
                }
            }
        }
        tablePrivs.forEach((t, ps) -> ps.stream().filter(MYSQL_WRITES::contains).sorted()
                .forEach(p -> writes.add(p + " on " + t)));
        Map<String, Set<String>> columnSelect = new java.util.TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, PRIVILEGE_TYPE "
                + "FROM information_schema.COLUMN_PRIVILEGES WHERE GRANTEE = ?")) {
            ps.setString(1, grantee);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String table = (rs.getString(1) + "." + rs.getString(2)).toLowerCase(Locale.ROOT);
                    String priv = rs.getString(4).toUpperCase(Locale.ROOT);
                    if (priv.equals("SELECT")) {
                        columnSelect.computeIfAbsent(table, k -> new HashSet<>()).add(rs.getString(3).toLowerCase(Locale.ROOT));
                    } else if (MYSQL_WRITES.contains(priv)) {
                        writes.add(priv + " on " + table + "." + rs.getString(3));
                    }
                }
            }
        }
        List<String> forbidden = new ArrayList<>();
        Set<String> readable = new HashSet<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES ORDER BY 1, 2")) {
            while (rs.next()) {
                String schema = rs.getString(1).toLowerCase(Locale.ROOT);
                String table = rs.getString(2).toLowerCase(Locale.ROOT);
                if (MYSQL_SYSTEM.contains(schema)) {
                    continue;
                }
                String key = schema + "." + table;
                boolean canRead = global.contains("SELECT") || schemaPrivs.getOrDefault(schema, Set.of()).contains("SELECT")
                        || tablePrivs.getOrDefault(key, Set.of()).contains("SELECT") || columnSelect.containsKey(key);
                if (canRead) {
                    readable.add(key);
                    if (!AuditSupport.allowed(policy, schema, table, schema.equals(current))) {
                        forbidden.add(key);
                    }
                }
            }
        }
        List<String> denied = new ArrayList<>();
        for (Map.Entry<String, Set<String>> e : policy.deniedColumns().entrySet()) {
            String key = e.getKey().contains(".") ? e.getKey() : current + "." + e.getKey();
            String schema = key.substring(0, key.indexOf('.'));
            for (String column : e.getValue()) {
                boolean whole = global.contains("SELECT") || schemaPrivs.getOrDefault(schema, Set.of()).contains("SELECT")
                        || tablePrivs.getOrDefault(key, Set.of()).contains("SELECT");
                if (whole || columnSelect.getOrDefault(key, Set.of()).contains(column)) {
                    denied.add(e.getKey() + "." + column);
                }
            }
        }
        notes.add("privileges reached through roles (SET ROLE, default roles) are not followed; "
                + "information_schema is readable by every login and the guard refuses it");
        return new PrivilegeReport(dialect, account, writes, forbidden, denied, notes);
    }
}
