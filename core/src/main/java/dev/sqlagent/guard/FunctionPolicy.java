package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
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
            // date
            "current_date", "current_time", "current_timestamp", "extract", "year", "month", "day");

    private static final Map<Dialect, Set<String>> DIALECT_EXTRAS = dialectExtras();

    private static final FunctionPolicy STANDARD = new FunctionPolicy(Mode.ALLOWLIST, true, Set.of());

    private final Mode mode;
    private final boolean includeStandard;
    private final Set<String> names;

    private FunctionPolicy(Mode mode, boolean includeStandard, Set<String> names) {
        this.mode = mode;
        this.includeStandard = includeStandard;
        this.names = Set.copyOf(names);
    }

    /** @return the default: allowlist of each dialect's ordinary functions */
    public static FunctionPolicy standard() {
        return STANDARD;
    }

    /**
     * @param functions the only functions allowed (no standard list); dangerous ones are still refused
     * @return an allowlist policy
     * @throws IllegalArgumentException if a name is blank
     */
    public static FunctionPolicy allowOnly(String... functions) {
        return new FunctionPolicy(Mode.ALLOWLIST, false, normalise(Arrays.asList(functions)));
    }

    /**
     * @param functions functions refused on top of the dangerous ones; every other function is allowed
     * @return a denylist policy
     * @throws IllegalArgumentException if a name is blank
     */
    public static FunctionPolicy denying(String... functions) {
        return new FunctionPolicy(Mode.DENYLIST, false, normalise(Arrays.asList(functions)));
    }

    /**
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
        return new FunctionPolicy(mode, includeStandard, next);
    }

    /** @return the mode */
    public Mode mode() {
        return mode;
    }

    /** @return the names given to this policy (allowed or denied by mode), lower case, without the standard list */
    public Set<String> names() {
        return names;
    }

    /**
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
            String p = part.toLowerCase(Locale.ROOT);
            if (isDangerous(p)) {
                return false;
            }
            joined.append(joined.length() == 0 ? "" : ".").append(p);
        }
        String name = joined.toString();
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
     * @param name a function name or one part of a qualified name, any case
     * @return whether it is refused in every mode (sleep, file, network, settings, sequences, …)
     */
    public static boolean isDangerous(String name) {
        String n = name.toLowerCase(Locale.ROOT);
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
            out.add(f.trim().toLowerCase(Locale.ROOT));
        }
        return out;
    }

    private static Map<Dialect, Set<String>> dialectExtras() {
        Map<Dialect, Set<String>> m = new EnumMap<>(Dialect.class);
        m.put(Dialect.SQLITE, Set.of("ifnull", "iif", "strftime", "date", "time", "datetime", "julianday",
                "unixepoch", "printf", "format", "group_concat", "total", "typeof", "char", "unicode", "hex",
                "likely", "unlikely", "nullif", "random", "like", "glob", "round", "string_agg"));
        m.put(Dialect.POSTGRESQL, Set.of("to_char", "to_date", "to_timestamp", "to_number", "date_trunc",
                "date_part", "age", "now", "string_agg", "array_agg", "split_part", "strpos", "btrim", "md5",
                "regexp_replace", "regexp_match", "bool_and", "bool_or", "percentile_cont", "percentile_disc",
                "mode", "make_date", "justify_days", "width_bucket", "cbrt", "div", "random", "format",
                "json_agg", "jsonb_agg", "to_json"));
        Set<String> mysql = Set.of("ifnull", "if", "date_format", "datediff", "date_add", "date_sub",
                "curdate", "now", "group_concat", "timestampdiff", "str_to_date", "dayofweek", "dayofmonth",
                "week", "quarter", "hour", "minute", "second", "last_day", "field", "format", "rand",
                "char_length", "mid", "md5", "date", "time", "dayname", "monthname", "weekday");
        m.put(Dialect.MYSQL, mysql);
        m.put(Dialect.MARIADB, mysql);
        m.put(Dialect.SQLSERVER, Set.of("isnull", "len", "datepart", "datediff", "dateadd", "datename",
                "getdate", "charindex", "convert", "format", "iif", "string_agg", "eomonth", "square",
                "patindex", "stuff", "choose", "try_cast", "try_convert", "sysdatetime", "count_big"));
        m.put(Dialect.ORACLE, Set.of("nvl", "nvl2", "decode", "to_char", "to_date", "to_number", "listagg",
                "add_months", "months_between", "last_day", "next_day", "regexp_substr", "regexp_replace",
                "regexp_like", "median", "sysdate"));
        m.put(Dialect.H2, Set.of("ifnull", "nvl", "datediff", "dateadd", "to_char", "formatdatetime",
                "parsedatetime", "listagg", "group_concat", "string_agg", "array_agg", "now", "year", "month",
                "day_of_week", "day_of_month", "day_of_year", "week", "quarter", "hour", "minute", "second",
                "casewhen", "date_trunc", "rand", "random", "median", "mode", "bool_and", "bool_or", "any_value"));
        m.put(Dialect.GENERIC, Set.of());
        return m;
    }

    @Override
    public String toString() {
        return "FunctionPolicy{" + mode + (includeStandard ? ", standard" : "") + ", " + names + '}';
    }
}
