package dev.sqlagent.guard.engine;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.internal.NetworkTimeouts;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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

    private static final Set<String> MYSQL_SYSTEM = Set.of("information_schema", "mysql", "performance_schema", "sys");
    private static final Set<String> MYSQL_WRITES = Set.of("INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER",
            "INDEX", "CREATE VIEW", "CREATE ROUTINE", "ALTER ROUTINE", "CREATE TEMPORARY TABLES", "EXECUTE",
            "FILE", "SUPER", "TRIGGER", "EVENT", "REFERENCES", "LOCK TABLES", "CREATE USER", "GRANT OPTION",
            "RELOAD", "SHUTDOWN", "PROCESS", "DELETE HISTORY", "CREATE TABLESPACE", "BINLOG ADMIN",
            "CONNECTION ADMIN", "READ_ONLY ADMIN", "SET USER", "FEDERATED ADMIN", "REPLICATION SLAVE ADMIN");

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
                return switch (dialect) {
                    case POSTGRESQL -> postgres(c, policy);
                    case MARIADB, MYSQL -> mysql(c, dialect, policy);
                    case SQLITE -> sqlite(c, policy);
                    case H2 -> h2(c, policy);
                    case DUCKDB -> duckdb(c, policy);
                    default -> throw new IllegalArgumentException("no privilege audit for " + dialect
                            + "; supported: POSTGRESQL, MARIADB, MYSQL, SQLITE, H2, DUCKDB");
                };
            } finally {
                NetworkTimeouts.restore(c, network);
            }
        }
    }

    private static boolean allowed(GuardPolicy policy, String schema, String table, boolean resolvesBare) {
        String s = schema.toLowerCase(Locale.ROOT);
        String t = table.toLowerCase(Locale.ROOT);
        return policy.allowedTables().contains(s + "." + t) || resolvesBare && policy.allowedTables().contains(t);
    }

    // ---------------------------------------------------------------- PostgreSQL

    private static PrivilegeReport postgres(Connection c, GuardPolicy policy) throws SQLException {
        String login = scalar(c, "SELECT current_user");
        List<String> writes = new ArrayList<>();
        List<String> forbidden = new ArrayList<>();
        List<String> denied = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        if ("t".equals(scalar(c, "SELECT CASE WHEN rolsuper THEN 't' ELSE 'f' END FROM pg_catalog.pg_roles "
                + "WHERE rolname = current_user"))) {
            writes.add("superuser " + login + " (every privilege)");
        }
        if ("t".equals(scalar(c, "SELECT CASE WHEN has_database_privilege(current_database(), 'CREATE') THEN 't' "
                + "ELSE 'f' END"))) {
            writes.add("CREATE on database " + scalar(c, "SELECT current_database()"));
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
                if (rs.getBoolean(3) && !allowed(policy, rs.getString(1), rs.getString(2), rs.getBoolean(8))) {
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
        if ("t".equals(scalar(c, "SELECT CASE WHEN has_database_privilege(current_database(), 'TEMP') THEN 't' "
                + "ELSE 'f' END"))) {
            notes.add("TEMP on the database (granted to PUBLIC by default): temporary tables could be created");
        }
        return new PrivilegeReport(Dialect.POSTGRESQL, login, writes, forbidden, denied, notes);
    }

    // ---------------------------------------------------------------- MariaDB / MySQL

    private static PrivilegeReport mysql(Connection c, Dialect dialect, GuardPolicy policy) throws SQLException {
        String account = scalar(c, "SELECT CURRENT_USER()");
        int at = account.lastIndexOf('@');
        String grantee = "'" + account.substring(0, Math.max(at, 0)) + "'@'" + account.substring(at + 1) + "'";
        String database = scalar(c, "SELECT DATABASE()");
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
                    if (!allowed(policy, schema, table, schema.equals(current))) {
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

    // ---------------------------------------------------------------- SQLite

    private static PrivilegeReport sqlite(Connection c, GuardPolicy policy) throws SQLException {
        List<String> writes = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        boolean queryOnly = "1".equals(scalar(c, "PRAGMA query_only"));
        boolean autoCommit = c.getAutoCommit();
        if (!queryOnly) {
            try (Statement st = c.createStatement()) {
                if (!autoCommit) {
                    c.rollback();
                    c.setAutoCommit(true);
                }
                String version = scalar(c, "PRAGMA main.user_version");
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
                if (!allowed(policy, "main", rs.getString(1), true)) {
                    forbidden.add(rs.getString(1));
                }
            }
        }
        List<String> denied = new ArrayList<>();
        policy.deniedColumns().forEach((t, cs) -> cs.forEach(col -> denied.add(t + "." + col)));
        notes.add("SQLite has no grants: every table and column of the file is readable by whoever opens it");
        return new PrivilegeReport(Dialect.SQLITE, "(file)", writes, forbidden, denied, notes);
    }

    // ---------------------------------------------------------------- DuckDB

    /**
     * DuckDB has no logins or grants; what matters is whether the engine can reach past the registered data:
     * external access on (any file, URL, extension, {@code ATTACH}, {@code COPY}) and a configuration a
     * statement can change back are writes in this report's sense (a guard miss would not be stopped), and
     * so is a database open read-write.
     */
    private static PrivilegeReport duckdb(Connection c, GuardPolicy policy) throws SQLException {
        List<String> writes = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        if (Boolean.parseBoolean(scalar(c, "SELECT current_setting('enable_external_access')::VARCHAR"))) {
            writes.add("enable_external_access is on: a statement can read any file or URL, ATTACH, COPY and load "
                    + "extensions (register files with DuckDbFiles, which turns it off)");
        }
        if (!Boolean.parseBoolean(scalar(c, "SELECT current_setting('lock_configuration')::VARCHAR"))) {
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
                if (!allowed(policy, rs.getString(1), rs.getString(2), "main".equals(rs.getString(1)))) {
                    forbidden.add(rs.getString(1) + "." + rs.getString(2));
                }
            }
        }
        List<String> denied = new ArrayList<>();
        policy.deniedColumns().forEach((t, cs) -> cs.forEach(col -> denied.add(t + "." + col)));
        notes.add("DuckDB has no grants: every table and column of the database is readable by every connection");
        return new PrivilegeReport(Dialect.DUCKDB, "(in-process)", writes, forbidden, denied, notes);
    }

    // ---------------------------------------------------------------- H2

    private static PrivilegeReport h2(Connection c, GuardPolicy policy) throws SQLException {
        String login = scalar(c, "SELECT CURRENT_USER");
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
            if (admin || prepares(c, "SELECT 1 FROM " + quoted)) {
                readableTables.add(key);
                if (!allowed(policy, v[0], v[1], v[0].equalsIgnoreCase(schema))) {
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

    /** {@return whether the engine prepares the statement (it checks rights then); it is never run} */
    private static boolean prepares(Connection c, String sql) {
        try {
            c.prepareStatement(sql).close();
            return true;
        } catch (SQLException refused) {
            return false;
        }
    }

    private static String scalar(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
