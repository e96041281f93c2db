package dev.sqlagent.engine.trino;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.PlanReader;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.RowFilter;
import dev.sqlagent.guard.engine.EngineReading;
import dev.sqlagent.guard.engine.PrivilegeReport;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import javax.sql.DataSource;

/**
 * How the library talks to a Trino cluster, through the host's Trino JDBC driver (plain {@code java.sql}: core
 * never links the driver).
 *
 * <ul>
 *   <li>Engine check: {@link TrinoPlanReader} reads {@code EXPLAIN (TYPE IO, FORMAT JSON)} and the distributed
 *       plan in a read-only transaction (an EXPLAIN of a write would begin it on some connectors); the guard's
 *       own bound values (a row filter's) are written into the explained text as literals.</li>
 *   <li>Read-only: auto-commit off and read-only on, so the driver opens every transaction as
 *       {@code START TRANSACTION READ ONLY} (the driver ignores read-only under auto-commit).</li>
 *   <li>Bounded: the statement's time cap is also put in the session ({@code query_max_run_time},
 *       {@code query_max_execution_time}, see {@link TrinoSession}), so the cluster kills a query the client lost,
 *       and so are the question budget's scan and memory caps ({@code query_max_scan_physical_bytes},
 *       {@code query_max_memory}, {@code query_max_total_memory}; a cap the next question does not set is
 *       {@code RESET}); each set once per connection and value, not per statement. The driver's own timeout and
 *       {@code Statement.cancel()} cancel the query on the cluster.</li>
 *   <li>Names: a table has three names on a session ({@code catalog.schema.table}, {@code schema.table} and
 *       {@code table} for the session's catalog and schema); {@link #sessionNames} gives each policy entry all
 *       the names that bind the same table, and no other.</li>
 * </ul>
 */
final class TrinoDatabase implements EngineDatabase {

    /**
     * The caps last put in each connection's session, so that each is set again only when it changes (the
     * driver keeps session properties for the connection's later queries).
     */
    private final Map<Connection, TrinoSession.Limits> sessionCaps = new WeakHashMap<>();

    @Override
    public Optional<PlanReader> planReader() {
        return Optional.of(new PlanReader() {
            @Override
            public EngineReading read(Connection c, SqlStatement statement, int timeoutSeconds) throws SQLException {
                return TrinoPlanReader.read(c, inline(statement), timeoutSeconds);
            }
        });
    }

    /**
     * The statement with its bound values written in as literals, for {@code EXPLAIN} (which takes no
     * parameters through the driver). Only strings, integers, decimals and booleans are written; anything else
     * is refused (fail closed).
     */
    static String inline(SqlStatement statement) {
        List<Object> params = statement.parameters();
        if (params.isEmpty()) {
            return statement.sql();
        }
        String sql = statement.sql();
        List<TrinoSpelling.Token> toks = new ArrayList<>();
        String unlexable = TrinoSpelling.lex(sql, toks, true);
        if (unlexable != null) {
            throw new PlanReader.PlanNotUnderstood("the statement to explain cannot be read: " + unlexable);
        }
        StringBuilder out = new StringBuilder(sql.length() + 16 * params.size());
        int copied = 0;
        int next = 0;
        for (TrinoSpelling.Token t : toks) {
            if (t.kind() != TrinoSpelling.Kind.PUNCT || sql.charAt(t.start()) != '?') {
                continue;
            }
            if (next >= params.size()) {
                throw new PlanReader.PlanNotUnderstood("more placeholders than bound values");
            }
            out.append(sql, copied, t.start()).append(literal(params.get(next++)));
            copied = t.end();
        }
        if (next != params.size()) {
            throw new PlanReader.PlanNotUnderstood("fewer placeholders than bound values");
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    private static String literal(Object v) {
        if (v instanceof String s) {
            return "'" + s.replace("'", "''") + "'";
        }
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte
                || v instanceof BigInteger) {
            return v.toString();
        }
        if (v instanceof BigDecimal d) {
            return "DECIMAL '" + d.toPlainString() + "'";
        }
        if (v instanceof Boolean b) {
            return b ? "TRUE" : "FALSE";
        }
        throw new PlanReader.PlanNotUnderstood("a bound value of type " + (v == null ? "null" : v.getClass().getName())
                + " cannot be written into the explained statement");
    }

    /**
     * Trino's plan names operators and some syntax by internal names: {@code $operator$add} for {@code +},
     * {@code $like} for {@code LIKE}, {@code $format} for {@code format(…)}. Operators are syntax the guard checks as
     * syntax; {@code $format} and {@code $try} stand for {@code format} and {@code try}; {@code $json_query} and
     * {@code $json_value} for {@code JSON_QUERY} and {@code JSON_VALUE}, whose input conversion
     * ({@code $varchar_to_json}) and {@code JSON_QUERY}'s output conversion ({@code $json_to_varchar}) are parts of
     * them. Any other internal name ({@code $json_exists}, {@code $json_object}, …) stays unknown, so refused.
     */
    private static final Map<String, List<String>> FUNCTION_ALIASES = functionAliases(List.of("add", "subtract",
            "multiply", "divide", "modulus", "modulo", "negation", "equal", "not_equal", "less_than",
            "less_than_or_equal", "greater_than", "greater_than_or_equal", "subscript", "is_distinct_from",
            "identical", "indeterminate", "comparison_unordered_last", "comparison_unordered_first"));

    private static Map<String, List<String>> functionAliases(List<String> operators) {
        Map<String, List<String>> m = new java.util.HashMap<>();
        for (String o : operators) {
            m.put("$operator$" + o, List.of(""));
        }
        m.put("$like", List.of(""));
        m.put("$not", List.of(""));
        m.put("$format", List.of("format"));
        m.put("$try", List.of("try"));
        m.put("$try_cast", List.of(""));
        m.put("$operator$cast", List.of(""));
        m.put("$json_query", List.of("json_query"));
        m.put("$json_value", List.of("json_value"));
        m.put("$varchar_to_json", List.of("json_query", "json_value"));
        m.put("$json_to_varchar", List.of("json_query"));
        return Map.copyOf(m);
    }

    @Override
    public Map<String, List<String>> functionAliases() {
        return FUNCTION_ALIASES;
    }

    @Override
    public boolean networked() {
        return true;
    }

    @Override
    public List<String> driverPackages() {
        return List.of("io.trino.jdbc.");
    }

    @Override
    public ErrorCategory errorOfVendorCode(int code) {
        return TrinoErrors.ofCode(code);
    }

    @Override
    public boolean enforcesScanCap() {
        return true;
    }

    @Override
    public boolean enforcesMemoryCap() {
        return true;
    }

    @Override
    public Optional<Runnable> serverLimits(Connection c, DataSource dataSource, long timeoutMillis,
            boolean physicalOrder, long maxScanBytes, long maxMemoryBytes) throws SQLException {
        TrinoSession.Limits wanted = new TrinoSession.Limits(Duration.ofMillis(Math.max(1, timeoutMillis)),
                maxScanBytes, maxMemoryBytes);
        Connection session = session(c);
        TrinoSession.Limits before;
        synchronized (sessionCaps) {
            before = sessionCaps.get(session);
        }
        List<String> changes = TrinoSession.statements(before, wanted);
        if (!changes.isEmpty()) {
            synchronized (sessionCaps) {
                sessionCaps.remove(session); // unknown until every statement ran: a failure half-way sets all again
            }
            try (Statement s = c.createStatement()) {
                for (String set : changes) {
                    s.execute(set);
                }
            }
            synchronized (sessionCaps) {
                sessionCaps.put(session, wanted);
            }
        }
        return Optional.empty(); // the driver's timeout and Statement.cancel() cancel the query on the cluster too
    }

    /**
     * The connection that holds the session: a pool hands out a new wrapper of the same driver connection for
     * each borrow (HikariCP's proxies unwrap to it), and the caps it carries are the driver connection's.
     */
    private static Connection session(Connection c) {
        try {
            Connection inner = c.unwrap(Connection.class);
            return inner != null ? inner : c;
        } catch (SQLException | RuntimeException e) {
            return c; // a wrapper that does not unwrap: its caps are set again when it is new
        }
    }

    @Override
    public PrivilegeReport auditPrivileges(Connection c, Dialect dialect, GuardPolicy policy) throws SQLException {
        TrinoPrivileges.Report r = TrinoPrivileges.audit(c, policy);
        List<String> notes = new ArrayList<>(r.notes());
        notes.add("catalogs the login sees: " + r.catalogs());
        return new PrivilegeReport(dialect, r.login(), List.of(), r.forbiddenTables(), r.deniedColumns(), notes);
    }

    @Override
    public boolean bindsNamesBySession() {
        return true;
    }

    @Override
    public GuardPolicy sessionNames(Connection c, GuardPolicy policy) throws SQLException {
        String catalog = c.getCatalog();
        String schema = c.getSchema();
        if (catalog == null || schema == null) {
            return policy; // without a session catalog and schema, only full names bind: entries stay as written
        }
        GuardPolicy.Builder b = policy.toBuilder();
        for (String t : policy.allowedTables()) {
            b.allowTables(names(t, catalog, schema));
        }
        for (Map.Entry<String, Set<String>> e : policy.deniedColumns().entrySet()) {
            for (String n : names(e.getKey(), catalog, schema)) {
                for (String column : e.getValue()) {
                    b.denyColumn(n, column);
                }
            }
        }
        Set<String> filtered = new LinkedHashSet<>();
        for (RowFilter f : policy.rowFilters()) {
            filtered.add(f.table() + "\u0000" + f.column());
        }
        for (RowFilter f : policy.rowFilters()) {
            for (String n : names(f.table(), catalog, schema)) {
                if (filtered.add(n + "\u0000" + f.column())) {
                    b.rowFilter(n, f.column(), f.value());
                }
            }
        }
        return b.build();
    }

    /** Every name that binds the entry's table on a session of this catalog and schema (lower case). */
    static List<String> names(String entry, String catalog, String schema) {
        TrinoRules.TableName t = TrinoRules.resolve(entry, catalog, schema);
        List<String> out = new ArrayList<>();
        out.add(t.catalog() + "." + t.schema() + "." + t.table());
        if (t.catalog().equalsIgnoreCase(catalog)) {
            out.add(t.schema() + "." + t.table());
            if (t.schema().equalsIgnoreCase(schema)) {
                out.add(t.table());
            }
        }
        return out;
    }
}
