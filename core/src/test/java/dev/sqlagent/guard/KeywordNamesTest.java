package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.testing.DatabaseServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Keywords as names: every keyword of an engine's own list that the engine takes unquoted as a table name, a
 * column name or an alias is taken by the guard too (BIRD's {@code Match} table on SQLite was read as the FTS5
 * operator). The lists are the engines' own: PostgreSQL's {@code pg_get_keywords()}, DuckDB's
 * {@code duckdb_keywords()}, MariaDB's {@code information_schema.KEYWORDS}, SQLite's and H2's documented lists.
 * Each name is proved valid first: its table is created on the real engine and each statement runs there; a
 * statement the engine refuses is not counted. An accepted statement's printing must give the same rows on the
 * engine. The same names next to a denied column are refused in every form (the hostile side of the class).
 */
class KeywordNamesTest {

    /** SQLite's documented keywords (https://sqlite.org/lang_keywords.html). */
    static final List<String> SQLITE = List.of("ABORT", "ACTION", "ADD", "AFTER", "ALL", "ALTER", "ALWAYS",
            "ANALYZE", "AND", "AS", "ASC", "ATTACH", "AUTOINCREMENT", "BEFORE", "BEGIN", "BETWEEN", "BY", "CASCADE",
            "CASE", "CAST", "CHECK", "COLLATE", "COLUMN", "COMMIT", "CONFLICT", "CONSTRAINT", "CREATE", "CROSS",
            "CURRENT", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "DATABASE", "DEFAULT", "DEFERRABLE",
            "DEFERRED", "DELETE", "DESC", "DETACH", "DISTINCT", "DO", "DROP", "EACH", "ELSE", "END", "ESCAPE",
            "EXCEPT", "EXCLUDE", "EXCLUSIVE", "EXISTS", "EXPLAIN", "FAIL", "FILTER", "FIRST", "FOLLOWING", "FOR",
            "FOREIGN", "FROM", "FULL", "GENERATED", "GLOB", "GROUP", "GROUPS", "HAVING", "IF", "IGNORE",
            "IMMEDIATE", "IN", "INDEX", "INDEXED", "INITIALLY", "INNER", "INSERT", "INSTEAD", "INTERSECT", "INTO",
            "IS", "ISNULL", "JOIN", "KEY", "LAST", "LEFT", "LIKE", "LIMIT", "MATCH", "MATERIALIZED", "NATURAL",
            "NO", "NOT", "NOTHING", "NOTNULL", "NULL", "NULLS", "OF", "OFFSET", "ON", "OR", "ORDER", "OTHERS",
            "OUTER", "OVER", "PARTITION", "PLAN", "PRAGMA", "PRECEDING", "PRIMARY", "QUERY", "RAISE", "RANGE",
            "RECURSIVE", "REFERENCES", "REGEXP", "REINDEX", "RELEASE", "RENAME", "REPLACE", "RESTRICT",
            "RETURNING", "RIGHT", "ROLLBACK", "ROW", "ROWS", "SAVEPOINT", "SELECT", "SET", "TABLE", "TEMP",
            "TEMPORARY", "THEN", "TIES", "TO", "TRANSACTION", "TRIGGER", "UNBOUNDED", "UNION", "UNIQUE", "UPDATE",
            "USING", "VACUUM", "VALUES", "VIEW", "VIRTUAL", "WHEN", "WHERE", "WINDOW", "WITH", "WITHOUT");

    /** H2's documented keywords (https://h2database.com/html/advanced.html#keywords). */
    static final List<String> H2 = List.of("ALL", "AND", "ANY", "ARRAY", "AS", "ASYMMETRIC", "AUTHORIZATION",
            "BETWEEN", "BOTH", "CASE", "CAST", "CHECK", "CONSTRAINT", "CROSS", "CURRENT_CATALOG", "CURRENT_DATE",
            "CURRENT_PATH", "CURRENT_ROLE", "CURRENT_SCHEMA", "CURRENT_TIME", "CURRENT_TIMESTAMP", "CURRENT_USER",
            "DAY", "DEFAULT", "DISTINCT", "ELSE", "END", "EXCEPT", "EXISTS", "FALSE", "FETCH", "FOR", "FOREIGN",
            "FROM", "FULL", "GROUP", "GROUPS", "HAVING", "HOUR", "IF", "ILIKE", "IN", "INNER", "INTERSECT",
            "INTERVAL", "IS", "JOIN", "KEY", "LEADING", "LEFT", "LIKE", "LIMIT", "LOCALTIME", "LOCALTIMESTAMP",
            "MINUS", "MINUTE", "MONTH", "NATURAL", "NOT", "NULL", "OFFSET", "ON", "OR", "ORDER", "OVER",
            "PARTITION", "PRIMARY", "QUALIFY", "RANGE", "REGEXP", "RIGHT", "ROW", "ROWNUM", "ROWS", "SECOND",
            "SELECT", "SESSION_USER", "SET", "SOME", "SYMMETRIC", "SYSTEM_USER", "TABLE", "TO", "TOP", "TRAILING",
            "TRUE", "UESCAPE", "UNION", "UNIQUE", "UNKNOWN", "USER", "USING", "VALUE", "VALUES", "WHEN", "WHERE",
            "WINDOW", "WITH", "YEAR", "_ROWID_");

    /**
     * Refusals left, a ceiling per engine that only goes down: names that are the parser's own syntax where the
     * quoting does not reach them ({@code cross}, {@code full}, {@code inner}, {@code natural}, {@code window},
     * {@code for}, {@code force}, {@code only}, {@code unknown} … as table names, which {@link KeywordNames}
     * leaves alone so as never to take a join for an alias), {@code year}…{@code second} as a qualifier (the
     * parser reads {@code day.id} as a field of a value), and keywords as bare select items the parser cannot
     * tell from syntax.
     */
    private static final Map<Dialect, Integer> LEFT = Map.of(Dialect.SQLITE, 70, Dialect.H2, 0,
            Dialect.DUCKDB, 77, Dialect.POSTGRESQL, 67, Dialect.MARIADB, 71);

    @Test
    void sqliteKeywordsAsNames() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            run(Dialect.SQLITE, c, SQLITE);
        }
    }

    @Test
    void h2KeywordsAsNames() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:")) {
            run(Dialect.H2, c, H2);
        }
    }

    @Test
    void duckdbKeywordsAsNames() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            run(Dialect.DUCKDB, c, words(c, "SELECT keyword_name FROM duckdb_keywords()"));
        }
    }

    @Test
    void postgresqlKeywordsAsNames() throws Exception {
        DataSource ds = DatabaseServer.postgres().require().scratch("legit_keywords");
        try (Connection c = ds.getConnection()) {
            try {
                run(Dialect.POSTGRESQL, c, words(c, "SELECT word FROM pg_get_keywords()"));
            } finally {
                try (Statement s = c.createStatement()) {
                    s.execute("DROP SCHEMA legit_keywords CASCADE");
                }
            }
        }
    }

    @Test
    void mariadbKeywordsAsNames() throws Exception {
        DataSource ds = DatabaseServer.mariadb().require().scratch("legit_keywords");
        try (Connection c = ds.getConnection()) {
            try {
                run(Dialect.MARIADB, c, words(c, "SELECT word FROM information_schema.KEYWORDS"));
            } finally {
                try (Statement s = c.createStatement()) {
                    s.execute("DROP DATABASE legit_keywords");
                }
            }
        }
    }

    private static List<String> words(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                String w = rs.getString(1);
                if (w.matches("[A-Za-z_][A-Za-z_0-9]*")) {
                    out.add(w.toLowerCase(Locale.ROOT));
                }
            }
        }
        return out;
    }

    private static void run(Dialect d, Connection c, List<String> keywords) throws Exception {
        c.setAutoCommit(true);
        List<String> tables = new ArrayList<>();
        List<String> tableWords = new ArrayList<>();
        Map<String, List<String>> statements = new LinkedHashMap<>();
        exec(c, "CREATE TABLE kw_base (id INT, secret INT)");
        exec(c, "INSERT INTO kw_base VALUES (1, 7)");
        tables.add("kw_base");
        int i = 0;
        for (String keyword : new TreeSet<>(keywords)) {
            String w = keyword.toLowerCase(Locale.ROOT);
            String column = "kw_col_" + i++;
            List<String> forms = new ArrayList<>();
            if (exec(c, "CREATE TABLE " + w + " (id INT, secret INT)")) {
                exec(c, "INSERT INTO " + w + " VALUES (1, 7)");
                tables.add(w);
                tableWords.add(w);
                forms.add("SELECT id FROM " + w + " WHERE id = 1");
                forms.add("SELECT " + w + ".id FROM " + w);
                forms.add("SELECT t.id FROM " + w + " AS t");
                forms.add("SELECT k.id FROM kw_base AS k JOIN " + w + " ON " + w + ".id = k.id");
            }
            if (exec(c, "CREATE TABLE " + column + " (" + w + " INT, id INT)")) {
                exec(c, "INSERT INTO " + column + " VALUES (1, 2)");
                tables.add(column);
                forms.add("SELECT " + w + " FROM " + column + " WHERE " + w + " = 1");
                forms.add("SELECT t." + w + " FROM " + column + " AS t ORDER BY t." + w);
                forms.add("SELECT id, " + w + " FROM " + column);
            }
            forms.add("SELECT id AS " + w + " FROM kw_base");
            forms.add("SELECT " + w + ".id FROM kw_base AS " + w);
            forms.add("SELECT " + w + ".id FROM kw_base " + w);
            statements.put(w, forms);
        }
        GuardPolicy.Builder b = GuardPolicy.builder().allowTables(tables);
        for (String w : tableWords) {
            b.denyColumn(w, "secret");
        }
        GuardPolicy policy = b.build();
        SqlGuard guard = SqlGuard.create();
        List<String> refused = new ArrayList<>();
        List<String> leaked = new ArrayList<>();
        int valid = 0;
        for (Map.Entry<String, List<String>> e : statements.entrySet()) {
            for (String sql : e.getValue()) {
                List<String> rows = rows(c, sql);
                if (rows == null) {
                    continue; // the engine does not take the name here: not valid SQL
                }
                valid++;
                GuardVerdict v = guard.check(sql, policy, d);
                if (!(v instanceof GuardVerdict.Accepted a)) {
                    refused.add(sql + "  ->  " + v);
                    continue;
                }
                assertThat(rows(c, a.statement().sql())).as("%s printed as %s", sql, a.statement().sql())
                        .isEqualTo(rows);
            }
        }
        int probes = 0;
        for (String w : tableWords) {
            for (String sql : List.of("SELECT secret FROM " + w, "SELECT t.secret FROM " + w + " AS t",
                    "SELECT " + w + ".secret FROM " + w, "SELECT id FROM " + w + " WHERE secret = 7",
                    "SELECT k.id FROM kw_base AS k JOIN " + w + " ON " + w + ".secret = 7")) {
                if (rows(c, sql) == null) {
                    continue;
                }
                probes++;
                if (guard.check(sql, policy, d) instanceof GuardVerdict.Accepted) {
                    leaked.add(sql);
                }
            }
        }
        System.out.printf("KEYWORD-NAMES %s: %d keywords, %d as table names, %d valid statements, %d refused; "
                + "%d denied-column probes, %d accepted%n", d, statements.size(), tableWords.size(), valid,
                refused.size(), probes, leaked.size());
        refused.forEach(r -> System.out.println("  REFUSED " + r));
        leaked.forEach(r -> System.out.println("  LEAKED " + r));
        assertThat(leaked).as("a denied column read through a keyword-named table").isEmpty();
        assertThat(refused.size()).as("valid statements with keywords as names refused on %s", d)
                .isLessThanOrEqualTo(LEFT.get(d));
    }

    private static boolean exec(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /** The rows as text, or null when the engine refuses the statement. */
    private static List<String> rows(Connection c, String sql) {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            List<String> out = new ArrayList<>();
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int k = 1; k <= n; k++) {
                    row.append(rs.getString(k)).append('|');
                }
                out.add(row.toString());
            }
            return out;
        } catch (SQLException e) {
            return null;
        }
    }
}
