package dev.sqlagent.guard.engine;

import dev.sqlagent.execution.SqlStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * MariaDB's (and MySQL's) reading of a statement: {@code EXPLAIN EXTENDED} ({@code EXPLAIN} on MySQL)
 * and the query the optimizer prints back as note 1003 of {@code SHOW WARNINGS}, after view merging and
 * its own rewrites. In that text every base table is {@code `db`.`table` `alias`} and every column
 * {@code `db`.`alias`.`column`}; functions are the optimizer's names for them ({@code ucase} for
 * {@code upper}). The JSON plan ({@code EXPLAIN FORMAT=JSON}) names tables only by alias, so the
 * printed query is the better reading. A statement whose printed form is not a query is a write.
 */
final class MariaDbReader implements PlanReader {

    private static final Set<String> NOT_FUNCTIONS = Set.of("in", "exists", "any", "all", "some", "values", "cast",
            "convert", "and", "or", "not", "xor", "on", "using", "when", "then", "else", "case", "select", "from",
            "where", "join", "as", "over", "partition", "interval", "row", "like", "between", "is", "distinct",
            "union", "with", "recursive", "lateral", "null", "key", "by", "having", "limit", "group", "order",
            "semi", "straight_join", "window", "rows", "range", "char", "binary", "decimal", "signed", "unsigned",
            "double", "float", "charset", "collate", "escape", "div", "mod", "regexp", "rlike", "sounds",
            "except", "intersect", "for", "into", "set", "filter", "within", "outer", "inner", "left", "right",
            "cross", "natural", "asc", "desc", "offset", "fetch", "first", "next", "only");
    private static final Set<String> QUERY_STARTS = Set.of("select", "with", "values", "table");

    private final boolean mysql;

    MariaDbReader(boolean mysql) {
        this.mysql = mysql;
    }

    @Override
    public EngineReading read(Connection c, SqlStatement statement, int timeoutSeconds) throws SQLException {
        String printed = null;
        try (PreparedStatement ps = Explain.prepare(c, (mysql ? "EXPLAIN " : "EXPLAIN EXTENDED "), statement, timeoutSeconds)) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    // the plan rows themselves: only the printed query below is read
                }
            }
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW WARNINGS")) {
                while (rs.next()) {
                    if (rs.getInt(2) == 1003) {
                        printed = rs.getString(3);
                    }
                }
            }
        }
        if (printed == null) {
            throw new PlanNotUnderstood("the engine printed no rewritten query (note 1003) for EXPLAIN");
        }
        String current = c.getCatalog();
        return reading(printed, current == null ? "" : current);
    }

    /**
     * @param printed the optimizer's printed query
     * @param currentDatabase the connection's database, which unqualified names resolve to
     * @return what it reads
     */
    static EngineReading reading(String printed, String currentDatabase) {
        List<PrintedSql.Token> tokens = PrintedSql.tokens(printed, '`', true);
        Set<EngineReading.Table> tables = new LinkedHashSet<>();
        Set<EngineReading.ColumnRead> columns = new LinkedHashSet<>();
        Set<String> functions = new LinkedHashSet<>();
        Set<String> writes = new LinkedHashSet<>();
        String db = currentDatabase.toLowerCase(Locale.ROOT);
        Map<String, Set<EngineReading.Table>> aliases = new HashMap<>();
        PrintedSql.Token first = firstWord(tokens);
        if (first == null || !QUERY_STARTS.contains(first.text().toLowerCase(Locale.ROOT))) {
            writes.add(first == null ? "?" : first.text().toLowerCase(Locale.ROOT));
        }
        Set<Integer> tableTokens = new HashSet<>();
        for (int k = 0; k < tokens.size(); k++) {
            PrintedSql.Token t = tokens.get(k);
            if (t.kind() == PrintedSql.Kind.NAME && t.allQuoted() && t.parts().size() == 2
                    && !(k + 1 < tokens.size() && tokens.get(k + 1).is("(")) && inFromPosition(tokens, k)) {
                String schema = t.parts().get(0).toLowerCase(Locale.ROOT);
                EngineReading.Table table = new EngineReading.Table(schema, t.parts().get(1), schema.equals(db));
                tables.add(table);
                tableTokens.add(k);
                String alias = table.name();
                if (k + 1 < tokens.size() && tokens.get(k + 1).kind() == PrintedSql.Kind.NAME
                        && tokens.get(k + 1).parts().size() == 1 && tokens.get(k + 1).allQuoted()) {
                    alias = tokens.get(k + 1).text();
                }
                aliases.computeIfAbsent(schema + "." + alias.toLowerCase(Locale.ROOT), x -> new LinkedHashSet<>())
                        .add(table);
            }
        }
        for (int k = 0; k < tokens.size(); k++) {
            PrintedSql.Token t = tokens.get(k);
            if (t.kind() != PrintedSql.Kind.NAME || tableTokens.contains(k)) {
                continue;
            }
            boolean call = k + 1 < tokens.size() && tokens.get(k + 1).is("(");
            if (!t.allQuoted()) {
                String word = t.text().toLowerCase(Locale.ROOT);
                if (t.parts().size() == 1 && word.equals("for") && k + 1 < tokens.size()
                        && (tokens.get(k + 1).isWord("update") || tokens.get(k + 1).isWord("share"))) {
                    writes.add("for " + tokens.get(k + 1).text().toLowerCase(Locale.ROOT));
                } else if (word.equals("lock") && k + 1 < tokens.size() && tokens.get(k + 1).isWord("in")) {
                    writes.add("lock in share mode");
                }
                if (call && t.parts().size() == 1 && !NOT_FUNCTIONS.contains(word) && !precededByAs(tokens, k)) {
                    functions.add(word);
                }
                continue;
            }
            if (call) {
                functions.add(String.join(".", t.parts()).toLowerCase(Locale.ROOT));
            } else if (t.parts().size() == 3) {
                String key = (t.parts().get(0) + "." + t.parts().get(1)).toLowerCase(Locale.ROOT);
                for (EngineReading.Table table : aliases.getOrDefault(key, Set.of())) {
                    columns.add(new EngineReading.ColumnRead(table, t.parts().get(2)));
                }
            }
        }
        return new EngineReading(tables, columns, functions, writes, true);
    }

    private static PrintedSql.Token firstWord(List<PrintedSql.Token> tokens) {
        for (PrintedSql.Token t : tokens) {
            if (t.kind() == PrintedSql.Kind.NAME) {
                return t;
            }
            if (!t.is("(")) {
                return null;
            }
        }
        return null;
    }

    private static boolean precededByAs(List<PrintedSql.Token> tokens, int k) {
        return k > 0 && tokens.get(k - 1).isWord("as");
    }

    /** After {@code from}, {@code join}, {@code straight_join}, or an opening parenthesis right after one. */
    private static boolean inFromPosition(List<PrintedSql.Token> tokens, int k) {
        int j = k - 1;
        while (j >= 0 && tokens.get(j).is("(")) {
            j--;
        }
        if (j < 0) {
            return false;
        }
        PrintedSql.Token p = tokens.get(j);
        return p.isWord("from") || p.isWord("join") || p.isWord("straight_join") || p.isWord("update")
                || p.isWord("into");
    }
}
