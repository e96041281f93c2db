package dev.sqlagent.engine.duckdb;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineGuard;
import dev.sqlagent.engine.FunctionTable;
import dev.sqlagent.engine.Respelled;
import dev.sqlagent.engine.Respelling;
import dev.sqlagent.engine.SqlLexer;
import dev.sqlagent.guard.FunctionClass;
import dev.sqlagent.internal.Identifiers;
import java.math.BigInteger;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.StructType;
import net.sf.jsqlparser.statement.select.TableFunction;

/** How the guard reads DuckDB's SQL. */
final class DuckDbGuard implements EngineGuard {

    /** What to write instead of functions models invent on this engine. */
    private static final Map<String, String> EQUIVALENTS = FunctionTable.pairs(
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
    private final Dialect dialect;

    DuckDbGuard(Dialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public String name() {
        return "DuckDB";
    }

    @Override
    public String promptHints() {
        return "DuckDB: single quotes for strings, double quotes only for identifiers; x::type or "
                + "CAST(x AS type); year(col) or EXTRACT(YEAR FROM col) for the year; the tables are the "
                + "only data: never name a file, a path or a URL.";
    }

    @Override
    public Identifiers.Rule columnRule() {
        return Identifiers.Rule.INSENSITIVE;
    }

    @Override
    public Set<String> systemColumns() {
        return Set.of("rowid");
    }

    @Override
    public boolean dottedFieldAccess() {
        return true;
    }

    @Override
    public boolean slashSlashOperator() {
        return true;
    }

    @Override
    public boolean bracesAreSql() {
        return true;
    }

    /**
     * DuckDB's parser reads the ordered-set aggregates {@code percentile_cont(f) WITHIN GROUP (ORDER BY x)} and
     * {@code percentile_disc(…)} as {@code quantile_cont(x, f)} and {@code quantile_disc(x, f)}, so that
     * {@code duckdb_functions()} does not list them: they take those functions' class.
     */
    @Override
    public Map<String, FunctionClass> functionClasses() {
        Map<String, FunctionClass> duckdb = FunctionTable.read(DuckDbGuard.class);
        for (String[] pair : new String[][] {{"percentile_cont", "quantile_cont"}, {"percentile_disc", "quantile_disc"}}) {
            FunctionClass c = duckdb.get(pair[1]);
            if (c != null) {
                duckdb.putIfAbsent(pair[0], c);
            }
        }
        return duckdb;
    }

    @Override
    public Map<String, String> functionEquivalents() {
        return EQUIVALENTS;
    }

    @Override
    public boolean structLiteral(StructType struct) {
        return struct.getDialect() == StructType.Dialect.DUCKDB
                && (struct.getKeyword() == null || struct.getKeyword().isEmpty())
                && (struct.getParameters() == null || struct.getParameters().isEmpty())
                && struct.getArguments() != null;
    }

    @Override
    public String tableFunctionProblem(TableFunction tf) {
        return DuckDbGenerators.problem(tf, dialect);
    }

    @Override
    public BigInteger generatedRows(TableFunction tf) {
        return DuckDbGenerators.rows(tf);
    }

    @Override
    public String generatorColumn(TableFunction tf) {
        return DuckDbGenerators.column(tf, dialect);
    }

    @Override
    public Respelled respell(SqlLexer.Result lexed, Respelling.Relexer relex) {
        DuckDbSpelling.ForParser spelled = DuckDbSpelling.forParser(lexed);
        SqlLexer.Result after = relex.after(spelled, lexed);
        return new Respelled() {
            @Override
            public SqlLexer.Result lexed() {
                return after;
            }

            @Override
            public String forEngine(String printed) {
                return DuckDbSpelling.forEngine(printed, spelled);
            }

            @Override
            public String unprintable() {
                return "the DuckDB syntax of this statement could not be printed back exactly";
            }

            @Override
            public Set<String> sampleMarkers() {
                return spelled.markers();
            }

            @Override
            public boolean lambdasSpelled() {
                return spelled.lambdas() > 0;
            }
        };
    }

    @Override
    public boolean fieldAccess() {
        return true;
    }

    @Override
    public boolean lambdas() {
        return true;
    }

    @Override
    public boolean naturalJoins() {
        return false; // DuckDB's engine check reads a natural join as a star over both sides: kept refused alike
    }

    @Override
    public dev.sqlagent.engine.RowCap rowCap() {
        return dev.sqlagent.engine.RowCap.LIMIT;
    }
}
