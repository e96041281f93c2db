package dev.sqlagent.engine.sqlite;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineGuard;
import dev.sqlagent.engine.FunctionTable;
import dev.sqlagent.engine.Respelled;
import dev.sqlagent.engine.Respelling;
import dev.sqlagent.engine.SqlLexer;
import dev.sqlagent.guard.FunctionClass;
import dev.sqlagent.internal.Identifiers;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.Function;

/** How the guard reads SQLite's SQL. */
final class SqliteGuard implements EngineGuard {

    /** What to write instead of functions models invent on this engine. */
    private static final Map<String, String> EQUIVALENTS = FunctionTable.pairs(
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
    private final Dialect dialect;

    SqliteGuard(Dialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public String name() {
        return "SQLite";
    }

    @Override
    public String promptHints() {
        return "SQLite: dates are text; use strftime('%Y', col) for the year; || concatenates strings.";
    }

    @Override
    public Identifiers.Rule columnRule() {
        return Identifiers.Rule.INSENSITIVE;
    }

    @Override
    public Set<String> systemColumns() {
        return Set.of("rowid", "oid", "_rowid_");
    }

    @Override
    public boolean tableNameIsRowValue() {
        return false;
    }

    @Override
    public boolean joinConditionsSeeWholeFrom() {
        return true; // SQLite moves ON terms into WHERE
    }

    @Override
    public boolean fts5() {
        return true;
    }

    @Override
    public String fullTextFunction(Function f) {
        return Fts5.auxiliary(f);
    }

    @Override
    public boolean isFullTextFunction(String name) {
        return Fts5.AUXILIARY.contains(name);
    }

    @Override
    public int fullTextArity(String name) {
        return Fts5.arity(name);
    }

    @Override
    public Set<Integer> fullTextMarkers(String name) {
        return Fts5.markers(name);
    }

    @Override
    public int maxFullTextMarker() {
        return Fts5.MAX_MARKER;
    }

    @Override
    public Respelled respell(SqlLexer.Result lexed, Respelling.Relexer relex) {
        SqlLexer.Result chained = relex.after(SqliteChains.forParser(lexed), lexed);
        if (chained.violation() != null) {
            return Respelled.none(chained);
        }
        SqliteSpelling.ForParser sqlite = SqliteSpelling.forParser(chained);
        SqlLexer.Result after = relex.after(sqlite, chained);
        return new Respelled() {
            @Override
            public SqlLexer.Result lexed() {
                return after;
            }

            @Override
            public String forEngine(String printed) {
                return SqliteSpelling.forEngine(printed, sqlite);
            }

            @Override
            public String unprintable() {
                return "the MATCH or GLOB operators of this statement could not be printed back exactly";
            }

            @Override
            public int matches() {
                return sqlite.matches();
            }
        };
    }

    @Override
    public boolean doubleQuotedMayBeString() {
        return true;
    }

    @Override
    public boolean squareBracketQuotes() {
        return true;
    }

    @Override
    public boolean backQuoteInBrackets() {
        return true;
    }

    @Override
    public Map<String, FunctionClass> functionClasses() {
        return FunctionTable.read(SqliteGuard.class);
    }

    @Override
    public Map<String, String> functionEquivalents() {
        return EQUIVALENTS;
    }

    @Override
    public Set<String> bareProbes(Set<String> standard) {
        return Set.of();
    }

    @Override
    public dev.sqlagent.engine.RowCap rowCap() {
        return dev.sqlagent.engine.RowCap.LIMIT;
    }

    @Override
    public boolean storedInPrimaryKeyOrder() {
        return true;
    }

    @Override
    public String avoidIndexes(boolean ownHint, Set<String> ordering, Set<String> others) {
        return ownHint ? null : " NOT INDEXED"; // SQLite has no USE INDEX: the engine refuses the statement
    }
}
