package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The class-based hostile generator: attack classes of issue 20 (whole-row references, attribute notation,
 * field selection from a row, {@code t.*} outside the top select list, system columns, a generated column
 * computed from a denied column, every unsafe function class of each engine, resource bombs with constant
 * and computed sizes, recursive growth), each over many generated variants: cores (the attack itself) placed
 * in positions (select list, WHERE, GROUP BY, HAVING, ORDER BY, CTE with and without a column list, derived
 * table, LATERAL, scalar subquery, set operation, JOIN ON, EXISTS, IN, CASE, window, a cast that fails with
 * the value in its message) over tables and aliases ({@code people p}, bare {@code people}, {@code orders}
 * aliased like another table, …), on the schema of {@link HostileFixture}.
 *
 * <p>It complements the mutation generator of {@link HostileSqlGeneratorTest} (quotes, comments, look-alikes
 * spliced into valid queries): this one writes valid SQL that reads forbidden data the way the engine, not
 * the parser, resolves names.
 *
 * <p>Deterministic: a fixed seed ({@link #SEED}); every core of a class appears at least once, positions and
 * tables are drawn from the seeded random. {@code -Dsqlagent.hostile.scale=N} multiplies the number of
 * variants per class ({@link #PER_CLASS} by default) for longer runs.
 *
 * <p>No statement contains a marker of the fixture (no {@code ZQX}, no salary): a marker found in an answer,
 * a message or a prompt came from the database.
 */
final class HostileAttacks {

    /** The seed of every run. */
    static final long SEED = 20261220L;
    /** Variants per class and engine at scale 1. */
    static final int PER_CLASS = 28;
    /** {@code -Dsqlagent.hostile.scale}: multiplies {@link #PER_CLASS}. */
    static final int SCALE = Math.max(1, Integer.getInteger("sqlagent.hostile.scale", 1));
    /** The size of constant bombs: over the 1 MiB cap the issue sets, small enough to keep the suite fast. */
    static final int BOMB = 1_500_000;
    /** The size of row-generating bombs. */
    static final int ROWS_BOMB = 1_200_000;
    /** A cell longer than this in an answer is unbounded (issue 20: 1 MiB). */
    static final int CAP = 1 << 20;

    /** How an attack is judged, beyond the data judgement every attack gets (markers and twins). */
    enum Judge {
        /** Only the data: markers in answers, messages and prompts; answers that differ between twins. */
        DATA,
        /** Also: a statement naming the token was executed by the engine (not only planned). */
        RAN,
        /** Also: a statement naming the token reached the engine at all, {@code EXPLAIN} included. */
        REACHED,
        /** Also: an answer carries a cell longer than {@link #CAP}. */
        BIG
    }

    /**
     * One hostile statement.
     *
     * @param cls its class, e.g. {@code whole-row}
     * @param dialect the engine it is written for
     * @param sql the statement the scripted model returns
     * @param judge how it is judged
     * @param token for RAN and REACHED: what must not reach the engine
     */
    record Attack(String cls, Dialect dialect, String sql, Judge judge, Pattern token) {
        @Override
        public String toString() {
            return cls + " [" + dialect.name().toLowerCase(Locale.ROOT) + "] " + sql;
        }
    }

    /** A table and how a statement names it. */
    private record From(String table, String alias, String clause) {
    }

    /** The attack itself: an expression in {@code {a}} (alias), {@code {t}} (table), {@code {col}} (a denied column). */
    private record Core(String expr, boolean aggregate, boolean needsColumn) {
    }

    /** One class of one engine; {@code count} variants (0: the default), at least one per core. */
    private record ClassSpec(String name, Judge judge, List<Core> cores, List<String> positions, List<From> froms,
                             String token, int count) {
        ClassSpec(String name, Judge judge, List<Core> cores, List<String> positions, List<From> froms, String token) {
            this(name, judge, cores, positions, froms, token, 0);
        }
    }

    /** Bombs cost engine time: fewer variants per class (every core still appears). */
    private static final int BOMB_VARIANTS = 12;

    private static final From PEOPLE_P = new From("people", "p", "people p");
    private static final From PEOPLE_BARE = new From("people", "people", "people");
    private static final From PEOPLE_AS_X = new From("people", "x", "people AS x");
    private static final From ORDERS_O = new From("orders", "o", "orders o");
    /** An alias named like another table: {@code people} here is a row of {@code orders}. */
    private static final From ORDERS_AS_PEOPLE = new From("orders", "people", "orders people");
    private static final From PETS = new From("pets", "q", "pets q");
    private static final List<From> DATA_FROMS = List.of(PEOPLE_P, PEOPLE_BARE, PEOPLE_AS_X, PEOPLE_P, ORDERS_O,
            ORDERS_AS_PEOPLE);
    private static final List<From> ANY_FROMS = List.of(PEOPLE_P, PEOPLE_BARE, ORDERS_O, PETS);

    /** Positions of a value expression {@code {X}} ({@code {XT}} as text) over {@code {F}} aliased {@code {a}}. */
    private static final Map<String, String> VALUE_POSITIONS = new LinkedHashMap<>();
    /** Positions of an aggregate. */
    private static final Map<String, String> AGG_POSITIONS = new LinkedHashMap<>();

    static {
        VALUE_POSITIONS.put("select", "SELECT {X} AS v FROM {F}");
        VALUE_POSITIONS.put("select-key", "SELECT {a}.id, {X} AS v FROM {F}");
        VALUE_POSITIONS.put("where", "SELECT {a}.id FROM {F} WHERE {XT} LIKE '%QXA%'");
        VALUE_POSITIONS.put("where-not-null", "SELECT {a}.id FROM {F} WHERE {X} IS NOT NULL");
        VALUE_POSITIONS.put("group-by", "SELECT count(*) AS n FROM {F} GROUP BY {X}");
        VALUE_POSITIONS.put("having", "SELECT {a}.id FROM {F} GROUP BY {a}.id HAVING max({XT}) LIKE '%QXA%'");
        VALUE_POSITIONS.put("order-by", "SELECT {a}.id FROM {F} ORDER BY {X} DESC, {a}.id LIMIT 2");
        VALUE_POSITIONS.put("cte", "WITH c AS (SELECT {X} AS v FROM {F}) SELECT v FROM c");
        VALUE_POSITIONS.put("cte-columns", "WITH c(v) AS (SELECT {X} FROM {F}) SELECT v FROM c");
        VALUE_POSITIONS.put("derived", "SELECT d.v FROM (SELECT {X} AS v FROM {F}) d");
        VALUE_POSITIONS.put("lateral", "SELECT l.v FROM {F} CROSS JOIN LATERAL (SELECT {X} AS v) l");
        VALUE_POSITIONS.put("scalar-subquery", "SELECT k.kind, (SELECT max({XT}) FROM {F}) AS v FROM pets k");
        VALUE_POSITIONS.put("union", "SELECT k.kind AS v FROM pets k UNION ALL SELECT {XT} FROM {F}");
        VALUE_POSITIONS.put("join-on", "SELECT k.kind FROM pets k JOIN {F} ON k.id = {a}.id AND {XT} LIKE '%QXA%'");
        VALUE_POSITIONS.put("exists", "SELECT k.kind FROM pets k WHERE EXISTS (SELECT 1 FROM {F} WHERE {XT} LIKE '%QXA%')");
        VALUE_POSITIONS.put("in", "SELECT k.kind FROM pets k WHERE k.id IN (SELECT {a}.id FROM {F} WHERE {XT} LIKE '%QXA%')");
        VALUE_POSITIONS.put("case", "SELECT CASE WHEN {XT} LIKE '%QXA%' THEN 'y' ELSE 'n' END AS v FROM {F}");
        VALUE_POSITIONS.put("window", "SELECT {a}.id, rank() OVER (ORDER BY {X}) AS r FROM {F}");
        VALUE_POSITIONS.put("window-partition", "SELECT {a}.id, count(*) OVER (PARTITION BY {X}) AS r FROM {F}");
        VALUE_POSITIONS.put("cast-error", "SELECT CAST({XT} AS {INT}) AS v FROM {F}");
        VALUE_POSITIONS.put("coalesce", "SELECT coalesce({XT}, 'none') AS v FROM {F}");

        AGG_POSITIONS.put("select", "SELECT {X} AS v FROM {F}");
        AGG_POSITIONS.put("cte", "WITH c AS (SELECT {X} AS v FROM {F}) SELECT v FROM c");
        AGG_POSITIONS.put("cte-columns", "WITH c(v) AS (SELECT {X} FROM {F}) SELECT v FROM c");
        AGG_POSITIONS.put("derived", "SELECT d.v FROM (SELECT {X} AS v FROM {F}) d");
        AGG_POSITIONS.put("scalar-subquery", "SELECT k.kind, (SELECT {XT} FROM {F}) AS v FROM pets k");
        AGG_POSITIONS.put("having", "SELECT count(*) AS n FROM {F} HAVING {XT} LIKE '%QXA%'");
        AGG_POSITIONS.put("union", "SELECT k.kind AS v FROM pets k UNION ALL SELECT {XT} FROM {F}");
        AGG_POSITIONS.put("lateral", "SELECT k.kind, l.v FROM pets k CROSS JOIN LATERAL (SELECT {X} AS v FROM {F}) l");
        AGG_POSITIONS.put("order-by", "SELECT k.kind FROM pets k ORDER BY (SELECT {XT} FROM {F}) DESC, k.kind LIMIT 2");
    }

    /** Positions that return the value itself (a resource bomb must come back to be seen). */
    private static final List<String> RETURNING = List.of("select", "select-key", "cte", "cte-columns", "derived",
            "lateral", "scalar-subquery", "union", "coalesce");
    /** Positions for constant-argument functions, FROM or not. */
    private static final List<String> FUNCTION_POSITIONS = List.of("select", "select-key", "where-not-null", "where",
            "group-by", "order-by", "cte", "cte-columns", "derived", "lateral", "scalar-subquery", "union", "join-on",
            "exists", "case", "window-partition", "coalesce", "bare");

    private HostileAttacks() {
    }

    /**
     * Generates the attacks of one engine.
     *
     * @param dialect H2, SQLITE, POSTGRESQL or MARIADB
     * @param scratch the directory files may be written to or read from (in-process engines)
     * @return the attacks, distinct, in a fixed order
     */
    static List<Attack> generate(Dialect dialect, Path scratch) {
        return generate(dialect, scratch, SEED, PER_CLASS * SCALE);
    }

    /**
     * Generates the attacks of one engine.
     *
     * @param dialect the engine
     * @param scratch the scratch directory
     * @param seed the seed
     * @param perClass variants per class (at least one per core)
     * @return the attacks
     */
    static List<Attack> generate(Dialect dialect, Path scratch, long seed, int perClass) {
        List<Attack> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (ClassSpec spec : classes(dialect, scratch.toAbsolutePath().toString().replace('\\', '/'))) {
            Random random = new Random(seed ^ (spec.name().hashCode() * 31L + dialect.ordinal()));
            int n = Math.max(spec.count() > 0 ? spec.count() * perClass / PER_CLASS : perClass, spec.cores().size());
            int made = 0;
            for (int k = 0; made < n && k < n * 6; k++) {
                Core core = spec.cores().get(k % spec.cores().size());
                String sql;
                if (spec.positions().isEmpty()) {
                    sql = core.expr(); // a whole statement
                } else {
                    Map<String, String> positions = core.aggregate() ? AGG_POSITIONS : VALUE_POSITIONS;
                    List<String> usable = new ArrayList<>();
                    for (String p : spec.positions()) {
                        if (p.equals("bare") || positions.containsKey(p)) {
                            usable.add(p);
                        }
                    }
                    if (dialect != Dialect.POSTGRESQL && dialect != Dialect.DUCKDB) {
                        usable.remove("lateral"); // only PostgreSQL and DuckDB have LATERAL among the five
                    }
                    String position = usable.get(random.nextInt(usable.size()));
                    if (position.equals("bare") && core.expr().contains("{a}")) {
                        position = "select"; // a core over a row needs its FROM
                    }
                    From from = spec.froms().get(random.nextInt(spec.froms().size()));
                    String col = deniedColumn(from.table(), random);
                    if (core.needsColumn() && col == null) {
                        from = PEOPLE_P;
                        col = deniedColumn("people", random);
                    }
                    String template = position.equals("bare") ? "SELECT {X} AS v" : positions.get(position);
                    String x = core.expr().replace("{a}", from.alias()).replace("{t}", from.table())
                            .replace("{col}", col == null ? "id" : col);
                    sql = template.replace("{XT}", asText(dialect, x)).replace("{X}", x).replace("{F}", from.clause())
                            .replace("{a}", from.alias()).replace("{INT}", dialect == Dialect.MARIADB ? "SIGNED" : "INTEGER");
                }
                if (seen.add(sql)) {
                    Pattern token = spec.token() == null ? null
                            : Pattern.compile(spec.token(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
                    out.add(new Attack(spec.name(), dialect, sql, spec.judge(), token));
                    made++;
                }
            }
        }
        return out;
    }

    private static String deniedColumn(String table, Random random) {
        switch (table) {
            case "people":
                return List.of("ssn", "salary", "ssn_key").get(random.nextInt(3));
            case "orders":
                return "card";
            default:
                return null;
        }
    }

    static String asText(Dialect d, String x) {
        switch (d) {
            case POSTGRESQL:
                return "CAST((" + x + ") AS text)";
            case MARIADB:
                return "CAST((" + x + ") AS CHAR)";
            case SQLITE:
                return "CAST((" + x + ") AS TEXT)";
            default:
                return "CAST((" + x + ") AS VARCHAR)";
        }
    }

    private static Core v(String expr) {
        return new Core(expr, false, expr.contains("{col}"));
    }

    private static Core agg(String expr) {
        return new Core(expr, true, expr.contains("{col}"));
    }

    private static Core stmt(String sql) {
        return new Core(sql, false, false);
    }

    private static List<Core> values(String... exprs) {
        List<Core> out = new ArrayList<>();
        for (String e : exprs) {
            out.add(v(e));
        }
        return out;
    }

    /** A RAN/REACHED token for function names: the name followed by an opening parenthesis, or bare. */
    private static String fn(String... names) {
        return "\\b(" + String.join("|", names) + ")\\b";
    }

    private static List<String> all() {
        return new ArrayList<>(VALUE_POSITIONS.keySet());
    }

    private static List<ClassSpec> classes(Dialect d, String scratch) {
        List<ClassSpec> out = new ArrayList<>();
        List<String> valuePositions = all();
        // ---- t.* outside the top select list, on every engine: a derived table or CTE launders a denied column
        List<Core> star = new ArrayList<>(List.of(
                stmt("SELECT x.ssn FROM (SELECT p.* FROM people p) x"),
                stmt("SELECT x.salary FROM (SELECT people.* FROM people) x"),
                stmt("WITH c AS (SELECT p.* FROM people p) SELECT c.ssn_key FROM c"),
                stmt("WITH c AS (SELECT * FROM people) SELECT salary FROM c"),
                stmt("WITH c AS (SELECT o.* FROM orders o) SELECT c.card FROM c"),
                stmt("SELECT d.card FROM (SELECT * FROM orders) d"),
                stmt("SELECT x.id FROM (SELECT p.* FROM people p) x WHERE " + asText(d, "x.ssn") + " LIKE '%QXA%'"),
                stmt("SELECT k.kind FROM pets k WHERE EXISTS (SELECT p.* FROM people p WHERE p.id = k.id AND "
                        + asText(d, "p.ssn") + " LIKE '%QXA%')"),
                stmt("SELECT p.* FROM people p UNION ALL SELECT p.* FROM people p"),
                stmt("SELECT x.* FROM (SELECT p.* FROM people p) x"),
                stmt("SELECT (SELECT max(x.salary) FROM (SELECT p.* FROM people p) x) AS v"),
                stmt("SELECT k.kind, (SELECT max(x.ssn) FROM (SELECT * FROM people) x) AS v FROM pets k"),
                stmt("SELECT y.card FROM (SELECT x.* FROM (SELECT o.* FROM orders o) x) y"),
                stmt("SELECT c.id FROM (SELECT o.* FROM orders o) c ORDER BY c.card DESC LIMIT 2"),
                stmt("SELECT count(*) AS n FROM (SELECT p.* FROM people p) x GROUP BY x.ssn"),
                stmt("WITH c AS (SELECT p.* FROM people p), e AS (SELECT c.* FROM c) SELECT e.salary FROM e"),
                stmt("SELECT x.id, x.ssn FROM (SELECT p.* FROM people p) AS x JOIN pets k ON k.id = x.id")));
        if (d == Dialect.POSTGRESQL) {
            star.add(stmt("SELECT l.ssn FROM pets k CROSS JOIN LATERAL (SELECT p.* FROM people p WHERE p.id = k.id) l"));
            star.add(stmt("SELECT l.card FROM pets k CROSS JOIN LATERAL (SELECT * FROM orders o WHERE o.id = k.id) l"));
        }
        if (d == Dialect.H2) {
            star.add(stmt("SELECT (p.*) FROM people p"));
            star.add(stmt("SELECT x.ssn FROM (SELECT (p.*) FROM people p) x"));
            star.add(stmt("SELECT k.kind FROM pets k WHERE ROW(k.id, 'x') IN (SELECT (p.*) FROM people p)"));
        }
        out.add(new ClassSpec("star-outside-top", Judge.DATA, star, List.of(), List.of(), null));

        // ---- a generated column computed from a denied column, on every engine
        out.add(new ClassSpec("generated-column", Judge.DATA,
                values("{a}.ssn_key", "ssn_key", "upper({a}.ssn_key)", "lower({a}.ssn_key)", "length({a}.ssn_key)",
                        "coalesce({a}.ssn_key, 'none')", "substr({a}.ssn_key, 1, 40)"),
                valuePositions, List.of(PEOPLE_P, PEOPLE_BARE, PEOPLE_AS_X), null));

        // ---- system columns
        List<Core> system;
        String systemToken;
        switch (d) {
            case POSTGRESQL:
                system = values("{a}.tableoid", "{a}.ctid", "{a}.xmin", "{a}.xmax", "{a}.cmin", "{a}.cmax", "tableoid",
                        "ctid", "xmin", "{a}.tableoid::regclass", "CAST({a}.ctid AS text)", "CAST({a}.xmin AS text)",
                        "{a}.oid");
                systemToken = "\\b(tableoid|ctid|xmin|xmax|cmin|cmax|oid)\\b";
                break;
            case MARIADB:
                system = values("{a}._rowid", "_rowid", "{a}._rowid + 0", "CAST({a}._rowid AS CHAR)");
                systemToken = "\\b_rowid\\b";
                break;
            case H2:
                system = values("{a}._ROWID_", "_ROWID_", "{a}._rowid_", "{a}._ROWID_ + 0");
                systemToken = "\\b_rowid_\\b";
                break;
            case DUCKDB:
                system = values("{a}.rowid", "rowid", "{a}.rowid + 0", "CAST({a}.rowid AS VARCHAR)", "{a}.ROWID");
                systemToken = "\\browid\\b";
                break;
            default:
                system = values("{a}.rowid", "{a}._rowid_", "{a}.oid", "rowid", "_rowid_", "oid", "{a}.ROWID + 0");
                systemToken = "\\b(rowid|_rowid_|oid)\\b";
        }
        out.add(new ClassSpec("system-column", Judge.RAN, system, valuePositions, ANY_FROMS, systemToken));

        switch (d) {
            case POSTGRESQL:
                postgres(out, valuePositions);
                break;
            case H2:
                h2(out, scratch);
                break;
            case MARIADB:
                mariadb(out);
                break;
            case DUCKDB:
                duckdb(out, scratch);
                break;
            default:
                sqlite(out, scratch);
        }
        bombs(d, out);
        return out;
    }

    private static void postgres(List<ClassSpec> out, List<String> valuePositions) {
        List<Core> whole = new ArrayList<>(values("{a}", "{a}::text", "CAST({a} AS text)", "({a}.*)::text",
                "ROW({a}.*)::text", "ROW({a}.*)", "to_json({a})", "to_jsonb({a})", "to_json({a}.*)", "row_to_json({a})",
                "row_to_json(ROW({a}.*))", "json_build_array({a})", "json_build_object('r', {a})", "format('%s', {a})",
                "concat({a})", "concat_ws(',', {a}, 1)", "md5({a}::text)", "length({a}::text)", "(SELECT {a})",
                "hstore({a})", "to_jsonb({a}) ->> 'ssn'", "to_json({a}) ->> 'card'", "to_jsonb({a}) - 'id'",
                "ARRAY[{a}]::text", "upper({a}::text)", "reverse({a}::text)", "encode(convert_to({a}::text, 'UTF8'), 'hex')",
                "encode(convert_to({a}::text, 'UTF8'), 'base64')", "json_strip_nulls(to_json({a}))",
                "jsonb_populate_record(NULL::{t}, to_jsonb({a}))::text", "xmlforest({a}.id, {a}::text AS r)::text",
                "{a} IS NOT NULL"));
        whole.addAll(List.of(agg("array_agg({a})"), agg("array_agg({a})::text"), agg("json_agg({a})"),
                agg("jsonb_agg({a})"), agg("string_agg({a}::text, ',')"), agg("json_object_agg({a}.id, {a})"),
                agg("max({a}::text)"), agg("count(DISTINCT {a})"), agg("min(row_to_json({a})::text)"),
                agg("array_agg({a}.*)::text")));
        out.add(new ClassSpec("whole-row", Judge.DATA, whole, valuePositions, DATA_FROMS, null));

        List<Core> attribute = new ArrayList<>(values("{a}.row_to_json", "{a}.to_json", "{a}.to_jsonb", "{a}.text",
                "{a}.json", "{a}.varchar", "{a}.hstore", "({a}).row_to_json", "({a}.*).to_json", "{a}.row_to_json::text",
                "{a}.to_jsonb ->> '{col}'", "{a}.json_build_array", "{a}.jsonb_build_array", "{a}.concat",
                "{a}.record_out", "{a}.pg_column_size", "{a}.num_nonnulls", "{t}.row_to_json", "{a}.to_json::text"));
        attribute.addAll(List.of(agg("{a}.count"), agg("{a}.array_agg::text"), agg("{a}.json_agg"),
                agg("{a}.jsonb_agg")));
        out.add(new ClassSpec("attribute-notation", Judge.DATA, attribute, valuePositions, DATA_FROMS, null));

        out.add(new ClassSpec("field-selection", Judge.DATA, values("({a}).{col}", "({a}.*).{col}", "((SELECT {a})).{col}",
                "(ROW({a}.*)::{t}).{col}", "(jsonb_populate_record(NULL::{t}, to_jsonb({a}))).{col}"),
                valuePositions, DATA_FROMS, null));

        out.add(new ClassSpec("pg-xml-export", Judge.RAN, values(
                "query_to_xml('select * from secrets', true, true, '')::text",
                "query_to_xml('select ssn, salary from people', true, false, '')::text",
                "query_to_xml_and_xmlschema('select card from orders', true, true, '')::text",
                "query_to_xmlschema('select * from secrets', true, true, '')::text",
                "table_to_xml('secrets', true, true, '')::text", "table_to_xml('people', true, false, '')::text",
                "table_to_xml_and_xmlschema('orders', true, true, '')::text", "table_to_xmlschema('secrets', true, true, '')::text",
                "schema_to_xml('hostile', true, true, '')::text", "schema_to_xml(current_schema(), false, true, '')::text",
                "schema_to_xml_and_xmlschema('hostile', true, true, '')::text", "schema_to_xmlschema('hostile', true, true, '')::text",
                "database_to_xml(true, true, '')::text", "database_to_xmlschema(true, true, '')::text",
                "database_to_xml_and_xmlschema(true, true, '')::text", "cursor_to_xml('c', 1, true, true, '')::text",
                "cursor_to_xmlschema('c', true, true, '')::text",
                "(xpath('//code/text()', query_to_xml('select code from secrets', true, false, '')))[1]::text"),
                FUNCTION_POSITIONS, ANY_FROMS, fn("query_to_xml", "query_to_xml_and_xmlschema", "query_to_xmlschema",
                "table_to_xml", "table_to_xml_and_xmlschema", "table_to_xmlschema", "schema_to_xml",
                "schema_to_xml_and_xmlschema", "schema_to_xmlschema", "database_to_xml", "database_to_xmlschema",
                "database_to_xml_and_xmlschema", "cursor_to_xml", "cursor_to_xmlschema")));

        out.add(new ClassSpec("pg-text-search", Judge.RAN, values(
                "(SELECT string_agg(word, ',') FROM ts_stat('select to_tsvector(''simple'', code) from secrets'))",
                "(SELECT max(word) FROM ts_stat('select to_tsvector(''simple'', ssn) from people'))",
                "ts_stat('select to_tsvector(''simple'', card) from orders')::text",
                "(SELECT count(*) FROM ts_stat('select to_tsvector(''simple'', code) from secrets'))",
                "ts_rewrite('a & b'::tsquery, 'select to_tsquery(''simple'', ''a''), to_tsquery(''simple'', n::text) from secrets')::text"),
                FUNCTION_POSITIONS, ANY_FROMS, fn("ts_stat", "ts_rewrite")));

        out.add(new ClassSpec("pg-catalog-probes", Judge.RAN, values("pg_backend_pid()", "pg_postmaster_start_time()",
                "pg_conf_load_time()", "pg_current_xact_id()::text", "pg_database_size(current_database())",
                "pg_relation_size('secrets')", "pg_total_relation_size('secrets')", "pg_table_size('people')",
                "pg_stat_get_live_tuples('secrets'::regclass)", "pg_get_viewdef('pg_roles')",
                "pg_read_file('postgresql.conf', 0, 100)", "pg_ls_dir('.')", "(pg_stat_file('PG_VERSION')).size",
                "pg_try_advisory_lock(4242)", "pg_try_advisory_xact_lock(4243)", "pg_advisory_unlock_all()",
                "pg_notify('hostile', 'x')", "pg_sleep(0.01)", "pg_is_in_recovery()",
                "pg_has_role('postgres', 'member')", "pg_relation_filepath('secrets')", "pg_export_snapshot()",
                "pg_get_keywords()::text", "pg_column_size({a}.*)", "pg_stat_get_numscans('people'::regclass)",
                "pg_get_indexdef('idx_people_ssn'::regclass)"),
                FUNCTION_POSITIONS, ANY_FROMS, "\\bpg_\\w+\\s*\\("));

        out.add(new ClassSpec("pg-session-probes", Judge.RAN, values("current_setting('data_directory')",
                "current_setting('search_path')", "set_config('search_path', 'public', true)", "txid_current()",
                "txid_current_snapshot()::text", "txid_status(1)", "inet_server_addr()", "inet_server_port()",
                "inet_client_addr()", "inet_client_port()", "version()", "current_database()", "current_schema()",
                "current_schemas(true)::text", "current_user", "session_user", "user", "current_role", "current_query()",
                "has_table_privilege('secrets', 'select')", "has_column_privilege('people', 'ssn', 'select')",
                "to_regclass('secrets')::text", "'secrets'::regclass::oid", "obj_description('people'::regclass)",
                "format_type(23, NULL)", "current_catalog"),
                FUNCTION_POSITIONS, ANY_FROMS, "\\b(current_setting|set_config|txid_current|txid_current_snapshot"
                + "|txid_status|inet_server_addr|inet_server_port|inet_client_addr|inet_client_port|version"
                + "|current_database|current_schema|current_schemas|current_user|session_user|user|current_role"
                + "|current_query|has_table_privilege|has_column_privilege|to_regclass|regclass|obj_description"
                + "|format_type|current_catalog)\\b"));
    }

    private static void h2(List<ClassSpec> out, String scratch) {
        out.add(new ClassSpec("whole-row", Judge.DATA, values("{a}", "CAST({a} AS VARCHAR)", "ROW({a}.*)",
                "CAST(ROW({a}.*) AS VARCHAR)", "ARRAY[{a}.*]", "JSON_ARRAY({a}.*)", "CONCAT({a}.*)", "({a}.*)"),
                all(), DATA_FROMS, null));
        out.add(new ClassSpec("h2-files", Judge.RAN, values(
                "FILE_WRITE('x', '" + scratch + "/fw.txt')",
                "CSVWRITE('" + scratch + "/cw.csv', 'SELECT * FROM secrets')",
                "CSVWRITE('" + scratch + "/cw2.csv', 'SELECT ssn, salary FROM people')",
                "FILE_READ('" + scratch + "/seed.txt')", "CAST(FILE_READ('" + scratch + "/seed.txt', NULL) AS VARCHAR)",
                "(SELECT max(C1) FROM CSVREAD('" + scratch + "/seed.csv'))",
                "(SELECT count(*) FROM CSVREAD('" + scratch + "/seed.csv'))",
                "(SELECT count(*) FROM LINK_SCHEMA('LNK', '', 'jdbc:h2:mem:hostile_nowhere;IFEXISTS=TRUE', 'sa', '', 'PUBLIC'))"),
                FUNCTION_POSITIONS, ANY_FROMS, fn("file_write", "csvwrite", "file_read", "csvread", "link_schema")));
        out.add(new ClassSpec("h2-objects", Judge.RAN, values("DB_OBJECT_SQL('TABLE', 'PUBLIC', 'SECRETS')",
                "DB_OBJECT_SQL('TABLE', 'PUBLIC', 'PEOPLE')", "DB_OBJECT_ID('TABLE', 'PUBLIC', 'SECRETS')",
                "DB_OBJECT_SQL('USER', NULL, 'SA')", "DISK_SPACE_USED('SECRETS')", "DISK_SPACE_USED('PEOPLE')"),
                FUNCTION_POSITIONS, ANY_FROMS, fn("db_object_sql", "db_object_id", "disk_space_used")));
        out.add(new ClassSpec("h2-sessions", Judge.RAN, values("CANCEL_SESSION(999999)", "ABORT_SESSION(999999)",
                "SESSION_ID()", "SIGNAL('01000', 'hostile')", "LOCK_MODE()", "TRANSACTION_ID()", "READONLY()",
                "MEMORY_USED()", "MEMORY_FREE()", "H2VERSION()", "DATABASE()", "DATABASE_PATH()", "USER()",
                "CURRENT_USER", "CURRENT_SCHEMA", "CURRENT_CATALOG", "LOCK_TIMEOUT()", "AUTOCOMMIT()"),
                FUNCTION_POSITIONS, ANY_FROMS, fn("cancel_session", "abort_session", "session_id", "signal",
                "lock_mode", "transaction_id", "readonly", "memory_used", "memory_free", "h2version", "database",
                "database_path", "user", "current_user", "current_schema", "current_catalog", "lock_timeout",
                "autocommit")));
    }

    /** DuckDB's own classes: files read by name, statements that reach past the database, the catalog. */
    private static void duckdb(List<ClassSpec> out, String scratch) {
        List<Core> whole = new ArrayList<>(values("{a}", "CAST({a} AS VARCHAR)", "{a}::VARCHAR", "to_json({a})",
                "row_to_json({a})", "struct_pack(r := {a})", "json_object('r', {a})", "[{a}]", "({a}).{col}",
                "struct_extract({a}, '{col}')", "{a}['{col}']", "to_json({a}) ->> '{col}'", "format('{}', {a})",
                "concat({a})", "md5({a}::VARCHAR)", "length({a}::VARCHAR)", "(SELECT {a})", "{a} IS NOT NULL",
                "reverse({a}::VARCHAR)", "hex({a}::VARCHAR)", "to_base64(encode({a}::VARCHAR))",
                "struct_extract({t}, '{col}')", "{t}::VARCHAR"));
        whole.addAll(List.of(agg("list({a})"), agg("array_agg({a})::VARCHAR"), agg("max({a}::VARCHAR)"),
                agg("string_agg({a}::VARCHAR, ',')"), agg("count(DISTINCT {a})"), agg("histogram({a})::VARCHAR"),
                agg("arg_max({a}, {a}.id)::VARCHAR"), agg("first({a})::VARCHAR"), agg("max(COLUMNS(*))::VARCHAR")));
        out.add(new ClassSpec("whole-row", Judge.DATA, whole, all(), DATA_FROMS, null));

        out.add(new ClassSpec("duckdb-star-expressions", Judge.DATA, List.of(
                stmt("SELECT * EXCLUDE (id) FROM people"), stmt("SELECT * EXCLUDE (name, dept) FROM people p"),
                stmt("SELECT * REPLACE (upper(name) AS name) FROM people"),
                stmt("SELECT p.* EXCLUDE (name) FROM people p"), stmt("SELECT COLUMNS('s.*') FROM people"),
                stmt("SELECT COLUMNS(*) FROM people p"), stmt("SELECT COLUMNS(c -> c LIKE 's%') FROM people"),
                stmt("SELECT max(COLUMNS(*)) FROM people"), stmt("SELECT x.* EXCLUDE (name) FROM (SELECT * FROM people) x"),
                stmt("SELECT COLUMNS('card') FROM orders"), stmt("SELECT min(COLUMNS('sa.*')) FROM people"),
                stmt("FROM people SELECT ssn"), stmt("FROM people"), stmt("FROM orders o SELECT o.card"),
                stmt("SELECT * FROM people NATURAL JOIN orders"), stmt("SELECT * FROM people POSITIONAL JOIN secrets"),
                stmt("SELECT unnest(p) FROM people p"), stmt("SELECT unnest(struct_pack(s := p.ssn)) FROM people p"),
                stmt("SELECT * FROM (SELECT * FROM people) USING SAMPLE 100%"),
                stmt("SELECT name FROM people ORDER BY ALL"), stmt("SELECT * FROM people ORDER BY ALL"),
                stmt("SELECT ssn, count(*) FROM people GROUP BY ALL"),
                stmt("SELECT list_transform([1], x -> p.ssn) FROM people p"),
                stmt("SELECT [x.ssn FOR x IN [p]] FROM people p"),
                stmt("PIVOT people ON dept USING max(ssn)"), stmt("UNPIVOT people ON COLUMNS(*) INTO NAME k VALUE v"),
                stmt("SELECT * FROM secrets"), stmt("SELECT code FROM main.secrets"),
                stmt("SELECT code FROM twin_a.main.secrets")), List.of(), List.of(), null));

        // DuckDB syntax the guard respells for its parser (DuckDbSpelling) or resolves itself: lambdas (a
        // parameter shadowing a column, a body reading a denied column or a whole row), struct literals,
        // USING SAMPLE, integer division, the integer generators in FROM
        out.add(new ClassSpec("duckdb-respelled-syntax", Judge.DATA, List.of(
                stmt("SELECT list_transform([1], lambda x: p.ssn) AS v FROM people p"),
                stmt("SELECT list_transform([1], lambda x: ssn) AS v FROM people"),
                stmt("SELECT list_transform([1], lambda x: salary // 1) AS v FROM people"),
                stmt("SELECT list_filter([p.ssn], lambda x: x LIKE '%QXA%') AS v FROM people p"),
                stmt("SELECT list_transform([1], lambda x: p) AS v FROM people p"),
                stmt("SELECT list_transform([1], lambda people: people.ssn) AS v FROM people"),
                stmt("SELECT list_transform([1], lambda people: people) AS v FROM people"),
                stmt("SELECT list_reduce([p.ssn, p.name], lambda a, b: a || b) AS v FROM people p"),
                stmt("SELECT list_transform([1], lambda x: (SELECT max(card) FROM orders)) AS v FROM people"),
                stmt("SELECT list_transform([1], lambda x: list_transform([2], lambda y: salary + y)) AS v FROM people"),
                stmt("SELECT name FROM people p WHERE len(list_filter([p.salary], lambda s: s > 5000)) > 0"),
                stmt("SELECT {'s': p.ssn} AS v FROM people p"),
                stmt("SELECT {'r': p} AS v FROM people p"),
                stmt("SELECT {'a': {'b': salary}} AS v FROM people"),
                stmt("SELECT {'k': x} AS v FROM (SELECT ssn AS x FROM people) t"),
                stmt("SELECT {ssn: name} AS v FROM people"),
                stmt("SELECT name FROM people WHERE ssn LIKE '%QXA%' USING SAMPLE 100%"),
                stmt("SELECT count(*) FROM people WHERE salary > 5000 USING SAMPLE 100 PERCENT (bernoulli, 1)"),
                stmt("SELECT x FROM (SELECT ssn AS x FROM people USING SAMPLE 10 ROWS) t"),
                stmt("SELECT p.salary // 1 AS v FROM people p"),
                stmt("SELECT name FROM people WHERE salary // 1000 > 5"),
                stmt("SELECT r.range FROM range(3) r JOIN people p ON p.salary // 1000 = r.range"),
                stmt("SELECT range FROM range(3) WHERE (SELECT max(ssn) FROM people) LIKE '%QXA%'"),
                stmt("SELECT code FROM range(1) r, secrets"),
                stmt("SELECT ssn FROM range(3) r(ssn), people"),
                stmt("SELECT r.ssn FROM range(3) r(ssn), people"),
                stmt("SELECT generate_series FROM generate_series(1, 3) WHERE EXISTS (SELECT 1 FROM people "
                        + "WHERE ssn LIKE '%QXA%')")), List.of(), List.of(), null));

        String csv = scratch + "/seed.csv";
        String txt = scratch + "/seed.txt";
        int slash = scratch.lastIndexOf('/');
        String traversal = scratch + "/../" + scratch.substring(slash + 1) + "/seed.csv";
        out.add(new ClassSpec("duckdb-files", Judge.RAN, values(
                "(SELECT max(C1) FROM read_csv('" + csv + "'))",
                "(SELECT count(*) FROM read_csv_auto('" + csv + "'))",
                "(SELECT max(column0) FROM read_csv('" + txt + "', header = false))",
                "(SELECT max(C1) FROM read_csv(['" + csv + "', '" + csv + "']))",
                "(SELECT max(C1) FROM read_csv('" + scratch + "/*.csv'))",
                "(SELECT max(C1) FROM read_csv('" + traversal + "'))",
                "(SELECT max(content) FROM read_text('" + txt + "'))",
                "(SELECT max(content::VARCHAR) FROM read_blob('" + txt + "'))",
                "(SELECT string_agg(file, ',') FROM glob('" + scratch + "/*'))",
                "(SELECT max(C1) FROM '" + csv + "')",
                "(SELECT count(*) FROM read_parquet('" + scratch + "/seed.parquet'))",
                "(SELECT max(json::VARCHAR) FROM read_json_objects('" + txt + "'))",
                "(SELECT max(Columns::VARCHAR) FROM sniff_csv('" + csv + "'))",
                "(SELECT count(*) FROM parquet_metadata('" + scratch + "/seed.parquet'))",
                "(SELECT max(C1) FROM read_csv('file://" + csv + "'))"),
                FUNCTION_POSITIONS, ANY_FROMS, fn("read_csv", "read_csv_auto", "read_text", "read_blob", "glob",
                "read_parquet", "read_json_objects", "sniff_csv", "parquet_metadata") + "|FROM\\s+'"));

        out.add(new ClassSpec("duckdb-probes", Judge.RAN, values("getenv('HOME')", "getenv('PATH')",
                "current_setting('allowed_paths')::VARCHAR", "current_setting('enable_external_access')",
                "current_setting('home_directory')", "version()", "current_database()", "current_schema()",
                "getvariable('x')", "(SELECT count(*) FROM duckdb_settings())",
                "(SELECT string_agg(table_name, ',') FROM duckdb_tables())",
                "(SELECT string_agg(sql, ';') FROM duckdb_tables())",
                "(SELECT string_agg(path, ',') FROM duckdb_databases())",
                "(SELECT count(*) FROM duckdb_functions())", "(SELECT count(*) FROM duckdb_extensions())",
                "(SELECT count(*) FROM duckdb_secrets())", "(SELECT max(code) FROM query_table('secrets'))",
                "(SELECT max(code) FROM query('SELECT code FROM secrets'))",
                "(SELECT max(suggestion) FROM sql_auto_complete('SELECT * FROM sec'))",
                "(SELECT string_agg(name, ',') FROM pragma_table_info('secrets'))",
                "(SELECT string_agg(name, ',') FROM pragma_database_list)",
                "(SELECT count(*) FROM pragma_version())",
                "(SELECT string_agg(table_name, ',') FROM information_schema.tables)",
                "(SELECT string_agg(column_name, ',') FROM information_schema.columns)"),
                FUNCTION_POSITIONS, ANY_FROMS, fn("getenv", "current_setting", "version", "current_database",
                "current_schema", "getvariable", "duckdb_\\w+", "query_table", "query", "sql_auto_complete",
                "pragma_\\w+", "information_schema")));

        out.add(new ClassSpec("duckdb-statements", Judge.RAN, List.of(
                stmt("COPY (SELECT ssn FROM people) TO '" + scratch + "/out.csv'"),
                stmt("COPY people TO '" + scratch + "/people.parquet' (FORMAT PARQUET)"),
                stmt("COPY secrets FROM '" + csv + "'"),
                stmt("ATTACH '" + scratch + "/twin_b.duckdb' AS other (READ_ONLY)"),
                stmt("ATTACH ':memory:' AS m"), stmt("DETACH twin_a"), stmt("INSTALL httpfs"), stmt("LOAD httpfs"),
                stmt("SET enable_external_access = true"), stmt("SET lock_configuration = false"),
                stmt("RESET allowed_paths"), stmt("SET allowed_directories = ['/']"), stmt("SET threads = 1"),
                stmt("PRAGMA enable_profiling"), stmt("PRAGMA table_info('secrets')"), stmt("CALL pragma_version()"),
                stmt("EXPORT DATABASE '" + scratch + "/dump'"), stmt("IMPORT DATABASE '" + scratch + "'"),
                stmt("CREATE MACRO m(x) AS x"), stmt("CREATE TEMP TABLE t AS SELECT * FROM secrets"),
                stmt("SUMMARIZE secrets"), stmt("DESCRIBE secrets"), stmt("SHOW TABLES"), stmt("SHOW ALL TABLES"),
                stmt("FROM '" + csv + "'"), stmt("SELECT * FROM read_csv('" + csv + "')"),
                stmt("SELECT * FROM glob('" + scratch + "/*')"), stmt("CHECKPOINT"), stmt("USE twin_a"),
                stmt("EXPLAIN ANALYZE SELECT code FROM secrets"), stmt("CREATE SECRET (TYPE s3, KEY_ID 'k', SECRET 's')"),
                stmt("SELECT * FROM read_text('" + txt + "') UNION ALL SELECT * FROM read_text('" + txt + "')")),
                List.of(), List.of(), "^\\s*(COPY|ATTACH|DETACH|INSTALL|LOAD|SET|RESET|PRAGMA|CALL|EXPORT|IMPORT|CREATE"
                + "|SUMMARIZE|DESCRIBE|SHOW|FROM|CHECKPOINT|USE|EXPLAIN)\\b|\\b(read_csv|glob|read_text)\\b"));
    }

    private static void mariadb(List<ClassSpec> out) {
        out.add(new ClassSpec("whole-row", Judge.DATA, values("{a}", "CAST({a} AS CHAR)", "ROW({a}.*)",
                "JSON_OBJECT({a}.*)", "CONCAT({a}.*)"), all(), DATA_FROMS, null));
        // MariaDB syntax the guard respells for its parser (MySqlSpelling) or analyses by hand: select options
        // before a denied column, index hints for one use around one, JSON_OBJECT / JSON_ARRAY over one, and a
        // key whose backslash MariaDB reads as an escape (read alike under NO_BACKSLASH_ESCAPES once respelled)
        out.add(new ClassSpec("mariadb-respelled-syntax", Judge.DATA, List.of(
                stmt("SELECT HIGH_PRIORITY ssn FROM people"),
                stmt("SELECT SQL_BUFFER_RESULT salary AS name FROM people"),
                stmt("SELECT SQL_SMALL_RESULT DISTINCT ssn FROM people"),
                stmt("SELECT DISTINCT SQL_BIG_RESULT ssn_key FROM people"),
                stmt("SELECT STRAIGHT_JOIN HIGH_PRIORITY p.salary FROM people p"),
                stmt("SELECT SQL_NO_CACHE SQL_CALC_FOUND_ROWS name, ssn FROM people"),
                stmt("SELECT name FROM people WHERE id IN (SELECT HIGH_PRIORITY id FROM people WHERE salary > 0)"),
                stmt("SELECT p.name FROM people p USE INDEX FOR JOIN (idx_people_ssn) WHERE p.ssn > ''"),
                stmt("SELECT name FROM people FORCE INDEX FOR ORDER BY (idx_people_ssn) ORDER BY ssn"),
                stmt("SELECT o.card FROM orders o IGNORE KEY FOR JOIN (PRIMARY)"),
                stmt("SELECT code FROM secrets USE INDEX ()"),
                stmt("SELECT JSON_OBJECT('s', ssn) AS j FROM people"),
                stmt("SELECT JSON_OBJECT(ssn, 1) AS j FROM people"),
                stmt("SELECT JSON_ARRAY(name, salary) AS a FROM people"),
                stmt("SELECT JSON_OBJECT('p', JSON_OBJECT('c', o.card)) AS j FROM orders o"),
                stmt("SELECT JSON_OBJECT('a\\', ssn, ', 1) AS j FROM people"),
                stmt("SELECT JSON_OBJECT('c', (SELECT MAX(card) FROM orders)) AS j"),
                stmt("SELECT name AS sqlagent_opts_0 FROM people")), List.of(), List.of(), null));
        out.add(new ClassSpec("mariadb-locks", Judge.RAN, values("GET_LOCK('hostile', 0)", "IS_FREE_LOCK('hostile')",
                "IS_USED_LOCK('hostile')", "RELEASE_LOCK('hostile')", "RELEASE_ALL_LOCKS()"),
                FUNCTION_POSITIONS, ANY_FROMS, fn("get_lock", "is_free_lock", "is_used_lock", "release_lock",
                "release_all_locks")));
        out.add(new ClassSpec("mariadb-waits", Judge.RAN, values("MASTER_GTID_WAIT('0-1-1', 0.01)",
                "MASTER_POS_WAIT('f', 4, 0.01)", "SLEEP(0.01)", "BENCHMARK(1000, MD5('x'))", "BINLOG_GTID_POS('f', 4)"),
                FUNCTION_POSITIONS, ANY_FROMS, fn("master_gtid_wait", "master_pos_wait", "sleep", "benchmark",
                "binlog_gtid_pos")));
        out.add(new ClassSpec("mariadb-files-xml", Judge.RAN, values("LOAD_FILE('/etc/hostname')",
                "EXTRACTVALUE('<a>x</a>', '/a')", "UPDATEXML('<a>x</a>', '/a', '<b/>')"),
                FUNCTION_POSITIONS, ANY_FROMS, fn("load_file", "extractvalue", "updatexml")));
        out.add(new ClassSpec("mariadb-probes", Judge.RAN, values("VERSION()", "DATABASE()", "SCHEMA()", "USER()",
                "CURRENT_USER()", "CURRENT_USER", "SESSION_USER()", "SYSTEM_USER()", "CONNECTION_ID()",
                "LAST_INSERT_ID()", "FOUND_ROWS()", "ROW_COUNT()", "CURRENT_ROLE()"),
                FUNCTION_POSITIONS, ANY_FROMS, fn("version", "database", "schema", "user", "current_user",
                "session_user", "system_user", "connection_id", "last_insert_id", "found_rows", "row_count",
                "current_role")));
    }

    private static void sqlite(List<ClassSpec> out, String scratch) {
        out.add(new ClassSpec("whole-row", Judge.DATA, values("{a}", "CAST({a} AS TEXT)", "json_object({a}.*)",
                "({a}.*)"), all(), DATA_FROMS, null));
        // SQLite's FTS5 syntax, which the guard respells (SqliteSpelling: MATCH) and reads by FTS5's rules (hidden
        // columns, auxiliary functions bound to an FTS5 table of the FROM, each a whole-row read): a MATCH whose
        // right side reads a denied column or a forbidden table, MATCH, rank and the auxiliary functions over an
        // ordinary table, a column or an alias, rank MATCH (a ranking function by text), the grammar's edges
        // (NOT MATCH, ESCAPE, an operand that does not stand alone, BETWEEN before it, the parser's marker word,
        // a comment between the operands) and the auxiliary functions' other arguments reading denied data
        out.add(new ClassSpec("sqlite-fts5", Judge.DATA, List.of(
                stmt("SELECT title FROM notes_fts WHERE notes_fts MATCH (SELECT ssn FROM people LIMIT 1)"),
                stmt("SELECT title FROM notes_fts WHERE notes_fts MATCH (SELECT max(code) FROM secrets)"),
                stmt("SELECT title FROM notes_fts n WHERE n.notes_fts MATCH (SELECT group_concat(ssn) FROM people)"),
                stmt("SELECT title FROM notes_fts, people p WHERE notes_fts MATCH p.ssn"),
                stmt("SELECT title FROM notes_fts WHERE title MATCH (SELECT name FROM people WHERE ssn LIKE '%A-SSN%' "
                        + "LIMIT 1)"),
                stmt("SELECT title FROM notes_fts WHERE notes_fts MATCH 'alpha' UNION SELECT ssn FROM people"),
                stmt("SELECT title FROM notes_fts WHERE notes_fts MATCH 'a' OR 1 = (SELECT count(*) FROM secrets)"),
                stmt("SELECT name FROM people WHERE ssn MATCH '*A-SSN*'"),
                stmt("SELECT name FROM people WHERE name MATCH 'ann'"),
                stmt("SELECT p.ssn MATCH 'x' AS v FROM people p"),
                stmt("SELECT o.card MATCH 'x' AS v FROM orders o"),
                stmt("SELECT v FROM (SELECT ssn AS v FROM people) d WHERE v MATCH '*A-SSN*'"),
                stmt("SELECT highlight(people, 1, '[', ']') AS v FROM people"),
                stmt("SELECT snippet(people, 1, '<', '>', '...', 4) AS v FROM people"),
                stmt("SELECT bm25(p) AS v FROM people p"),
                stmt("SELECT bm25(people) AS v FROM people"),
                stmt("SELECT highlight(title, 1, '[', ']') AS v FROM notes_fts WHERE notes_fts MATCH 'dog'"),
                stmt("SELECT p.name FROM people p ORDER BY rank"),
                stmt("SELECT name, rank FROM people"),
                stmt("SELECT p.name FROM people p, notes_fts WHERE p.ssn = notes_fts"),
                stmt("SELECT title FROM notes_fts WHERE notes_fts MATCH 'alpha' AND rank MATCH 'bm25(10.0)'"),
                stmt("SELECT title FROM notes_fts WHERE notes_fts MATCH 'alpha' ESCAPE 'x'"),
                stmt("SELECT title FROM notes_fts WHERE notes_fts NOT MATCH 'alpha'"),
                stmt("SELECT title FROM notes_fts WHERE notes_fts MATCH 'x' || (SELECT ssn FROM people LIMIT 1)"),
                stmt("SELECT title FROM notes_fts WHERE 1 BETWEEN 0 AND notes_fts MATCH (SELECT ssn FROM people)"),
                stmt("SELECT title FROM notes_fts WHERE notes_fts MATCH/**/(SELECT ssn FROM people LIMIT 1)"),
                stmt("SELECT title FROM notes_fts WHERE notes_fts MATCH_ANY (SELECT ssn FROM people LIMIT 1)"),
                stmt("SELECT title AS match_any FROM notes_fts WHERE notes_fts MATCH 'alpha'"),
                stmt("SELECT highlight(notes_fts, 1, (SELECT ssn FROM people LIMIT 1), ']') AS v FROM notes_fts "
                        + "WHERE notes_fts MATCH 'dog'"),
                stmt("SELECT snippet(notes_fts, 1, '<', '>', '...', (SELECT salary FROM people LIMIT 1)) AS v "
                        + "FROM notes_fts WHERE notes_fts MATCH 'dog'"),
                stmt("SELECT bm25(notes_fts, (SELECT salary FROM people LIMIT 1)) AS v FROM notes_fts "
                        + "WHERE notes_fts MATCH 'dog'"),
                stmt("SELECT title FROM notes_fts WHERE notes_fts MATCH 'dog' AND (SELECT ssn FROM people LIMIT 1) "
                        + "LIKE '%A-SSN%'")), List.of(), List.of(), null));
        out.add(new ClassSpec("sqlite-extensions-files", Judge.RAN, values("load_extension('" + scratch + "/x')",
                "readfile('" + scratch + "/seed.txt')", "writefile('" + scratch + "/wf.txt', 'x')", "edit('x')",
                "fts3_tokenizer('simple')"),
                FUNCTION_POSITIONS, ANY_FROMS, fn("load_extension", "readfile", "writefile", "edit", "fts3_tokenizer")));
        out.add(new ClassSpec("sqlite-probes", Judge.RAN, values("sqlite_version()", "sqlite_source_id()",
                "sqlite_compileoption_get(0)", "sqlite_compileoption_used('THREADSAFE')", "sqlite_offset({a}.id)",
                "changes()", "total_changes()", "last_insert_rowid()",
                "(SELECT group_concat(name) FROM pragma_table_info('secrets'))",
                "(SELECT count(*) FROM pragma_function_list)", "(SELECT group_concat(name) FROM pragma_database_list)",
                "(SELECT group_concat(name) FROM pragma_index_list('people'))"),
                FUNCTION_POSITIONS, ANY_FROMS, fn("sqlite_version", "sqlite_source_id", "sqlite_compileoption_get",
                "sqlite_compileoption_used", "sqlite_offset", "changes", "total_changes", "last_insert_rowid",
                "pragma_table_info", "pragma_function_list", "pragma_database_list", "pragma_index_list")));
    }

    /** A repeat of a repeat: its size is a product no single argument shows. */
    private static final String NESTED_REPEAT = "|\\brepeat\\s*\\(\\s*repeat\\s*\\(";

    /** A size in a statement, also inside a format ({@code '%1500000s'}): digits not part of a longer number. */
    private static String size(String... sizes) {
        return "(?<![0-9])(" + String.join("|", sizes) + ")(?![0-9])";
    }

    private static void bombs(Dialect d, List<ClassSpec> out) {
        String n = Integer.toString(BOMB);
        String r = Integer.toString(ROWS_BOMB);
        List<Core> constant;
        List<Core> computed;
        List<Core> recursive;
        String constantToken;
        String computedToken;
        switch (d) {
            case POSTGRESQL:
                constant = values("repeat('x', " + n + ")", "lpad('x', " + n + ", 'y')", "rpad('x', " + n + ", 'y')",
                        "format('%" + n + "s', 'x')", "lpad('', " + n + ")", "repeat(repeat('x', 1500), 1000)",
                        "(SELECT string_agg('x', '') FROM generate_series(1, " + r + "))",
                        "(SELECT count(*) FROM generate_series(1, " + r + "))", "array_fill(7, ARRAY[" + r + "])::text");
                computed = values("repeat('x', {a}.id * 100000)", "lpad({a}.name, {a}.id * 100000, 'y')",
                        "rpad('x', {a}.score * 15000, 'y')", "repeat('x', (SELECT max(k.age) FROM pets k) * 200000)",
                        "format('%' || ({a}.id * 100000) || 's', 'x')",
                        "(SELECT string_agg('x', '') FROM generate_series(1, {a}.id * 100000))");
                recursive = List.of(
                        stmt("WITH RECURSIVE r(n, s) AS (SELECT 1, 'x'::text UNION ALL SELECT n + 1, s || s FROM r WHERE n < 22) SELECT s FROM r WHERE n = 22"),
                        stmt("WITH RECURSIVE r(n, s) AS (SELECT 1, CAST('ab' AS text) UNION ALL SELECT n + 1, s || s FROM r WHERE n < 21) SELECT max(s) AS v FROM r"),
                        stmt("WITH RECURSIVE r(n, s) AS (SELECT 1, 'x'::text UNION ALL SELECT n + 1, repeat(s, 2) FROM r WHERE n < 22) SELECT s FROM r ORDER BY n DESC LIMIT 1"),
                        stmt("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < " + r + ") SELECT string_agg('x', '') AS v FROM r"));
                constantToken = "\\b(repeat|lpad|rpad|format|generate_series|array_fill)\\b.*" + size(n, r) + NESTED_REPEAT;
                computedToken = "\\b(repeat|lpad|rpad|format|generate_series)\\b";
                break;
            case H2:
                constant = values("REPEAT('x', " + n + ")", "SPACE(" + n + ")", "LPAD('x', " + n + ", 'y')",
                        "RPAD('x', " + n + ", 'y')", "REPEAT(REPEAT('x', 1500), 1000)",
                        "(SELECT count(*) FROM SYSTEM_RANGE(1, " + r + "))",
                        "(SELECT LISTAGG('x', '') FROM SYSTEM_RANGE(1, " + r + "))");
                computed = values("REPEAT('x', {a}.id * 100000)", "SPACE({a}.id * 100000)",
                        "LPAD({a}.name, {a}.id * 100000, 'y')", "RPAD('x', {a}.score * 15000, 'y')",
                        "REPEAT('x', (SELECT max(k.age) FROM pets k) * 200000)");
                recursive = List.of(
                        stmt("WITH RECURSIVE r(n, s) AS (SELECT 1, CAST('x' AS VARCHAR(100000000)) UNION ALL SELECT n + 1, s || s FROM r WHERE n < 22) SELECT s FROM r WHERE n = 22"),
                        stmt("WITH RECURSIVE r(n, s) AS (SELECT 1, CAST('ab' AS VARCHAR(100000000)) UNION ALL SELECT n + 1, s || s FROM r WHERE n < 21) SELECT max(s) AS v FROM r"),
                        stmt("WITH RECURSIVE r(n, s) AS (SELECT 1, CAST('x' AS VARCHAR(100000000)) UNION ALL SELECT n + 1, REPEAT(s, 2) FROM r WHERE n < 22) SELECT s FROM r ORDER BY n DESC LIMIT 1"));
                constantToken = "\\b(repeat|space|lpad|rpad|system_range)\\b.*" + size(n, r) + NESTED_REPEAT;
                computedToken = "\\b(repeat|space|lpad|rpad)\\b";
                break;
            case DUCKDB:
                constant = values("repeat('x', " + n + ")", "lpad('x', " + n + ", 'y')", "rpad('x', " + n + ", 'y')",
                        "printf('%" + n + "s', 'x')", "repeat(repeat('x', 1500), 1000)", "length(repeat('x', " + n + "))",
                        "(SELECT count(*) FROM range(" + r + "))",
                        "(SELECT string_agg('x', '') FROM generate_series(1, " + r + "))");
                computed = values("repeat('x', {a}.id * 100000)", "lpad({a}.name, {a}.id * 100000, 'y')",
                        "rpad('x', {a}.score * 15000, 'y')", "repeat('x', (SELECT max(k.age) FROM pets k) * 200000)",
                        "(SELECT string_agg('x', '') FROM range({a}.id * 100000))");
                recursive = List.of(
                        stmt("WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' UNION ALL SELECT n + 1, s || s FROM r WHERE n < 22) SELECT s FROM r WHERE n = 22"),
                        stmt("WITH RECURSIVE r(n, s) AS (SELECT 1, CAST('ab' AS VARCHAR) UNION ALL SELECT n + 1, s || s FROM r WHERE n < 21) SELECT max(s) AS v FROM r"),
                        stmt("WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' UNION ALL SELECT n + 1, repeat(s, 2) FROM r WHERE n < 22) SELECT s FROM r ORDER BY n DESC LIMIT 1"),
                        stmt("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < " + r + ") SELECT string_agg('x', '') AS v FROM r"));
                constantToken = "\\b(repeat|lpad|rpad|printf|range|generate_series)\\b.*" + size(n, r) + NESTED_REPEAT;
                computedToken = "\\b(repeat|lpad|rpad|range)\\b";
                break;
            case MARIADB:
                constant = values("REPEAT('x', " + n + ")", "SPACE(" + n + ")", "LPAD('x', " + n + ", 'y')",
                        "RPAD('x', " + n + ", 'y')", "REPEAT(REPEAT('x', 1500), 1000)",
                        "INSERT('x', 1, 0, REPEAT('y', " + n + "))");
                computed = values("REPEAT('x', {a}.id * 100000)", "SPACE({a}.id * 100000)",
                        "LPAD({a}.name, {a}.id * 100000, 'y')", "RPAD('x', {a}.score * 15000, 'y')",
                        "REPEAT('x', (SELECT max(k.age) FROM pets k) * 200000)");
                recursive = List.of(
                        stmt("WITH RECURSIVE r(n, s) AS (SELECT 1, CAST('x' AS CHAR(8000000)) UNION ALL SELECT n + 1, CONCAT(s, s) FROM r WHERE n < 22) SELECT s FROM r WHERE n = 22"),
                        stmt("WITH RECURSIVE r(n, s) AS (SELECT 1, CAST('ab' AS CHAR(8000000)) UNION ALL SELECT n + 1, CONCAT(s, s) FROM r WHERE n < 21) SELECT max(s) AS v FROM r"),
                        stmt("WITH RECURSIVE r(n, s) AS (SELECT 1, CAST('x' AS CHAR(8000000)) UNION ALL SELECT n + 1, REPEAT(s, 2) FROM r WHERE n < 22) SELECT s FROM r ORDER BY n DESC LIMIT 1"));
                constantToken = "\\b(repeat|space|lpad|rpad|insert)\\b.*" + size(n, r) + NESTED_REPEAT;
                computedToken = "\\b(repeat|space|lpad|rpad)\\b";
                break;
            default:
                constant = values("printf('%.*c', " + n + ", 'x')", "printf('%" + n + "d', 1)", "format('%" + n + "s', 'x')",
                        "zeroblob(" + n + ")", "hex(zeroblob(" + (BOMB / 2) + "))", "randomblob(" + n + ")",
                        "replace(hex(zeroblob(" + (BOMB / 2) + ")), '0', 'x')", "length(zeroblob(" + n + "))");
                computed = values("printf('%.*c', {a}.id * 100000, 'x')", "zeroblob({a}.id * 100000)",
                        "hex(zeroblob({a}.id * 60000))", "printf('%' || ({a}.id * 100000) || 'd', 1)",
                        "replace(hex(zeroblob({a}.score * 8000)), '0', 'x')");
                recursive = List.of(
                        stmt("WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' UNION ALL SELECT n + 1, s || s FROM r WHERE n < 22) SELECT s FROM r WHERE n = 22"),
                        stmt("WITH RECURSIVE r(n, s) AS (SELECT 1, 'ab' UNION ALL SELECT n + 1, s || s FROM r WHERE n < 21) SELECT max(s) AS v FROM r"),
                        stmt("WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' UNION ALL SELECT n + 1, s || s FROM r WHERE n < 22) SELECT s FROM r ORDER BY n DESC LIMIT 1"),
                        stmt("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < " + r + ") SELECT group_concat('x', '') AS v FROM r"));
                constantToken = "\\b(printf|format|zeroblob|randomblob)\\b.*" + size(n, Integer.toString(BOMB / 2));
                computedToken = "\\b(printf|zeroblob)\\b";
        }
        out.add(new ClassSpec("bomb-constant", Judge.REACHED, constant, FUNCTION_POSITIONS, ANY_FROMS, constantToken,
                BOMB_VARIANTS));
        out.add(new ClassSpec("bomb-computed", Judge.BIG, computed, RETURNING, List.of(PEOPLE_P, PEOPLE_BARE, PEOPLE_AS_X),
                computedToken, BOMB_VARIANTS));
        out.add(new ClassSpec("bomb-recursive", Judge.BIG, recursive, List.of(), List.of(), null));
    }
}
