package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every function an engine has, each with its {@link FunctionClass}: the closed world the function policy
 * decides in. Immutable and thread-safe; each dialect's catalog is loaded once, on first use.
 *
 * <p>Where the lists come from: PostgreSQL, MariaDB, H2 and SQLite each have a catalog generated from the
 * engine's own list of functions (PostgreSQL {@code pg_proc} and its keywords, MariaDB's built-ins, H2's
 * built-ins of every compatibility mode, SQLite {@code pragma_function_list}) and committed as
 * {@code dev/sqlagent/guard/functions/<engine>.tsv}; the generator is {@code FunctionCatalogGenerator} in
 * core's test sources, and {@code FunctionCatalogCompletenessTest} fails when the engine in CI has a function
 * the committed catalog does not classify. {@link Dialect#MYSQL} uses MariaDB's catalog plus a few reviewed
 * MySQL-only functions ({@code regexp_like}, {@code any_value}, …): a MySQL function missing there reads as
 * unknown, never as allowed. {@link Dialect#SQLSERVER}, {@link Dialect#ORACLE} and {@link Dialect#GENERIC}
 * have no engine in CI: their catalog is a small hand-written list of ordinary functions
 * ({@link #generated()} is false), and a name outside it is refused rather than taken for an invented one.
 *
 * <p>Names: lower case, unquoted. A name qualified with the engine's own function schema (PostgreSQL's
 * {@code pg_catalog}) resolves like the bare name ({@code pg_catalog.upper} is {@code upper});
 * {@code information_schema}'s functions are listed qualified. Any other qualified name
 * ({@code public.upper}, {@code hr.leak}) resolves to nothing: it names a function of the database, not of
 * the engine, which the catalog cannot vouch for.
 */
public final class FunctionCatalog {

    private static final Map<Dialect, FunctionCatalog> LOADED = new ConcurrentHashMap<>();

    private final Dialect dialect;
    private final Map<String, FunctionClass> classes;
    private final boolean generated;
    private final String functionSchema;
    private final Map<String, String> equivalents;

    private FunctionCatalog(Dialect dialect, Map<String, FunctionClass> classes, boolean generated,
                            String functionSchema, Map<String, String> equivalents) {
        this.dialect = dialect;
        this.classes = Collections.unmodifiableMap(new TreeMap<>(classes));
        this.generated = generated;
        this.functionSchema = functionSchema;
        this.equivalents = Map.copyOf(equivalents);
    }

    /**
     * Returns the catalog of a dialect's engine, loading it on first use.
     *
     * @param dialect a dialect
     * @return its catalog
     * @throws IllegalStateException if the committed catalog file is missing or malformed (a build fault)
     */
    public static FunctionCatalog of(Dialect dialect) {
        Objects.requireNonNull(dialect, "dialect");
        return LOADED.computeIfAbsent(dialect, FunctionCatalog::load);
    }

    /** {@return the dialect this catalog is for} */
    public Dialect dialect() {
        return dialect;
    }

    /**
     * Says whether this catalog was generated from the engine.
     *
     * @return whether this catalog was generated from the engine (PostgreSQL, MariaDB, MySQL, H2, SQLite);
     *         false for the hand-written lists of dialects without an engine in CI, where a name outside the
     *         list may still be a real function and is refused, not taken for an invented one
     */
    public boolean generated() {
        return generated;
    }

    /**
     * Classifies a function.
     *
     * @param name a function name, unquoted, any case; qualified names are read as the class Javadoc says
     * @return its class, or empty when the engine has no such function (or the name is qualified with a
     *         schema other than the engine's own)
     */
    public Optional<FunctionClass> classOf(String name) {
        String key = key(name);
        return key == null ? Optional.empty() : Optional.ofNullable(classes.get(key));
    }

    /**
     * Says whether the engine has a function.
     *
     * @param name a function name, as for {@link #classOf(String)}
     * @return whether the engine has it
     */
    public boolean has(String name) {
        return classOf(name).isPresent();
    }

    /** {@return every function of this catalog, lower case, sorted; {@code information_schema}'s qualified} */
    public Set<String> names() {
        return classes.keySet();
    }

    /**
     * Says what to write instead of a function this engine lacks but models often write ({@code YEAR(x)} on
     * SQLite, {@code IFNULL} on PostgreSQL): a short hint for the correction prompt.
     *
     * @param inventedName the name the SQL called, any case
     * @return a sentence naming this engine's equivalent, or empty when none is known or the engine has the
     *         function after all
     */
    public Optional<String> equivalent(String inventedName) {
        String key = key(inventedName);
        if (key == null || classes.containsKey(key)) {
            return Optional.empty();
        }
        String instead = equivalents.get(key);
        return instead == null ? Optional.empty()
                : Optional.of(engineName() + " has no function " + key + "(); write " + instead + " instead");
    }

    private String engineName() {
        switch (dialect) {
            case POSTGRESQL: return "PostgreSQL";
            case MARIADB: return "MariaDB";
            case MYSQL: return "MySQL";
            case SQLITE: return "SQLite";
            case H2: return "H2";
            case DUCKDB: return "DuckDB";
            case SQLSERVER: return "SQL Server";
            case ORACLE: return "Oracle";
            default: return "The database";
        }
    }

    /** The catalog key of a name, or null when a qualified name is outside the engine's function schema. */
    private String key(String name) {
        if (name == null) {
            return null;
        }
        String n = Names.lower(name.trim());
        if (n.isEmpty()) {
            return null;
        }
        int dot = n.indexOf('.');
        if (dot < 0) {
            return n;
        }
        if (classes.containsKey(n)) {
            return n; // information_schema._pg_expandarray
        }
        String schema = n.substring(0, dot);
        String rest = n.substring(dot + 1);
        if (functionSchema != null && schema.equals(functionSchema) && rest.indexOf('.') < 0) {
            return rest;
        }
        return null;
    }

    @Override
    public String toString() {
        return "FunctionCatalog{" + dialect + ", " + classes.size() + " functions"
                + (generated ? "" : ", hand-written") + '}';
    }

    // ---------------------------------------------------------------- loading

    private static FunctionCatalog load(Dialect dialect) {
        switch (dialect) {
            case POSTGRESQL:
                return new FunctionCatalog(dialect, read("postgresql"), true, "pg_catalog", Equivalents.POSTGRESQL);
            case MARIADB:
                return new FunctionCatalog(dialect, read("mariadb"), true, null, Equivalents.MYSQL);
            case MYSQL: {
                Map<String, FunctionClass> m = new HashMap<>(read("mariadb"));
                m.putAll(HandLists.MYSQL_ONLY);
                return new FunctionCatalog(dialect, m, true, null, Equivalents.MYSQL);
            }
            case H2:
                return new FunctionCatalog(dialect, read("h2"), true, null, Equivalents.H2);
            case SQLITE:
                return new FunctionCatalog(dialect, read("sqlite"), true, null, Equivalents.SQLITE);
            case DUCKDB:
                return new FunctionCatalog(dialect, orderedSets(read("duckdb")), true, null, Equivalents.DUCKDB);
            default:
                return new FunctionCatalog(dialect, HandLists.untested(dialect), false, null, Map.of());
        }
    }

    /**
     * DuckDB's parser reads the ordered-set aggregates {@code percentile_cont(f) WITHIN GROUP (ORDER BY x)} and
     * {@code percentile_disc(…)} as {@code quantile_cont(x, f)} and {@code quantile_disc(x, f)}, so that
     * {@code duckdb_functions()} does not list them: they take those functions' class.
     */
    private static Map<String, FunctionClass> orderedSets(Map<String, FunctionClass> duckdb) {
        for (String[] pair : new String[][] {{"percentile_cont", "quantile_cont"}, {"percentile_disc", "quantile_disc"}}) {
            FunctionClass c = duckdb.get(pair[1]);
            if (c != null) {
                duckdb.putIfAbsent(pair[0], c);
            }
        }
        return duckdb;
    }

    private static Map<String, FunctionClass> read(String engine) {
        String resource = "functions/" + engine + ".tsv";
        Map<String, FunctionClass> out = new HashMap<>();
        try (InputStream in = FunctionCatalog.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the function catalog " + resource + " is missing from the build");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            int lineNo = 0;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                lineNo++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split("\t");
                if (parts.length < 2) {
                    throw new IllegalStateException(resource + ":" + lineNo + ": expected name<TAB>class");
                }
                try {
                    out.put(parts[0], FunctionClass.valueOf(parts[1]));
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException(resource + ":" + lineNo + ": unknown class " + parts[1], e);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the function catalog " + resource, e);
        }
        return out;
    }

    /** The hand-written lists: MySQL's additions to MariaDB's catalog, and the dialects without an engine. */
    private static final class HandLists {

        static final Map<String, FunctionClass> MYSQL_ONLY = classes(Map.of(
                FunctionClass.SAFE_SCALAR, "regexp_like bin_to_uuid uuid_to_bin is_uuid json_schema_valid "
                        + "json_storage_size json_storage_free grouping",
                FunctionClass.SAFE_AGGREGATE, "any_value",
                FunctionClass.READS_SESSION, "ps_current_thread_id ps_thread_id icu_version current_role",
                FunctionClass.READS_CATALOG, "roles_graphml statement_digest statement_digest_text",
                FunctionClass.WAITS_OR_LOCKS, "source_pos_wait wait_for_executed_gtid_set"));

        private static final String COMMON_SCALAR = "lower upper length char_length character_length substr "
                + "substring trim ltrim rtrim concat concat_ws left right reverse position coalesce nullif greatest "
                + "least abs round ceil ceiling floor mod power sqrt exp ln log log10 sign current_date "
                + "current_time current_timestamp extract cast translate ascii";
        private static final String COMMON_AGGREGATE = "count sum avg min max stddev stddev_pop stddev_samp "
                + "variance var_pop var_samp grouping rollup cube";
        private static final String COMMON_WINDOW = "row_number rank dense_rank ntile lag lead first_value "
                + "last_value nth_value percent_rank cume_dist";

        static Map<String, FunctionClass> untested(Dialect dialect) {
            Map<FunctionClass, String> m = new EnumMap<>(FunctionClass.class);
            m.put(FunctionClass.SAFE_AGGREGATE, COMMON_AGGREGATE);
            m.put(FunctionClass.SAFE_WINDOW, COMMON_WINDOW);
            switch (dialect) {
                case SQLSERVER:
                    // https://learn.microsoft.com/sql/t-sql/functions/functions
                    m.put(FunctionClass.SAFE_SCALAR, COMMON_SCALAR + " isnull len datepart datediff datediff_big "
                            + "dateadd datename datefromparts getdate getutcdate sysdatetime year month day charindex "
                            + "convert format iif eomonth square patindex stuff choose try_cast try_convert str pi "
                            + "rand datetrunc unicode nchar difference soundex quotename char");
                    m.put(FunctionClass.SAFE_AGGREGATE, COMMON_AGGREGATE + " string_agg count_big");
                    m.put(FunctionClass.EXPANDS_RESOURCES, "replicate space replace");
                    m.put(FunctionClass.READS_FILES, "openrowset opendatasource openquery openxml xp_cmdshell");
                    m.put(FunctionClass.READS_SESSION, "user_name suser_name suser_sname db_name db_id host_name "
                            + "host_id app_name original_login session_user system_user current_user "
                            + "scope_identity @@version");
                    m.put(FunctionClass.WAITS_OR_LOCKS, "waitfor");
                    break;
                case ORACLE:
                    // https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Functions.html
                    m.put(FunctionClass.SAFE_SCALAR, COMMON_SCALAR + " nvl nvl2 decode to_char to_date to_number "
                            + "to_timestamp add_months months_between last_day next_day regexp_substr regexp_like "
                            + "regexp_instr regexp_count sysdate systimestamp lengthb chr remainder instr initcap");
                    m.put(FunctionClass.SAFE_AGGREGATE, COMMON_AGGREGATE + " listagg median percentile_cont "
                            + "percentile_disc stats_mode");
                    m.put(FunctionClass.EXPANDS_RESOURCES, "lpad rpad replace regexp_replace");
                    m.put(FunctionClass.READS_SESSION, "uid user userenv sys_context ora_database_name");
                    m.put(FunctionClass.READS_FILES, "utl_http utl_file dbms_xmlgen dbms_lob httpuritype");
                    m.put(FunctionClass.WAITS_OR_LOCKS, "dbms_lock dbms_session");
                    break;
                default:
                    m.put(FunctionClass.SAFE_SCALAR, COMMON_SCALAR);
                    break;
            }
            return classes(m);
        }

        private static Map<String, FunctionClass> classes(Map<FunctionClass, String> lists) {
            Map<String, FunctionClass> out = new HashMap<>();
            for (Map.Entry<FunctionClass, String> e : lists.entrySet()) {
                for (String n : e.getValue().split(" ")) {
                    out.put(n, e.getKey());
                }
            }
            return out;
        }
    }

    /** What to write instead of functions models invent, per engine. */
    private static final class Equivalents {

        static final Map<String, String> SQLITE = pairs(
                "year", "strftime('%Y', <date>) (text; CAST(... AS INTEGER) for a number)",
                "month", "strftime('%m', <date>)",
                "day", "strftime('%d', <date>)",
                "dayofmonth", "strftime('%d', <date>)",
                "hour", "strftime('%H', <time>)",
                "minute", "strftime('%M', <time>)",
                "second", "strftime('%S', <time>)",
                "dayofweek", "strftime('%w', <date>) (0 = Sunday)",
                "now", "datetime('now')",
                "getdate", "datetime('now')",
                "sysdate", "datetime('now')",
                "curdate", "date('now')",
                "curtime", "time('now')",
                "datediff", "julianday(<end>) - julianday(<start>)",
                "timestampdiff", "(julianday(<end>) - julianday(<start>)) times the unit per day",
                "date_add", "date(<date>, '+N days')",
                "dateadd", "date(<date>, '+N days')",
                "date_sub", "date(<date>, '-N days')",
                "date_format", "strftime(<format>, <date>)",
                "to_char", "strftime(<format>, <date>)",
                "date_part", "strftime(<format>, <date>)",
                "date_trunc", "date(<date>, 'start of month') or strftime",
                "left", "substr(<text>, 1, N)",
                "right", "substr(<text>, -N)",
                "locate", "instr(<text>, <part>)",
                "position", "instr(<text>, <part>)",
                "strpos", "instr(<text>, <part>)",
                "charindex", "instr(<text>, <part>)",
                "len", "length(<text>)",
                "char_length", "length(<text>)",
                "character_length", "length(<text>)",
                "ucase", "upper(<text>)",
                "lcase", "lower(<text>)",
                "nvl", "ifnull(<value>, <default>)",
                "isnull", "ifnull(<value>, <default>) or <value> IS NULL",
                "listagg", "group_concat(<value>, <separator>)",
                "array_agg", "group_concat(<value>) or json_group_array(<value>)",
                "stddev", "an expression over avg(x * x) - avg(x) * avg(x)",
                "truncate", "CAST(<number> AS INTEGER) or round(<number>, N)",
                "rand", "random()",
                "split_part", "substr with instr",
                "substring_index", "substr with instr",
                "greatest", "max(<a>, <b>) (the scalar form)",
                "least", "min(<a>, <b>) (the scalar form)",
                "extract", "strftime(<format>, <date>)",
                "to_date", "date(<text>)",
                "str_to_date", "date(<text>) on ISO-8601 text",
                "unix_timestamp", "unixepoch(<date>)",
                "from_unixtime", "datetime(<seconds>, 'unixepoch')");

        static final Map<String, String> DUCKDB = pairs(
                "ifnull", "COALESCE(<value>, <default>)",
                "nvl", "COALESCE(<value>, <default>)",
                "iif", "CASE WHEN <condition> THEN <a> ELSE <b> END",
                "datediff", "date_diff('day', <start>, <end>)",
                "timestampdiff", "date_diff(<unit>, <start>, <end>)",
                "dateadd", "<date> + INTERVAL 1 DAY",
                "date_format", "strftime(<date>, <format>)",
                "to_char", "strftime(<date>, <format>)",
                "julianday", "julian(<date>)",
                "curdate", "current_date",
                "getdate", "now()",
                "sysdate", "now()",
                "group_concat", "string_agg(<value>, <separator>)",
                "listagg", "string_agg(<value>, <separator>)",
                "charindex", "strpos(<text>, <part>)",
                "locate", "strpos(<text>, <part>)",
                "len", "length(<text>)");

        static final Map<String, String> POSTGRESQL = pairs(
                "year", "EXTRACT(YEAR FROM <date>)",
                "month", "EXTRACT(MONTH FROM <date>)",
                "day", "EXTRACT(DAY FROM <date>)",
                "dayofmonth", "EXTRACT(DAY FROM <date>)",
                "hour", "EXTRACT(HOUR FROM <time>)",
                "minute", "EXTRACT(MINUTE FROM <time>)",
                "second", "EXTRACT(SECOND FROM <time>)",
                "dayofweek", "EXTRACT(DOW FROM <date>) (0 = Sunday)",
                "ifnull", "COALESCE(<value>, <default>)",
                "nvl", "COALESCE(<value>, <default>)",
                "isnull", "COALESCE(<value>, <default>) or <value> IS NULL",
                "iif", "CASE WHEN <condition> THEN <a> ELSE <b> END",
                "if", "CASE WHEN <condition> THEN <a> ELSE <b> END",
                "datediff", "<end>::date - <start>::date (days)",
                "timestampdiff", "EXTRACT(EPOCH FROM <end> - <start>)",
                "date_add", "<date> + INTERVAL 'N days'",
                "dateadd", "<date> + INTERVAL 'N days'",
                "date_sub", "<date> - INTERVAL 'N days'",
                "date_format", "to_char(<date>, <format>)",
                "strftime", "to_char(<date>, <format>)",
                "julianday", "EXTRACT(EPOCH FROM <date>) / 86400",
                "datetime", "CAST(<text> AS timestamp) or now()",
                "curdate", "CURRENT_DATE",
                "curtime", "CURRENT_TIME",
                "getdate", "now()",
                "sysdate", "now()",
                "group_concat", "string_agg(<value>::text, ',')",
                "listagg", "string_agg(<value>::text, <separator>)",
                "instr", "strpos(<text>, <part>)",
                "locate", "strpos(<text>, <part>)",
                "charindex", "strpos(<text>, <part>)",
                "len", "length(<text>)",
                "ucase", "upper(<text>)",
                "lcase", "lower(<text>)",
                "substring_index", "split_part(<text>, <delimiter>, N)",
                "truncate", "trunc(<number>, N)",
                "rand", "random()",
                "unix_timestamp", "EXTRACT(EPOCH FROM <date>)",
                "from_unixtime", "to_timestamp(<seconds>)",
                "any_value", "min(<value>)",
                "total", "COALESCE(sum(<value>), 0)",
                "str_to_date", "to_date(<text>, <format>)");

        static final Map<String, String> MYSQL = pairs(
                "strftime", "DATE_FORMAT(<date>, <format>)",
                "to_char", "DATE_FORMAT(<date>, <format>)",
                "julianday", "TO_DAYS(<date>)",
                "iif", "IF(<condition>, <a>, <b>)",
                "string_agg", "GROUP_CONCAT(<value> SEPARATOR <separator>)",
                "listagg", "GROUP_CONCAT(<value> SEPARATOR <separator>)",
                "array_agg", "GROUP_CONCAT(<value>) or JSON_ARRAYAGG(<value>)",
                "date_trunc", "DATE_FORMAT(<date>, '%Y-%m-01') or DATE(<date>)",
                "date_part", "EXTRACT(<unit> FROM <date>)",
                "split_part", "SUBSTRING_INDEX(<text>, <delimiter>, N)",
                "strpos", "LOCATE(<part>, <text>)",
                "charindex", "LOCATE(<part>, <text>)",
                "len", "CHAR_LENGTH(<text>)",
                "datetime", "TIMESTAMP(<text>) or NOW()",
                "getdate", "NOW()",
                "age", "TIMESTAMPDIFF(<unit>, <start>, <end>)",
                "random", "RAND()",
                "total", "COALESCE(SUM(<value>), 0)",
                "dateadd", "DATE_ADD(<date>, INTERVAL N DAY)",
                "unixepoch", "UNIX_TIMESTAMP(<date>)");

        static final Map<String, String> H2 = pairs(
                "strftime", "FORMATDATETIME(<date>, <format>)",
                "date_format", "FORMATDATETIME(<date>, <format>)",
                "julianday", "DATEDIFF('DAY', <start>, <end>)",
                "iif", "CASEWHEN(<condition>, <a>, <b>)",
                "if", "CASEWHEN(<condition>, <a>, <b>)",
                "datetime", "CAST(<text> AS TIMESTAMP) or CURRENT_TIMESTAMP",
                "strpos", "LOCATE(<part>, <text>)",
                "date_part", "EXTRACT(<unit> FROM <date>)",
                "age", "DATEDIFF(<unit>, <start>, <end>)",
                "split_part", "SUBSTRING with LOCATE",
                "substring_index", "SUBSTRING with LOCATE",
                "date_add", "DATEADD(<unit>, N, <date>)",
                "date_sub", "DATEADD(<unit>, -N, <date>)",
                "unix_timestamp", "DATEDIFF('SECOND', TIMESTAMP '1970-01-01 00:00:00', <date>)",
                "unixepoch", "DATEDIFF('SECOND', TIMESTAMP '1970-01-01 00:00:00', <date>)",
                "total", "COALESCE(SUM(<value>), 0)");

        private static Map<String, String> pairs(String... kv) {
            Map<String, String> m = new HashMap<>();
            for (int i = 0; i < kv.length; i += 2) {
                m.put(kv[i], kv[i + 1]);
            }
            return m;
        }

        private Equivalents() {
        }
    }
}
