package dev.sqlagent.engine.trino;

import dev.sqlagent.guard.GuardPolicy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a Trino login really reaches, compared with a {@link GuardPolicy}: the catalogs, tables and columns the
 * cluster shows it beyond what the policy allows. Trino's access control filters {@code SHOW CATALOGS} and each
 * catalog's {@code information_schema} to what the login may use (file-based rules: a table with any privilege,
 * a column not denied), so what is listed there is what the login can reach; a table it sees but cannot select
 * would be reported too (an over-report, never an under-report).
 */
public final class TrinoPrivileges {

    private TrinoPrivileges() {
    }

    /**
     * The audit's findings.
     *
     * @param login the login, as {@code current_user} says
     * @param catalogs the catalogs it sees
     * @param forbiddenTables tables ({@code catalog.schema.table}) it can reach that the policy does not allow
     * @param deniedColumns denied columns ({@code catalog.schema.table.column}) it can reach
     * @param notes what the audit does not check on Trino
     */
    public record Report(String login, List<String> catalogs, List<String> forbiddenTables,
                         List<String> deniedColumns, List<String> notes) {
        /**
         * Copies the lists.
         *
         * @param login the login
         * @param catalogs the catalogs it sees
         * @param forbiddenTables tables it can reach that the policy does not allow
         * @param deniedColumns denied columns it can reach
         * @param notes what the audit does not check
         */
        public Report {
            Objects.requireNonNull(login, "login");
            catalogs = List.copyOf(catalogs);
            forbiddenTables = List.copyOf(forbiddenTables);
            deniedColumns = List.copyOf(deniedColumns);
            notes = List.copyOf(notes);
        }

        /** {@return whether the login reaches something the policy forbids (the guard is its only defence)} */
        public boolean guardIsOnlyDefence() {
            return !forbiddenTables.isEmpty() || !deniedColumns.isEmpty();
        }
    }

    /**
     * Audits the connection's login.
     *
     * @param c a connection as the library's login; its catalog and schema resolve the policy's table names
     * @param policy the policy
     * @return what the login reaches beyond the policy
     * @throws SQLException when the cluster cannot be read
     */
    public static Report audit(Connection c, GuardPolicy policy) throws SQLException {
        String catalog = c.getCatalog() == null ? "" : c.getCatalog();
        String schema = c.getSchema() == null ? "" : c.getSchema();
        Set<String> allowed = new HashSet<>();
        for (String t : policy.allowedTables()) {
            allowed.add(TrinoRules.resolve(t, catalog, schema).toString());
        }
        Set<String> denied = new HashSet<>();
        for (Map.Entry<String, Set<String>> d : policy.deniedColumns().entrySet()) {
            String table = TrinoRules.resolve(d.getKey(), catalog, schema).toString();
            for (String col : d.getValue()) {
                denied.add(table + "." + col);
            }
        }
        List<String> catalogs = new ArrayList<>();
        List<String> forbidden = new ArrayList<>();
        List<String> deniedReached = new ArrayList<>();
        String login;
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT current_user")) {
                rs.next();
                login = rs.getString(1);
            }
            try (ResultSet rs = s.executeQuery("SHOW CATALOGS")) {
                while (rs.next()) {
                    catalogs.add(rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
            for (String cat : catalogs) {
                Set<String> tables = new LinkedHashSet<>();
                String q = "SELECT table_schema, table_name, column_name FROM \"" + cat.replace("\"", "\"\"")
                        + "\".information_schema.columns WHERE table_schema <> 'information_schema' "
                        + "ORDER BY 1, 2, ordinal_position";
                try (ResultSet rs = s.executeQuery(q)) {
                    while (rs.next()) {
                        String table = cat + "." + rs.getString(1).toLowerCase(Locale.ROOT) + "."
                                + rs.getString(2).toLowerCase(Locale.ROOT);
                        String column = table + "." + rs.getString(3).toLowerCase(Locale.ROOT);
                        if (!allowed.contains(table)) {
                            tables.add(table);
                        } else if (denied.contains(column)) {
                            deniedReached.add(column);
                        }
                    }
                }
                forbidden.addAll(tables);
            }
        }
        List<String> notes = List.of(
                "write privileges are not listed: Trino has no portable listing of them; the library's read-only "
                        + "transaction (TrinoSession) refuses writes on every connector",
                "row filters and column masks are not read back: they are checked by running queries, not here",
                "each catalog's information_schema is read; a catalog with many tables makes a long report");
        return new Report(login, catalogs, forbidden, deniedReached, notes);
    }
}
