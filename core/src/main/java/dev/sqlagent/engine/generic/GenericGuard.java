package dev.sqlagent.engine.generic;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineGuard;
import dev.sqlagent.engine.FunctionTable;
import dev.sqlagent.engine.RowCap;
import dev.sqlagent.guard.FunctionClass;
import dev.sqlagent.internal.Identifiers;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * How the guard reads the SQL of an engine the library has no server for (SQL Server, Oracle, ANSI SQL): the
 * defaults of {@link EngineGuard}, read as strictly as the guard can, with each one's quoting and row cap. The
 * function catalog is a small hand-written list of ordinary functions; a name outside it is refused.
 */
final class GenericGuard implements EngineGuard {
    private static final String COMMON_SCALAR = "lower upper length char_length character_length substr "
                + "substring trim ltrim rtrim concat concat_ws left right reverse position coalesce nullif greatest "
                + "least abs round ceil ceiling floor mod power sqrt exp ln log log10 sign current_date "
                + "current_time current_timestamp extract cast translate ascii";
    private static final String COMMON_AGGREGATE = "count sum avg min max stddev stddev_pop stddev_samp "
                + "variance var_pop var_samp grouping rollup cube";
    private static final String COMMON_WINDOW = "row_number rank dense_rank ntile lag lead first_value "
                + "last_value nth_value percent_rank cume_dist";


    private final Dialect dialect;

    GenericGuard(Dialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public String name() {
        switch (dialect) {
            case SQLSERVER: return "SQL Server";
            case ORACLE: return "Oracle";
            default: return "The database";
        }
    }

    @Override
    public String promptName() {
        switch (dialect) {
            case SQLSERVER: return "Microsoft SQL Server";
            case ORACLE: return "Oracle";
            default: return "ANSI SQL";
        }
    }

    @Override
    public String promptHints() {
        switch (dialect) {
            case SQLSERVER:
                return "SQL Server: use TOP n, not LIMIT; YEAR(col) for the year.";
            case ORACLE:
                return "Oracle: use FETCH FIRST n ROWS ONLY, not LIMIT; EXTRACT(YEAR FROM col) for the year.";
            default:
                return "";
        }
    }

    @Override
    public Identifiers.Rule columnRule() {
        switch (dialect) {
            case ORACLE: return Identifiers.Rule.UPPER;
            case SQLSERVER: return Identifiers.Rule.INSENSITIVE;
            default: return Identifiers.Rule.LOWER;
        }
    }

    @Override
    public String quoteAsBareName(String word) {
        switch (dialect) {
            case SQLSERVER: return "[" + word + "]";
            case ORACLE: return "\"" + word.toUpperCase(Locale.ROOT) + "\"";
            default: return "\"" + word + "\"";
        }
    }

    @Override
    public boolean tableNameIsRowValue() {
        return dialect == Dialect.GENERIC;
    }

    @Override
    public boolean squareBracketQuotes() {
        return dialect == Dialect.SQLSERVER;
    }

    @Override
    public boolean doubledClosingBracket() {
        return dialect == Dialect.SQLSERVER;
    }

    /** Not for an unknown engine, which may read it as an escape. */
    @Override
    public boolean backslashLiteral() {
        return dialect != Dialect.GENERIC;
    }

    @Override
    public boolean functionsGenerated() {
        return false;
    }

    @Override
    public Map<String, FunctionClass> functionClasses() {
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
        return FunctionTable.classes(m);
    }

    @Override
    public RowCap rowCap() {
        return dialect == Dialect.SQLSERVER ? RowCap.TOP : RowCap.FETCH_FIRST;
    }

    @Override
    public boolean aliasWithAs() {
        return dialect != Dialect.ORACLE;
    }
}
