package dev.sqlagent.engine.postgres;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineGuard;
import dev.sqlagent.engine.FunctionTable;
import dev.sqlagent.guard.FunctionClass;
import dev.sqlagent.internal.Identifiers;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** How the guard reads PostgreSQL's SQL. */
final class PostgresGuard implements EngineGuard {

    /** What to write instead of functions models invent on this engine. */
    private static final Map<String, String> EQUIVALENTS = FunctionTable.pairs(
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
    private final Dialect dialect;

    PostgresGuard(Dialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public String name() {
        return "PostgreSQL";
    }

    @Override
    public String promptHints() {
        return "PostgreSQL: single quotes for strings, double quotes only for identifiers; "
                + "cast with CAST(x AS type) or x::type; EXTRACT(YEAR FROM col) for the year.";
    }

    @Override
    public Identifiers.Rule columnRule() {
        return Identifiers.Rule.LOWER;
    }

    @Override
    public String quoteAsBareName(String word) {
        return "\"" + word.toLowerCase(Locale.ROOT) + "\"";
    }

    @Override
    public Set<String> systemColumns() {
        return Set.of("tableoid", "ctid", "xmin", "xmax", "cmin", "cmax", "oid");
    }

    @Override
    public boolean namesItemsByFunction() {
        return true;
    }

    @Override
    public boolean backslashLiteral() {
        return false;
    }

    @Override
    public boolean backslashBySetting() {
        return true; // standard_conforming_strings
    }

    @Override
    public Map<String, FunctionClass> functionClasses() {
        return FunctionTable.read(PostgresGuard.class);
    }

    @Override
    public String functionSchema() {
        return "pg_catalog";
    }

    @Override
    public Map<String, String> functionEquivalents() {
        return EQUIVALENTS;
    }

    @Override
    public boolean formatQuotes() {
        return true;
    }

    @Override
    public boolean castsMayCallDatabaseFunctions() {
        return true;
    }

    @Override
    public boolean standardJson() {
        return true;
    }

    @Override
    public boolean jsonObjectOfArray() {
        return true;
    }

    @Override
    public boolean namedArguments() {
        return true;
    }

    @Override
    public boolean containmentOperators() {
        return true;
    }

    @Override
    public dev.sqlagent.engine.RowCap rowCap() {
        return dev.sqlagent.engine.RowCap.LIMIT;
    }

    @Override
    public boolean orderedScansOff() {
        return true; // PostgreSQL has no index hints
    }
}
