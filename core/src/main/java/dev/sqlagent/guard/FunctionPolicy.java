package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Which functions model-written SQL may call. Immutable.
 *
 * <p>Two modes: an <em>allowlist</em> (the default, {@link #standard()}: the ordinary aggregate,
 * string, date, math and window functions of each dialect, plus any names added) or a
 * <em>denylist</em> ({@link #denying(String...)}: everything except the names given). In both modes
 * the dangerous functions ({@link #isDangerous(String)}: sleeping, file and network access, session
 * settings, sequences, extension loading, …) are refused; a policy cannot allow them.
 *
 * <p>Names are compared case-insensitively, unquoted. A schema-qualified call
 * ({@code pg_catalog.upper}) is allowed in allowlist mode only when the qualified name itself was
 * added; in every mode each part of the name is checked against the dangerous list.
 */
public final class FunctionPolicy {

    /** How the names of a policy are read. */
    public enum Mode {
        /** Only the listed names (and, for {@link #standard()}, the dialect's ordinary functions). */
        ALLOWLIST,
        /** Every function except the listed ones. */
        DENYLIST
    }

    private static final Set<String> DANGEROUS = Set.of(
            "pg_sleep", "pg_read_file", "pg_ls_dir", "lo_import", "lo_export", "set_config", "query_to_xml",
            "sleep", "benchmark", "load_file", "sys_exec", "sys_eval", "xp_cmdshell", "openrowset",
            "opendatasource", "openquery", "openxml", "load_extension", "readfile", "writefile", "edit",
            "fts3_tokenizer", "nextval", "setval", "currval", "lastval", "pg_terminate_backend",
            "pg_cancel_backend", "current_setting", "get_lock", "release_lock", "master_pos_wait",
            "source_pos_wait", "extractvalue", "updatexml", "randomblob", "zeroblob", "waitfor",
            "table_to_xml", "query_to_xmlschema", "query_to_xml_and_xmlschema", "cursor_to_xml",
            "schema_to_xml", "database_to_xml", "copy", "shell", "system", "exec", "execute", "eval");

    /** Prefixes refused in every mode (families of dangerous functions and packages). */
    private static final List<String> DANGEROUS_PREFIXES = List.of(
            "pg_", "lo_", "dblink", "dbms_", "utl_", "xp_", "sp_", "sys_", "http", "sqlite_", "ctxsys",
            "owa_", "java", "xdb", "uri", "sdo_");

    private static final Set<String> COMMON = Set.of(
            // aggregates
            "count", "sum", "avg", "min", "max", "every", "stddev", "stddev_pop", "stddev_samp", "variance",
            "var_pop", "var_samp", "rollup", "cube", "grouping", "grouping sets",
            // window
            "row_number", "rank", "dense_rank", "ntile", "lag", "lead", "first_value", "last_value",
            "nth_value", "percent_rank", "cume_dist",
            // string
            "lower", "upper", "length", "char_length", "character_length", "substr", "substring", "trim",
            "ltrim", "rtrim", "replace", "concat", "concat_ws", "left", "right", "lpad", "rpad", "reverse",
            "instr", "position", "locate", "initcap",
            // conditional
            "coalesce", "nullif", "greatest", "least",
            // math
            "abs", "round", "ceil", "ceiling", "floor", "mod", "power", "pow", "sqrt", "exp", "ln", "log",
            "log10", "sign", "trunc", "truncate",
            // date (YEAR, MONTH, DAY are MySQL, H2 and SQL Server functions only: listed there)
            "current_date", "current_time", "current_timestamp", "extract");

    /**
     * Session and catalog probes: who the login is, which database, schema, server version, connection.
     * Refused in every mode unless named with {@link #allowAlso}.
     */
    private static final Set<String> PROBES = Set.of(
            "current_user", "session_user", "user", "current_role", "system_user", "current_schema",
            "current_schemas", "current_catalog", "current_database", "current_path", "current_query",
            "version", "database", "schema", "connection_id", "sqlite_version", "sqlite_source_id",
            "inet_server_addr", "inet_server_port", "inet_client_addr", "inet_client_port", "txid_current",
            "user_name", "suser_name", "suser_sname", "db_name", "db_id", "host_name", "host_id", "app_name",
            "original_login", "uid", "userenv", "ora_database_name", "h2version", "database_path", "readonly",
            "memory_used", "memory_free", "session_id", "lock_mode", "lock_timeout", "transaction_id",
            "last_insert_id", "last_insert_rowid", "found_rows", "row_count", "changes", "total_changes",
            "scope_identity", "identity", "disk_space_used", "session_user_name", "obj_description",
            "col_description", "has_table_privilege", "has_column_privilege", "to_regclass", "format_type",
            "current_setting", "sys_context", "regclass", "oid");

    /** Probes the engines read as calls without parentheses, by dialect (a bare name to the parser). */
    private static final Set<String> PROBE_KEYWORDS = Set.of("current_user", "session_user", "current_role",
            "system_user", "user", "current_schema", "current_catalog", "current_path");

    /** PostgreSQL's object-identifier types: a cast to one reads the catalog. */
    private static final Set<String> CATALOG_TYPES = Set.of("regclass", "regtype", "regproc", "regprocedure",
            "regoper", "regoperator", "regnamespace", "regrole", "regconfig", "regdictionary", "regcollation",
            "oid", "xid", "xid8", "cid", "tid", "pg_lsn", "txid_snapshot", "pg_snapshot");

    private static final Map<Dialect, Set<String>> DIALECT_EXTRAS = dialectExtras();

    private static final FunctionPolicy STANDARD = new FunctionPolicy(Mode.ALLOWLIST, true, Set.of());

    private final Mode mode;
    private final boolean includeStandard;
    private final Set<String> names;

    private final Set<String> probes;

    private FunctionPolicy(Mode mode, boolean includeStandard, Set<String> names) {
        this.mode = mode;
        this.includeStandard = includeStandard;
        this.names = Set.copyOf(names);
        Set<String> p = new LinkedHashSet<>();
        for (String n : names) {
            if (PROBES.contains(n) || CATALOG_TYPES.contains(n)) {
                p.add(n);
            }
        }
        this.probes = Set.copyOf(p);
    }

    private FunctionPolicy(Mode mode, boolean includeStandard, Set<String> names, Set<String> probes) {
        this.mode = mode;
        this.includeStandard = includeStandard;
        this.names = Set.copyOf(names);
        this.probes = Set.copyOf(probes);
    }

    /** {@return the default: allowlist of each dialect's ordinary functions} */
    public static FunctionPolicy standard() {
        return STANDARD;
    }

    /**
     * Creates an allowlist of exactly the given functions, without the dialects' standard list.
     *
     * @param functions the only functions allowed (no standard list); dangerous ones are still refused
     * @return an allowlist policy
     * @throws IllegalArgumentException if a name is blank
     */
    public static FunctionPolicy allowOnly(String... functions) {
        return new FunctionPolicy(Mode.ALLOWLIST, false, normalise(Arrays.asList(functions)));
    }

    /**
     * Creates a denylist: every function may be called except the given ones and the dangerous ones.
     *
     * @param functions functions refused on top of the dangerous ones; every other function is allowed
     * @return a denylist policy
     * @throws IllegalArgumentException if a name is blank
     */
    public static FunctionPolicy denying(String... functions) {
        return new FunctionPolicy(Mode.DENYLIST, false, normalise(Arrays.asList(functions)));
    }

    /**
     * Returns a copy that allows more functions; this policy is unchanged.
     *
     * @param functions more functions to allow (allowlist mode) or to stop denying (denylist mode);
     *                  dangerous ones stay refused
     * @return a new policy
     * @throws IllegalArgumentException if a name is blank
     */
    public FunctionPolicy allowAlso(String... functions) {
        Set<String> more = normalise(Arrays.asList(functions));
        Set<String> next = new LinkedHashSet<>(names);
        if (mode == Mode.ALLOWLIST) {
            next.addAll(more);
        } else {
            next.removeAll(more);
        }
        Set<String> nextProbes = new LinkedHashSet<>(probes);
        for (String m : more) {
            if (PROBES.contains(m) || CATALOG_TYPES.contains(m)) {
                nextProbes.add(m);
            }
        }
        return new FunctionPolicy(mode, includeStandard, next, nextProbes);
    }

    /** {@return the mode} */
    public Mode mode() {
        return mode;
    }

    /** {@return the names given to this policy (allowed or denied by mode), lower case, without the standard list} */
    public Set<String> names() {
        return names;
    }

    /**
     * Lists the ordinary functions {@link #standard()} allows for a dialect.
     *
     * @param dialect a dialect
     * @return the ordinary functions {@link #standard()} allows for it, lower case
     */
    public static Set<String> standardFunctions(Dialect dialect) {
        Set<String> all = new LinkedHashSet<>(COMMON);
        all.addAll(DIALECT_EXTRAS.getOrDefault(Objects.requireNonNull(dialect, "dialect"), Set.of()));
        return all;
    }

    /**
     * Whether a call of this function may run.
     *
     * @param nameParts the function's name parts, unquoted, as written ({@code [pg_catalog, upper]})
     * @param dialect the dialect
     * @return whether the call is allowed
     */
    public boolean allows(List<String> nameParts, Dialect dialect) {
        Objects.requireNonNull(dialect, "dialect");
        if (nameParts == null || nameParts.isEmpty()) {
            return false;
        }
        StringBuilder joined = new StringBuilder();
        for (String part : nameParts) {
            String p = Names.lower(part);
            if (isDangerous(p)) {
                return false;
            }
            joined.append(joined.length() == 0 ? "" : ".").append(p);
        }
        String name = joined.toString();
        String last = Names.lower(nameParts.get(nameParts.size() - 1));
        if (PROBES.contains(last) || PROBES.contains(name)) {
            return probes.contains(last) || probes.contains(name);
        }
        if (mode == Mode.DENYLIST) {
            return !names.contains(name);
        }
        if (names.contains(name)) {
            return true;
        }
        return includeStandard && nameParts.size() == 1
                && (COMMON.contains(name) || DIALECT_EXTRAS.getOrDefault(dialect, Set.of()).contains(name));
    }

    /**
     * Says whether this policy allows a session or catalog probe.
     *
     * @param name a session or catalog probe ({@code current_user}, {@code version}, {@code regclass}),
     *             lower case
     * @return whether this policy allows it (only when named with {@link #allowAlso})
     */
    public boolean allowsProbe(String name) {
        return probes.contains(Names.lower(name));
    }

    /**
     * Says whether a name is a session or catalog probe, such as {@code current_user} or {@code version}.
     *
     * @param name a name, lower case
     * @return whether it is a session or catalog probe, refused unless allowed by name
     */
    public static boolean isProbe(String name) {
        return PROBES.contains(Names.lower(name));
    }

    /**
     * @param dialect the dialect
     * @return the probes that dialect's engine reads as calls when written bare, without parentheses
     */
    static Set<String> probeKeywords(Dialect dialect) {
        switch (dialect) {
            case SQLITE:
                return Set.of();
            case MYSQL:
            case MARIADB:
                return Set.of("current_user", "current_role");
            default:
                return PROBE_KEYWORDS;
        }
    }

    /**
     * @param type a type name, lower case
     * @return whether a cast to it reads the catalog ({@code regclass}, {@code oid}, …)
     */
    static boolean isCatalogType(String type) {
        return CATALOG_TYPES.contains(type);
    }

    /**
     * Says whether a function is refused in every mode, whatever the policy names.
     *
     * @param name a function name or one part of a qualified name, any case
     * @return whether it is refused in every mode (sleep, file, network, settings, sequences, …)
     */
    public static boolean isDangerous(String name) {
        String n = Names.lower(name);
        if (DANGEROUS.contains(n)) {
            return true;
        }
        for (String prefix : DANGEROUS_PREFIXES) {
            if (n.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static Set<String> normalise(Collection<String> functions) {
        Set<String> out = new LinkedHashSet<>();
        for (String f : functions) {
            Objects.requireNonNull(f, "function");
            if (f.isBlank()) {
                throw new IllegalArgumentException("function name must not be blank");
            }
            out.add(Names.lower(f.trim()));
        }
        return out;
    }

    private static Map<Dialect, Set<String>> dialectExtras() {
        Map<Dialect, Set<String>> m = new EnumMap<>(Dialect.class);
        // https://sqlite.org/lang_corefunc.html, lang_datefunc.html, lang_mathfunc.html, lang_aggfunc.html, json1.html
        m.put(Dialect.SQLITE, Set.of("ifnull", "iif", "if", "strftime", "date", "time", "datetime", "julianday",
                "unixepoch", "timediff", "printf", "format", "group_concat", "string_agg", "total", "typeof",
                "char", "unicode", "hex", "unhex", "likely", "unlikely", "likelihood", "random", "like", "glob",
                "octet_length", "quote", "soundex", "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh",
                "cos", "cosh", "degrees", "log2", "pi", "radians", "sin", "sinh", "tan", "tanh", "json",
                "json_extract", "json_array", "json_object", "json_type", "json_valid", "json_array_length",
                "json_group_array", "json_group_object", "json_quote", "median"));
        // https://www.postgresql.org/docs/current/functions.html
        m.put(Dialect.POSTGRESQL, Set.of("to_char", "to_date", "to_timestamp", "to_number", "date_trunc",
                "date_part", "date_bin", "age", "now", "localtime", "localtimestamp", "clock_timestamp",
                "make_date", "make_time", "make_timestamp", "make_interval", "justify_days", "justify_hours",
                "isfinite", "string_agg", "array_agg", "array_length", "array_to_string", "string_to_array",
                "array_position", "cardinality", "split_part", "strpos", "btrim", "md5", "ascii", "chr", "repeat",
                "translate", "starts_with", "octet_length", "bit_length", "to_hex", "regexp_replace",
                "regexp_match", "regexp_like", "regexp_count", "regexp_substr", "regexp_split_to_array",
                "bool_and", "bool_or", "percentile_cont", "percentile_disc", "mode", "corr", "covar_pop",
                "covar_samp", "regr_slope", "regr_intercept", "regr_r2", "width_bucket", "cbrt", "div", "gcd",
                "lcm", "factorial", "degrees", "radians", "pi", "sin", "cos", "tan", "asin", "acos", "atan",
                "atan2", "scale", "random", "format", "json_agg", "jsonb_agg", "to_json", "to_jsonb",
                "json_build_object", "jsonb_build_object", "json_build_array", "jsonb_build_array",
                "json_object_agg", "jsonb_object_agg", "json_extract_path_text", "jsonb_extract_path_text",
                "any_value", "timezone", "any", "some", "all"));
        // https://dev.mysql.com/doc/refman/8.4/en/built-in-function-reference.html
        Set<String> mysql = Set.of("ifnull", "if", "isnull", "date_format", "datediff", "date_add", "date_sub",
                "adddate", "subdate", "addtime", "subtime", "timediff", "time_to_sec", "sec_to_time", "time_format",
                "curdate", "curtime", "now", "sysdate", "utc_date", "utc_time", "utc_timestamp", "localtime",
                "localtimestamp", "group_concat", "timestampdiff", "timestampadd", "str_to_date", "dayofweek",
                "dayofmonth", "dayofyear", "week", "weekofyear", "yearweek", "quarter", "hour", "minute", "second",
                "microsecond", "last_day", "makedate", "maketime", "period_add", "period_diff", "from_days",
                "to_days", "to_seconds", "from_unixtime", "unix_timestamp", "year", "month", "day", "date", "time",
                "timestamp", "dayname", "monthname", "weekday", "field", "find_in_set", "elt", "format", "rand",
                "mid", "md5", "sha1", "sha2", "crc32", "substring_index", "ascii", "ord", "bin", "oct", "hex",
                "unhex", "conv", "space", "repeat", "strcmp", "soundex", "insert", "lcase", "ucase", "octet_length",
                "bit_length", "regexp_like", "regexp_replace", "regexp_substr", "regexp_instr", "json_extract",
                "json_unquote", "json_object", "json_array", "json_arrayagg", "json_objectagg", "json_length",
                "json_contains", "json_keys", "bit_and", "bit_or", "bit_xor", "std", "log2", "pi", "radians",
                "degrees", "sin", "cos", "tan", "cot", "asin", "acos", "atan", "atan2", "any_value", "convert",
                "char");
        m.put(Dialect.MYSQL, mysql);
        m.put(Dialect.MARIADB, mysql);
        // https://learn.microsoft.com/sql/t-sql/functions/functions
        m.put(Dialect.SQLSERVER, Set.of("isnull", "len", "datepart", "datediff", "datediff_big", "dateadd",
                "datename", "datefromparts", "getdate", "getutcdate", "sysdatetime", "year", "month", "day",
                "charindex", "convert", "format", "iif", "string_agg", "eomonth", "square", "patindex", "stuff",
                "choose", "try_cast", "try_convert", "count_big", "str", "replicate", "space", "pi", "rand",
                "datetrunc", "string_split_part", "translate", "ascii", "char", "unicode", "nchar", "difference",
                "soundex", "quotename"));
        // https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Functions.html
        m.put(Dialect.ORACLE, Set.of("nvl", "nvl2", "decode", "to_char", "to_date", "to_number", "to_timestamp",
                "listagg", "add_months", "months_between", "last_day", "next_day", "regexp_substr",
                "regexp_replace", "regexp_like", "regexp_instr", "regexp_count", "median", "sysdate",
                "systimestamp", "lengthb", "translate", "chr", "ascii", "remainder", "percentile_cont",
                "percentile_disc", "stats_mode"));
        // https://h2database.com/html/functions.html
        m.put(Dialect.H2, Set.of("ifnull", "nvl", "nvl2", "datediff", "dateadd", "timestampdiff", "timestampadd",
                "to_char", "to_date", "to_timestamp", "formatdatetime", "parsedatetime", "listagg", "group_concat",
                "string_agg", "array_agg", "array_length", "cardinality", "now", "year", "month", "day",
                "dayofweek", "day_of_week", "dayofmonth", "day_of_month", "dayofyear", "day_of_year", "week",
                "iso_week", "iso_year", "quarter", "hour", "minute", "second", "dayname", "monthname", "casewhen",
                "date_trunc", "rand", "random", "median", "mode", "bool_and", "bool_or", "any_value",
                "percentile_cont", "percentile_disc", "locate", "repeat", "space", "regexp_replace",
                "regexp_like", "regexp_substr", "soundex", "ascii", "char", "chr", "bitand", "bitor", "bitxor",
                "pi", "radians", "degrees", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "cot",
                "sysdate", "systimestamp", "localtime", "localtimestamp", "decode", "translate", "octet_length",
                "bit_length", "json_object", "json_array", "last_day", "any", "some", "all"));
        m.put(Dialect.GENERIC, Set.of());
        return m;
    }

    @Override
    public String toString() {
        return "FunctionPolicy{" + mode + (includeStandard ? ", standard" : "") + ", " + names + '}';
    }
}
