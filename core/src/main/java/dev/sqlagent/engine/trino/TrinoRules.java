package dev.sqlagent.engine.trino;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.RowFilter;
import dev.sqlagent.internal.JsonTree;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Trino file-based access control rules ({@code security.config-file} of the {@code file} system access control,
 * https://trino.io/docs/current/security/file-system-access-control.html) that make the cluster itself enforce a
 * {@link GuardPolicy} for the library's login: the engine refuses what the guard refuses, so the guard is not the
 * only line of defence.
 *
 * <p>For the login: its catalog read-only and every other catalog (including {@code system}) none; each allowed
 * table {@code SELECT} only, its denied columns {@code allow: false} (a query naming one, or a {@code *} over it, is
 * refused with {@code PERMISSION_DENIED}), its row filters as the table's {@code filter}; every other table of
 * every schema nothing; the session properties {@link TrinoSession} sets allowed (the model's own
 * {@code SET SESSION} is refused by the guard before it reaches the cluster), no other; its own queries only.
 * Every name is a regular expression in Trino's rules, so each is quoted. A login the rules do not name can do
 * nothing, except the optional administrator ({@link #withAdmin(String)}: everything, to load data).
 *
 * <p>Policy tables are resolved as Trino resolves names on the library's connection: {@code t} in the given
 * catalog and schema, {@code s.t} in the given catalog, {@code c.s.t} as written.
 */
public final class TrinoRules {

    /** The session properties {@link TrinoSession} sets on the login's own connection. */
    static final List<String> SESSION_PROPERTIES = List.of("query_max_run_time", "query_max_execution_time",
            "query_max_scan_physical_bytes", "query_max_memory", "query_max_total_memory");

    private final GuardPolicy policy;
    private final String user;
    private final String catalog;
    private final String schema;
    private final String admin;

    private TrinoRules(GuardPolicy policy, String user, String catalog, String schema, String admin) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.user = requireName(user, "user");
        this.catalog = requireName(catalog, "catalog").toLowerCase(Locale.ROOT);
        this.schema = requireName(schema, "schema").toLowerCase(Locale.ROOT);
        this.admin = admin;
    }

    private static String requireName(String s, String what) {
        Objects.requireNonNull(s, what);
        if (s.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
        return s;
    }

    /**
     * The rules for one login.
     *
     * @param policy the policy the cluster should enforce
     * @param user the login the library connects as (Trino's user name, exactly)
     * @param catalog the connection's catalog, where unqualified and schema-qualified policy tables are
     * @param schema the connection's schema, where unqualified policy tables are
     * @return the rules
     */
    public static TrinoRules forUser(GuardPolicy policy, String user, String catalog, String schema) {
        return new TrinoRules(policy, user, catalog, schema, null);
    }

    /**
     * {@return these rules, and a login that may do everything (the host's loader or administrator)}
     *
     * @param adminUser the administrator's user name, not the library's login
     */
    public TrinoRules withAdmin(String adminUser) {
        if (requireName(adminUser, "adminUser").equals(user)) {
            throw new IllegalArgumentException("the administrator must not be the library's login " + user);
        }
        return new TrinoRules(policy, user, catalog, schema, adminUser);
    }

    /**
     * A policy table as Trino names it on the library's connection.
     *
     * @param catalog its catalog, lower case
     * @param schema its schema, lower case
     * @param table its name, lower case
     */
    public record TableName(String catalog, String schema, String table) {
        @Override
        public String toString() {
            return catalog + "." + schema + "." + table;
        }
    }

    /**
     * Resolves a policy table name the way the connection would.
     *
     * @param name {@code t}, {@code s.t} or {@code c.s.t}, perhaps double-quoted parts
     * @param catalog the connection's catalog
     * @param schema the connection's schema
     * @return the table
     * @throws IllegalArgumentException for a name of more than three parts
     */
    public static TableName resolve(String name, String catalog, String schema) {
        String[] parts = name.split("\\.");
        for (int i = 0; i < parts.length; i++) {
            parts[i] = parts[i].strip().replaceAll("^\"|\"$", "").toLowerCase(Locale.ROOT);
        }
        return switch (parts.length) {
            case 1 -> new TableName(catalog.toLowerCase(Locale.ROOT), schema.toLowerCase(Locale.ROOT), parts[0]);
            case 2 -> new TableName(catalog.toLowerCase(Locale.ROOT), parts[0], parts[1]);
            case 3 -> new TableName(parts[0], parts[1], parts[2]);
            default -> throw new IllegalArgumentException("a Trino table name has at most three parts: " + name);
        };
    }

    /** {@return the rules as the JSON document Trino reads} */
    public String toJson() {
        return JsonTree.write(document());
    }

    /** {@return the rules as nested maps and lists, in the document's order} */
    public Map<String, Object> document() {
        String u = Pattern.quote(user);
        Map<String, Object> doc = new LinkedHashMap<>();
        List<Object> catalogs = new ArrayList<>();
        List<Object> schemas = new ArrayList<>();
        List<Object> tables = new ArrayList<>();
        List<Object> sessions = new ArrayList<>();
        List<Object> queries = new ArrayList<>();
        if (admin != null) {
            String a = Pattern.quote(admin);
            catalogs.add(rule("user", a, "catalog", ".*", "allow", "all"));
            schemas.add(rule("user", a, "owner", true));
            tables.add(rule("user", a, "privileges", List.of("SELECT", "INSERT", "DELETE", "UPDATE", "OWNERSHIP",
                    "GRANT_SELECT")));
            sessions.add(rule("user", a, "allow", true));
            queries.add(rule("user", a, "allow", List.of("execute", "kill", "view")));
        }
        Set<String> readCatalogs = new LinkedHashSet<>();
        Set<List<String>> readSchemas = new LinkedHashSet<>();
        for (String t : policy.allowedTables()) {
            TableName n = resolve(t, catalog, schema);
            readCatalogs.add(n.catalog());
            readSchemas.add(List.of(n.catalog(), n.schema()));
            Map<String, Object> r = rule("user", u, "catalog", Pattern.quote(n.catalog()),
                    "schema", Pattern.quote(n.schema()), "table", Pattern.quote(n.table()),
                    "privileges", List.of("SELECT"));
            List<Object> columns = new ArrayList<>();
            for (Map.Entry<String, Set<String>> d : policy.deniedColumns().entrySet()) {
                if (resolve(d.getKey(), catalog, schema).equals(n)) {
                    for (String col : d.getValue()) {
                        columns.add(rule("name", col, "allow", false));
                    }
                }
            }
            if (!columns.isEmpty()) {
                r.put("columns", columns);
            }
            List<String> filters = new ArrayList<>();
            for (RowFilter f : policy.rowFilters()) {
                if (resolve(f.table(), catalog, schema).equals(n)) {
                    filters.add(quote(f.column()) + " = " + literal(f.value()));
                }
            }
            if (!filters.isEmpty()) {
                r.put("filter", String.join(" AND ", filters));
            }
            tables.add(r);
        }
        for (String c : readCatalogs) {
            catalogs.add(rule("user", u, "catalog", Pattern.quote(c), "allow", "read-only"));
        }
        // every other catalog, system included: no rule matches, and Trino denies; said here for the reader
        catalogs.add(rule("user", u, "catalog", ".*", "allow", "none"));
        for (List<String> s : readSchemas) {
            schemas.add(rule("user", u, "catalog", Pattern.quote(s.get(0)), "schema", Pattern.quote(s.get(1)),
                    "owner", false));
        }
        tables.add(rule("user", u, "privileges", List.of()));
        sessions.add(rule("user", u, "property", String.join("|", SESSION_PROPERTIES), "allow", true));
        sessions.add(rule("user", u, "allow", false));
        queries.add(rule("user", u, "allow", List.of("execute")));
        doc.put("catalogs", catalogs);
        doc.put("schemas", schemas);
        doc.put("tables", tables);
        doc.put("system_session_properties", sessions);
        doc.put("queries", queries);
        return doc;
    }

    private static Map<String, Object> rule(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /**
     * {@return a row filter's value as a Trino literal}
     *
     * @param v a string, number or boolean; null matches nothing
     */
    static String literal(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof String s) {
            return "'" + s.replace("'", "''") + "'";
        }
        if (v instanceof Boolean b) {
            return b ? "TRUE" : "FALSE";
        }
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return v.toString();
        }
        if (v instanceof Number n) {
            return "DECIMAL '" + new BigDecimal(n.toString()).toPlainString() + "'";
        }
        throw new IllegalArgumentException("a row filter value for Trino must be a string, number or boolean, not "
                + v.getClass().getName());
    }
}
