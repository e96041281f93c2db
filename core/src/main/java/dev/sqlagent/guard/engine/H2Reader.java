package dev.sqlagent.guard.engine;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sqlagent.execution.SqlStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * H2's reading of a statement: {@code EXPLAIN} prints the statement as H2 will run it, after its own
 * parse, with every base table as {@code "SCHEMA"."TABLE" "ALIAS"}, views expanded or named, columns
 * quoted and qualified where H2 needs a qualifier, the access path in comments (skipped here). Tables
 * come from the names after {@code FROM} and {@code JOIN}; columns from qualified names through the
 * aliases of their scope (a parenthesis level) and its outer scopes, and bare names through the base
 * tables of the nearest scope that has a column of that name (H2's catalog says which); functions from
 * unquoted names before a parenthesis. A plan that is not a query is a write.
 */
final class H2Reader implements PlanReader {

    private static final Set<String> NOT_FUNCTIONS = Set.of("in", "exists", "any", "all", "some", "values", "cast",
            "and", "or", "not", "on", "using", "when", "then", "else", "case", "select", "from", "where", "join",
            "as", "over", "partition", "interval", "row", "like", "ilike", "between", "is", "distinct", "union",
            "with", "recursive", "null", "key", "by", "having", "group", "order", "window", "rows", "range",
            "groups", "except", "intersect", "minus", "for", "filter", "within", "outer", "inner", "left", "right",
            "cross", "natural", "asc", "desc", "offset", "fetch", "first", "next", "only", "array", "unique",
            "character", "varchar", "char", "numeric", "decimal", "precision", "float", "timestamp", "time",
            "varbinary", "binary", "escape", "regexp", "table", "lateral", "limit", "top", "qualify", "ties");
    private static final Set<String> QUERY_STARTS = Set.of("select", "with", "values", "table");

    private final Cache<String, Set<String>> columnsOf = Caffeine.newBuilder().maximumSize(10_000)
            .expireAfterWrite(Duration.ofMinutes(5)).build();

    /** A parenthesis level: the aliases it introduces (a base table, or null for a derived table or CTE). */
    private static final class Scope {
        final Scope outer;
        final Map<String, EngineReading.Table> aliases = new HashMap<>();
        final Set<String> derived = new HashSet<>();

        Scope(Scope outer) {
            this.outer = outer;
        }
    }

    @Override
    public EngineReading read(Connection c, SqlStatement statement, int timeoutSeconds) throws SQLException {
        String plan;
        try (PreparedStatement ps = Explain.prepare(c, "EXPLAIN ", statement, timeoutSeconds)) {
            try (ResultSet rs = ps.executeQuery()) {
                StringBuilder b = new StringBuilder();
                while (rs.next()) {
                    b.append(rs.getString(1)).append('\n');
                }
                plan = b.toString();
            }
        }
        String schema = c.getSchema();
        return reading(plan, schema == null ? "" : schema, table -> columns(c, table));
    }

    /** Columns of a table, for bare names. */
    interface Columns {
        Set<String> of(EngineReading.Table table) throws SQLException;
    }

    private Set<String> columns(Connection c, EngineReading.Table table) throws SQLException {
        Set<String> cached = columnsOf.getIfPresent(table.qualified());
        if (cached != null) {
            return cached;
        }
        Set<String> out = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME FROM INFORMATION_SCHEMA.COLUMNS "
                + "WHERE LOWER(TABLE_SCHEMA) = ? AND LOWER(TABLE_NAME) = ?")) {
            ps.setString(1, table.schema());
            ps.setString(2, table.name());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        columnsOf.put(table.qualified(), Set.copyOf(out));
        return out;
    }

    /**
     * @param plan H2's plan text
     * @param currentSchema the connection's schema, which unqualified names resolve to
     * @param catalog the columns of each table, for bare column names
     * @return what the plan reads
     * @throws SQLException if the catalog cannot be read
     */
    static EngineReading reading(String plan, String currentSchema, Columns catalog) throws SQLException {
        List<PrintedSql.Token> tokens = PrintedSql.tokens(plan, '"', false);
        Set<EngineReading.Table> tables = new LinkedHashSet<>();
        Set<EngineReading.ColumnRead> columns = new LinkedHashSet<>();
        Set<String> functions = new LinkedHashSet<>();
        Set<String> writes = new LinkedHashSet<>();
        String current = currentSchema.toLowerCase(Locale.ROOT);
        PrintedSql.Token first = null;
        for (PrintedSql.Token t : tokens) {
            if (!t.is("(")) {
                first = t;
                break;
            }
        }
        if (first == null || first.kind() != PrintedSql.Kind.NAME
                || !QUERY_STARTS.contains(first.text().toLowerCase(Locale.ROOT))) {
            writes.add(first == null ? "?" : first.text().toLowerCase(Locale.ROOT));
        }
        // pass 1: the scope of every token, and the tables and aliases each scope introduces
        Scope root = new Scope(null);
        Scope[] scopeOf = new Scope[tokens.size()];
        Set<Integer> tableTokens = new HashSet<>();
        Deque<Scope> stack = new ArrayDeque<>();
        stack.push(root);
        for (int k = 0; k < tokens.size(); k++) {
            PrintedSql.Token t = tokens.get(k);
            if (t.is("(")) {
                stack.push(new Scope(stack.peek()));
            } else if (t.is(")")) {
                if (stack.size() > 1) {
                    stack.pop();
                }
                PrintedSql.Token next = k + 1 < tokens.size() ? tokens.get(k + 1) : null;
                if (next != null && next.kind() == PrintedSql.Kind.NAME && next.allQuoted() && next.parts().size() == 1
                        && closesFromItem(tokens, k)) {
                    stack.peek().derived.add(next.text().toLowerCase(Locale.ROOT));
                    tableTokens.add(k + 1);
                }
            }
            scopeOf[k] = stack.peek();
            int from = fromKeyword(tokens, k);
            if (t.kind() == PrintedSql.Kind.NAME && t.allQuoted() && from >= 0) {
                tableTokens.add(k);
                Scope scope = scopeOf[from]; // behind the parentheses of a nested join, still the FROM's scope
                String alias = t.last();
                if (k + 1 < tokens.size() && tokens.get(k + 1).kind() == PrintedSql.Kind.NAME
                        && tokens.get(k + 1).parts().size() == 1 && tokens.get(k + 1).allQuoted()) {
                    alias = tokens.get(k + 1).text().toLowerCase(Locale.ROOT);
                    tableTokens.add(k + 1);
                }
                if (t.parts().size() == 1) {
                    scope.derived.add(alias); // a CTE: H2 prints every base table with its schema
                } else {
                    String schema = t.parts().get(t.parts().size() - 2).toLowerCase(Locale.ROOT);
                    EngineReading.Table table = new EngineReading.Table(schema, t.last(), schema.equals(current));
                    tables.add(table);
                    scope.aliases.put(alias, table);
                }
            }
        }
        // pass 2: columns and functions
        for (int k = 0; k < tokens.size(); k++) {
            PrintedSql.Token t = tokens.get(k);
            if (t.kind() != PrintedSql.Kind.NAME || tableTokens.contains(k)) {
                continue;
            }
            boolean call = k + 1 < tokens.size() && tokens.get(k + 1).is("(") && !definesCte(tokens, k + 1);
            int n = t.parts().size();
            boolean lastQuoted = t.quoted().get(n - 1);
            String last = t.last();
            if (!lastQuoted && !last.equals("_rowid_")) {
                if (n == 1 && last.equals("for") && k + 1 < tokens.size() && tokens.get(k + 1).isWord("update")) {
                    writes.add("for update");
                }
                if (call && !NOT_FUNCTIONS.contains(last) && !(k > 0 && tokens.get(k - 1).isWord("as"))) {
                    functions.add(String.join(".", t.parts()).toLowerCase(Locale.ROOT));
                }
                continue;
            }
            if (call) {
                functions.add(String.join(".", t.parts()).toLowerCase(Locale.ROOT));
                continue;
            }
            if (k > 0 && tokens.get(k - 1).isWord("as")) {
                continue; // a column alias
            }
            if (n >= 2) {
                String qualifier = t.parts().get(n - 2).toLowerCase(Locale.ROOT);
                if (n >= 3) {
                    String schema = t.parts().get(n - 3).toLowerCase(Locale.ROOT);
                    columns.add(new EngineReading.ColumnRead(
                            new EngineReading.Table(schema, qualifier, schema.equals(current)), last));
                    continue;
                }
                for (Scope s = scopeOf[k]; s != null; s = s.outer) {
                    if (s.derived.contains(qualifier)) {
                        break;
                    }
                    EngineReading.Table table = s.aliases.get(qualifier);
                    if (table != null) {
                        columns.add(new EngineReading.ColumnRead(table, last));
                        break;
                    }
                }
            } else {
                bare(scopeOf[k], last, catalog, columns);
            }
        }
        return new EngineReading(tables, columns, functions, writes, true);
    }

    /** A bare column: the base tables of the nearest scope that has a column of that name. */
    private static void bare(Scope scope, String column, Columns catalog, Set<EngineReading.ColumnRead> out)
            throws SQLException {
        for (Scope s = scope; s != null; s = s.outer) {
            List<EngineReading.Table> owners = new ArrayList<>();
            for (EngineReading.Table table : s.aliases.values()) {
                if (column.equals("_rowid_") || catalog.of(table).contains(column)) {
                    owners.add(table);
                }
            }
            if (!owners.isEmpty()) {
                owners.forEach(t -> out.add(new EngineReading.ColumnRead(t, column)));
                return;
            }
            if (!s.derived.isEmpty()) {
                return; // a column of a derived table or CTE, read from its base tables inside it
            }
        }
    }

    /**
     * Whether the parenthesis at {@code open} holds a CTE's column list ({@code name(a, b) AS (…)}), as
     * H2 prints every CTE, rather than a call's arguments.
     */
    private static boolean definesCte(List<PrintedSql.Token> tokens, int open) {
        int depth = 0;
        for (int i = open; i < tokens.size(); i++) {
            if (tokens.get(i).is("(")) {
                depth++;
            } else if (tokens.get(i).is(")") && --depth == 0) {
                return i + 2 < tokens.size() && tokens.get(i + 1).isWord("as") && tokens.get(i + 2).is("(");
            }
        }
        return false;
    }

    /** {@return the index of the {@code FROM} or {@code JOIN} before token {@code k}, perhaps behind opening parentheses, or -1} */
    private static int fromKeyword(List<PrintedSql.Token> tokens, int k) {
        int j = k - 1;
        while (j >= 0 && tokens.get(j).is("(")) {
            j--;
        }
        return j >= 0 && (tokens.get(j).isWord("from") && inQuery(tokens, j) || tokens.get(j).isWord("join")) ? j : -1;
    }

    /**
     * Whether the {@code FROM} at {@code j} is a query's clause, not a function's argument
     * ({@code EXTRACT(YEAR FROM d)}, {@code SUBSTRING(s FROM 1 FOR 2)}, {@code TRIM(BOTH 'x' FROM s)}): the
     * innermost parenthesis open around it, if any, must open a query.
     */
    private static boolean inQuery(List<PrintedSql.Token> tokens, int j) {
        int depth = 0;
        for (int i = j - 1; i >= 0; i--) {
            if (tokens.get(i).is(")")) {
                depth++;
            } else if (tokens.get(i).is("(")) {
                if (depth == 0) {
                    PrintedSql.Token after = tokens.get(i + 1);
                    return after.isWord("select") || after.isWord("with") || after.isWord("values");
                }
                depth--;
            }
        }
        return true;
    }

    /** Whether the parenthesis at {@code k} closes a derived table (it opened right after FROM or JOIN). */
    private static boolean closesFromItem(List<PrintedSql.Token> tokens, int k) {
        int depth = 0;
        for (int j = k; j >= 0; j--) {
            if (tokens.get(j).is(")")) {
                depth++;
            } else if (tokens.get(j).is("(")) {
                depth--;
                if (depth == 0) {
                    return j > 0 && (tokens.get(j - 1).isWord("from") || tokens.get(j - 1).isWord("join"));
                }
            }
        }
        return false;
    }
}
