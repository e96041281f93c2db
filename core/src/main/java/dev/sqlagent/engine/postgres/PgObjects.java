package dev.sqlagent.engine.postgres;

import dev.sqlagent.engine.Reads;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.DatabaseObjects;
import dev.sqlagent.guard.FunctionPolicy;
import dev.sqlagent.guard.engine.EngineReading;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What PostgreSQL's plan text prints by name but binds by identity: functions and operators the database
 * defines itself under a built-in's name ({@code initcap(id)} printed bare is {@code public.initcap(integer)}
 * when that wins the overload resolution; {@code (id || id)} a user's {@code ||(integer, integer)}), and the
 * types of casts ({@code NULL::audit_log} is a table's row type, {@code '{…}'::regclass[]} a catalog type).
 *
 * <ul>
 *   <li>Types: every type a cast prints is resolved in the catalog ({@code to_regtype}), through domains and
 *       arrays to what it is over: a table's row type is a read of that whole table, a catalog type
 *       ({@code regclass}, {@code oid}, …) a catalog probe.</li>
 *   <li>Functions and operators: only when the database has any of its own (outside {@code pg_catalog} and
 *       {@code information_schema}, not of an installed extension), the statement is planned once more with
 *       {@code debug_print_plan} ({@link PgPlanDump}) and every function and operator oid of the planner's tree
 *       is looked up: one of the database's own is reported by its signature
 *       ({@link Reads#DATABASE_FUNCTION}), allowed only when the policy names it. When the tree cannot
 *       be had then, the statement is refused.</li>
 *   <li>A function in FROM may be given a column definition list ({@code jsonb_to_record(…) AS r(s secret)}),
 *       whose types the text does not print: for such a plan the tree is read too and those types are resolved
 *       like a cast's (without the tree they are left to the guard).</li>
 * </ul>
 */
final class PgObjects {

    /** Type names the grammar maps to {@code pg_catalog} whatever the search path (modifiers removed). */
    private static final Set<String> GRAMMAR_TYPES = Set.of("integer", "bigint", "smallint", "boolean", "real",
            "double precision", "numeric", "character varying", "character", "bit", "bit varying", "interval",
            "timestamp without time zone", "timestamp with time zone", "time without time zone",
            "time with time zone");

    /** A type's modifiers, {@code (10)} or {@code (10, 2)}; compiled once (it ran for every cast a plan prints). */
    private static final Pattern MODIFIERS = Pattern.compile("\\([^)]*\\)");
    private static final Pattern BLANKS = Pattern.compile("\\s+");

    private PgObjects() {
    }

    /**
     * What a type name a cast prints resolved to, level by level through domains and arrays: a catalog type,
     * the database's own functions a domain's checks call, a table whose row type it is.
     */
    record Resolution(String catalogType, List<String> domainFunctions, EngineReading.Table rowOf) {
    }

    /** Resolves the casts' types and, when the database has functions or operators of its own, the plan's calls. */
    static void read(Connection c, SqlStatement statement, int timeoutSeconds, Reads reads, boolean functionScan,
                     boolean own, Map<String, List<Resolution>> knownTypes) throws SQLException {
        Set<Long> columnTypes = Set.of();
        if (own || functionScan) {
            // a function in FROM may be given a column definition list, whose types the text does not print
            String tree = PgPlanDump.dump(c, statement, timeoutSeconds);
            if (tree == null && own) {
                reads.unreadable("the planner's tree, needed since the database defines functions or operators "
                        + "of its own");
            } else if (tree != null) {
                // (without the tree, a column definition list's types are left to the guard, as before)
                PgPlanDump.Calls calls = PgPlanDump.calls(tree);
                columnTypes = calls.columnTypes();
                if (own) {
                    own(c, calls, timeoutSeconds, reads);
                }
            }
        }
        types(c, timeoutSeconds, reads, columnTypes, knownTypes);
    }

    private static void types(Connection c, int timeoutSeconds, Reads reads, Set<Long> oids,
                              Map<String, List<Resolution>> knownTypes) throws SQLException {
        Set<String> wanted = new LinkedHashSet<>();
        for (String t : reads.types) {
            String bare = BLANKS.matcher(MODIFIERS.matcher(t).replaceAll(" ").replace("[", " ").replace("]", " ")
                    .trim()).replaceAll(" ").toLowerCase(Locale.ROOT);
            if (GRAMMAR_TYPES.contains(bare)) {
                continue;
            }
            List<Resolution> known = knownTypes.get(t);
            if (known != null) {
                known.forEach(r -> apply(r, reads));
            } else {
                wanted.add(t);
            }
        }
        if (wanted.isEmpty() && oids.isEmpty()) {
            return;
        }
        Map<String, List<Resolution>> resolutions = new java.util.HashMap<>();
        Array names = c.createArrayOf("text", wanted.toArray());
        Array typeOids = c.createArrayOf("int8", oids.toArray());
        try (PreparedStatement ps = c.prepareStatement("WITH RECURSIVE x(name, oid, depth) AS ("
                + "SELECT u.n, pg_catalog.to_regtype(u.n)::pg_catalog.oid, 0 FROM pg_catalog.unnest(?::text[]) AS u(n) "
                + "UNION ALL SELECT NULL, o::pg_catalog.oid, 0 FROM pg_catalog.unnest(?::int8[]) AS o "
                + "UNION ALL SELECT x.name, CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.typelem END, x.depth + 1 "
                + "FROM x JOIN pg_catalog.pg_type t ON t.oid = x.oid WHERE (t.typtype = 'd' OR t.typcategory = 'A' "
                + "AND t.typelem <> 0) AND x.depth < 16) "
                + "SELECT x.name, x.oid, tn.nspname, t.typname, rn.nspname, r.relname, "
                + "pg_catalog.to_regclass(pg_catalog.quote_ident(r.relname)) = r.oid, "
                + DatabaseObjects.DOMAIN_CHECKS + " FROM x "
                + "LEFT JOIN pg_catalog.pg_type t ON t.oid = x.oid "
                + "LEFT JOIN pg_catalog.pg_namespace tn ON tn.oid = t.typnamespace "
                + "LEFT JOIN pg_catalog.pg_class k ON k.oid = t.typrelid AND k.relkind IN ('r', 'v', 'm', 'p', 'f') "
                + "LEFT JOIN pg_catalog.pg_class r ON r.oid = CASE WHEN k.relispartition "
                + "THEN pg_catalog.pg_partition_root(k.oid) ELSE k.oid END "
                + "LEFT JOIN pg_catalog.pg_namespace rn ON rn.oid = r.relnamespace")) {
            if (timeoutSeconds > 0) {
                ps.setQueryTimeout(timeoutSeconds);
            }
            ps.setArray(1, names);
            ps.setArray(2, typeOids);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    if (rs.getObject(2) == null) {
                        continue;
                    }
                    String schema = rs.getString(3);
                    String type = rs.getString(4);
                    String catalogType = "pg_catalog".equals(schema) && type != null
                            && FunctionPolicy.isCatalogType(type.toLowerCase(Locale.ROOT))
                            ? type.toLowerCase(Locale.ROOT) : null;
                    List<String> functions = new ArrayList<>();
                    String checks = rs.getString(8);
                    if (checks != null) {
                        // a domain whose constraints call the database's own functions: a cast runs them
                        for (String sig : checks.split(";")) {
                            functions.add(DatabaseObjects.signature(sig));
                        }
                    }
                    // a table's row type: its columns are what the type reveals
                    EngineReading.Table rowOf = rs.getString(6) == null ? null
                            : new EngineReading.Table(rs.getString(5), rs.getString(6), rs.getBoolean(7));
                    Resolution r = new Resolution(catalogType, List.copyOf(functions), rowOf);
                    apply(r, reads);
                    if (name != null) {
                        resolutions.computeIfAbsent(name, x -> new ArrayList<>()).add(r);
                    }
                }
            }
        } finally {
            names.free();
            typeOids.free();
        }
        for (String t : wanted) {
            if (!resolutions.containsKey(t)) {
                reads.unreadable("the type " + t + ", which the catalog does not resolve");
            } else {
                knownTypes.put(t, List.copyOf(resolutions.get(t)));
            }
        }
    }

    private static void apply(Resolution r, Reads reads) {
        if (r.catalogType() != null) {
            reads.functions.add(Reads.CATALOG_CAST + r.catalogType());
        }
        for (String sig : r.domainFunctions()) {
            reads.functions.add(Reads.DATABASE_FUNCTION + sig);
        }
        if (r.rowOf() != null) {
            reads.tables.add(r.rowOf());
            reads.starReads.add(new EngineReading.StarRead(r.rowOf(), Set.of()));
        }
    }

    /**
     * Below this object identifier PostgreSQL's own catalog sources assign every OID (hand-assigned ones and
     * those genbki numbers): the server never hands out a lower one after its bootstrap, in normal or single-user
     * mode, even when the counter wraps around ({@code GetNewObjectId}). So a routine, an operator or a cast
     * function with a lower OID is one of PostgreSQL's own, in {@code pg_catalog}: {@link #OWN_ROUTINES} looks
     * only at the OIDs from here on, through each catalog's OID index, and answers as it would over every row.
     */
    static final int FIRST_UNFIXED_OID = 10_000;

    /**
     * From this object identifier on ({@code FirstNormalObjectId}) the server numbers what is created once it
     * runs: initdb's own scripts number theirs below it. A routine or operator numbered from here on is the
     * database's own even in {@code pg_catalog} or {@code information_schema} (a superuser may create one there,
     * and {@code pg_catalog} is searched before any schema of the path): it is told from PostgreSQL's own by
     * its identity, not by the name of its schema. An installed extension's objects stay left out.
     */
    static final int FIRST_NORMAL_OID = 16_384;

    /**
     * The schemas on the search path, as an array the server computes once per statement (an init plan), so
     * that {@code pg_proc} and {@code pg_operator} are each looked up once against it: the join it replaced
     * tested every row against the path and took about 2 ms a statement.
     */
    private static final String PATH = "ARRAY(SELECT n.oid FROM pg_catalog.pg_namespace n WHERE n.nspname"
            + " = ANY (pg_catalog.current_schemas(true)))";
    private static final String SYSTEM = "ARRAY(SELECT n.oid FROM pg_catalog.pg_namespace n WHERE n.nspname IN "
            + "('pg_catalog', 'information_schema'))";

    /**
     * Whether a row of {@code pg_proc}, {@code pg_operator} or {@code pg_type} is the database's own rather than
     * PostgreSQL's, by identity: outside PostgreSQL's schemas, or numbered from {@link #FIRST_NORMAL_OID} on.
     */
    static String ownObject(String oid, String namespace) {
        return "(" + oid + " >= " + FIRST_NORMAL_OID + " OR " + namespace + " <> ALL (" + SYSTEM + "))";
    }

    /** Whether an object is not a member of an installed extension. */
    static String notOfAnExtension(String catalog, String oid) {
        return "NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d WHERE d.classid = 'pg_catalog." + catalog
                + "'::pg_catalog.regclass AND d.objid = " + oid + " AND d.deptype = 'e')";
    }

    /**
     * Whether the database defines functions or operators of its own on the search path (or casts through
     * its own functions): outside {@code pg_catalog} and {@code information_schema}, or inside them but numbered
     * from {@link #FIRST_NORMAL_OID} on, and not of an installed extension. A select-list expression, read afresh
     * for every plan (never kept). Its text is constant, so that the driver prepares it once per connection on the
     * server: planning it took about 0.4 ms, five times as long as running it (bounded by
     * {@link #FIRST_UNFIXED_OID}, about 0.08 ms on a test server against 0.45 ms scanning every routine).
     */
    static final String OWN_ROUTINES = "(EXISTS (SELECT 1 FROM pg_catalog.pg_proc p WHERE p.oid >= "
            + FIRST_UNFIXED_OID + " AND p.pronamespace = ANY (" + PATH + ") AND "
            + ownObject("p.oid", "p.pronamespace") + " AND " + notOfAnExtension("pg_proc", "p.oid") + ") "
            + "OR EXISTS (SELECT 1 FROM pg_catalog.pg_operator o WHERE o.oid >= " + FIRST_UNFIXED_OID
            + " AND o.oprnamespace = ANY (" + PATH + ") AND " + ownObject("o.oid", "o.oprnamespace") + " AND "
            + notOfAnExtension("pg_operator", "o.oid") + ") "
            + "OR EXISTS (SELECT 1 FROM pg_catalog.pg_cast k JOIN pg_catalog.pg_proc p ON p.oid = k.castfunc "
            + "WHERE k.castfunc >= " + FIRST_UNFIXED_OID + " AND " + ownObject("p.oid", "p.pronamespace") + " AND "
            + notOfAnExtension("pg_proc", "p.oid") + "))";

    private static void own(Connection c, PgPlanDump.Calls calls, int timeoutSeconds, Reads reads) throws SQLException {
        if (calls.functions().isEmpty() && calls.operators().isEmpty()) {
            return;
        }
        Array functions = c.createArrayOf("int8", calls.functions().toArray());
        Array operators = c.createArrayOf("int8", calls.operators().toArray());
        try (PreparedStatement ps = c.prepareStatement("SELECT n.nspname || '.' || p.proname || '(' || "
                + "COALESCE((SELECT pg_catalog.string_agg(pg_catalog.format_type(a.t, NULL), ',' ORDER BY a.i) "
                + "FROM pg_catalog.unnest(p.proargtypes) WITH ORDINALITY a(t, i)), '') || ')' "
                + "FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace "
                + "WHERE p.oid = ANY (?::pg_catalog.oid[]) AND " + ownObject("p.oid", "p.pronamespace") + " AND "
                + notOfAnExtension("pg_proc", "p.oid") + " "
                + "UNION ALL SELECT n.nspname || '.' || o.oprname || '(' || CASE WHEN o.oprleft = 0 THEN 'none' "
                + "ELSE pg_catalog.format_type(o.oprleft, NULL) END || ',' || CASE WHEN o.oprright = 0 THEN 'none' "
                + "ELSE pg_catalog.format_type(o.oprright, NULL) END || ')' FROM pg_catalog.pg_operator o "
                + "JOIN pg_catalog.pg_namespace n ON n.oid = o.oprnamespace WHERE o.oid = ANY (?::pg_catalog.oid[]) "
                + "AND " + ownObject("o.oid", "o.oprnamespace") + " AND " + notOfAnExtension("pg_operator", "o.oid"))) {
            if (timeoutSeconds > 0) {
                ps.setQueryTimeout(timeoutSeconds);
            }
            ps.setArray(1, functions);
            ps.setArray(2, operators);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    reads.functions.add(Reads.DATABASE_FUNCTION + DatabaseObjects.signature(rs.getString(1)));
                }
            }
        } finally {
            functions.free();
            operators.free();
        }
    }
}
