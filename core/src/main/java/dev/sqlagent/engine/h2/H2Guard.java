package dev.sqlagent.engine.h2;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineGuard;
import dev.sqlagent.engine.FunctionTable;
import dev.sqlagent.guard.FunctionClass;
import dev.sqlagent.internal.Identifiers;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** How the guard reads H2's SQL. */
final class H2Guard implements EngineGuard {

    /** What to write instead of functions models invent on this engine. */
    private static final Map<String, String> EQUIVALENTS = FunctionTable.pairs(
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
    private final Dialect dialect;

    H2Guard(Dialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public String name() {
        return "H2";
    }

    @Override
    public String promptHints() {
        return "H2: LIMIT n limits rows; EXTRACT(YEAR FROM col) or YEAR(col) for the year.";
    }

    @Override
    public Identifiers.Rule columnRule() {
        return Identifiers.Rule.UPPER;
    }

    @Override
    public List<Identifiers.Rule> alternativeRules(boolean tableAlias) {
        // DATABASE_TO_LOWER (MODE=PostgreSQL), CASE_INSENSITIVE_IDENTIFIERS
        return List.of(Identifiers.Rule.LOWER, Identifiers.Rule.INSENSITIVE);
    }

    @Override
    public String quoteAsBareName(String word) {
        return "\"" + word.toUpperCase(Locale.ROOT) + "\"";
    }

    @Override
    public Set<String> systemColumns() {
        return Set.of("_rowid_");
    }

    @Override
    public boolean tableNameIsRowValue() {
        return false;
    }

    @Override
    public String valuesColumnName(int i) {
        return "c" + i;
    }

    @Override
    public boolean recursiveCteMayReadTable() {
        return true;
    }

    @Override
    public Map<String, FunctionClass> functionClasses() {
        return FunctionTable.read(H2Guard.class);
    }

    @Override
    public Map<String, String> functionEquivalents() {
        return EQUIVALENTS;
    }

    @Override
    public boolean standardJson() {
        return true;
    }

    @Override
    public boolean jsonKeyValueKeyword() {
        return true;
    }

    @Override
    public dev.sqlagent.engine.RowCap rowCap() {
        return dev.sqlagent.engine.RowCap.LIMIT;
    }

    @Override
    public boolean boundsExpansion() {
        return true;
    }

    @Override
    public boolean storedInPrimaryKeyOrder() {
        return true;
    }

    @Override
    public String avoidIndexes(boolean ownHint, Set<String> ordering, Set<String> others) {
        if (ownHint) {
            return null; // USE INDEX (…) naming only indexes ordered by allowed columns (checked)
        }
        List<String> names = new ArrayList<>();
        for (String n : others) {
            names.add("\"" + n.replace("\"", "\"\"") + "\"");
        }
        return " USE INDEX (" + String.join(", ", names) + ")";
    }
}
