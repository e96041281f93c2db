package dev.sqlagent.engine.mariadb;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineGuard;
import dev.sqlagent.engine.FunctionTable;
import dev.sqlagent.engine.Respelled;
import dev.sqlagent.engine.Respelling;
import dev.sqlagent.engine.SqlLexer;
import dev.sqlagent.guard.FunctionClass;
import dev.sqlagent.internal.Identifiers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** How the guard reads MariaDB's and MySQL's SQL. */
final class MariaDbGuard implements EngineGuard {

    /** What to write instead of functions models invent on this engine. */
    private static final Map<String, String> EQUIVALENTS = FunctionTable.pairs(
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

    /** MySQL's reviewed additions to MariaDB's catalog: a MySQL function missing here reads as unknown. */
    private static final Map<String, FunctionClass> MYSQL_ONLY = FunctionTable.classes(Map.of(
                FunctionClass.SAFE_SCALAR, "regexp_like bin_to_uuid uuid_to_bin is_uuid json_schema_valid "
                        + "json_storage_size json_storage_free grouping",
                FunctionClass.SAFE_AGGREGATE, "any_value",
                FunctionClass.READS_SESSION, "ps_current_thread_id ps_thread_id icu_version current_role",
                FunctionClass.READS_CATALOG, "roles_graphml statement_digest statement_digest_text",
                FunctionClass.WAITS_OR_LOCKS, "source_pos_wait wait_for_executed_gtid_set"));

    private final Dialect dialect;

    MariaDbGuard(Dialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public String name() {
        return dialect == Dialect.MYSQL ? "MySQL" : "MariaDB";
    }

    @Override
    public String promptHints() {
        return "MySQL: YEAR(col) for the year; every non-aggregated selected column must be grouped.";
    }

    @Override
    public Identifiers.Rule columnRule() {
        return Identifiers.Rule.INSENSITIVE;
    }

    /** As {@code lower_case_table_names=0}, the default on Linux. */
    @Override
    public Identifiers.Rule tableAliasRule() {
        return Identifiers.Rule.EXACT;
    }

    @Override
    public List<Identifiers.Rule> alternativeRules(boolean tableAlias) {
        // lower_case_table_names = 1 or 2
        return tableAlias ? List.of(Identifiers.Rule.INSENSITIVE) : List.of();
    }

    @Override
    public boolean tableNamesExact() {
        return true;
    }

    @Override
    public boolean schemaQualifiesAlias() {
        return true;
    }

    @Override
    public String quoteAsBareName(String word) {
        return "`" + word + "`";
    }

    @Override
    public Set<String> systemColumns() {
        return Set.of("_rowid");
    }

    @Override
    public boolean tableNameIsRowValue() {
        return false;
    }

    @Override
    public boolean doubleQuotedMayBeString() {
        return true;
    }

    @Override
    public boolean backslashEscapes() {
        return true;
    }

    @Override
    public boolean backslashLiteral() {
        return false;
    }

    @Override
    public boolean executableComments() {
        return true;
    }

    @Override
    public boolean pipesAreOr() {
        return true;
    }

    @Override
    public Respelled respell(SqlLexer.Result lexed, Respelling.Relexer relex) {
        SqlLexer.Result l = lexed;
        if (dialect == Dialect.MARIADB) {
            l = relex.after(MariaDbGroupOrder.forParser(l), l);
            if (l.violation() != null) {
                return Respelled.none(l);
            }
        }
        MySqlSpelling.ForParser mySql = MySqlSpelling.forParser(l);
        SqlLexer.Result after = relex.after(mySql, l);
        return new Respelled() {
            @Override
            public SqlLexer.Result lexed() {
                return after;
            }

            @Override
            public String forEngine(String printed) {
                return MySqlSpelling.forEngine(printed, mySql, dialect);
            }

            @Override
            public String unprintable() {
                return "the select options of this statement could not be printed back exactly";
            }

            @Override
            public int selectOptions() {
                return mySql.options().size();
            }

            @Override
            public int selectOptionsMarker(String folded) {
                return SqlLexer.markerIndex(folded, MySqlSpelling.OPTIONS_MARKER);
            }

            @Override
            public int indexHints() {
                return mySql.hints().size();
            }

            @Override
            public int indexHintMarker(String folded) {
                return SqlLexer.markerIndex(folded, MySqlSpelling.HINT_MARKER);
            }

            @Override
            public String indexHint(int marker) {
                return mySql.hints().get(marker);
            }
        };
    }

    @Override
    public Map<String, FunctionClass> functionClasses() {
        Map<String, FunctionClass> m = new HashMap<>(FunctionTable.read(MariaDbGuard.class));
        if (dialect == Dialect.MYSQL) {
            m.putAll(MYSQL_ONLY);
        }
        return m;
    }

    @Override
    public Map<String, String> functionEquivalents() {
        return EQUIVALENTS;
    }

    @Override
    public boolean builtinsShadowStoredFunctions() {
        return true;
    }

    @Override
    public Set<String> bareProbes(Set<String> standard) {
        return Set.of("current_user", "current_role");
    }

    @Override
    public boolean jsonObjectAggWithComma() {
        return true;
    }

    @Override
    public boolean nullSafeEqualsOperator() {
        return true;
    }

    @Override
    public dev.sqlagent.engine.RowCap rowCap() {
        return dev.sqlagent.engine.RowCap.LIMIT;
    }

    @Override
    public boolean mergesDerivedTables() {
        return true;
    }

    @Override
    public boolean storedInPrimaryKeyOrder() {
        return true; // InnoDB
    }

    @Override
    public String avoidIndexes(boolean ownHint, Set<String> ordering, Set<String> others) {
        List<String> names = new ArrayList<>();
        for (String n : ordering) {
            names.add("`" + n.replace("`", "``") + "`");
        }
        return names.isEmpty() ? null : " IGNORE INDEX (" + String.join(", ", names) + ")";
    }
}
