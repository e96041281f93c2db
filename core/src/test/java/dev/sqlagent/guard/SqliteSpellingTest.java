package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.engine.EngineCheck;
import dev.sqlagent.guard.engine.EngineVerdict;
import dev.sqlagent.schema.SchemaCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sqlite.SQLiteDataSource;

/**
 * SQLite's FTS5 syntax ({@code SqliteSpelling}, {@code Fts5}): {@code MATCH} respelled for the parser and back,
 * the hidden columns (the table's own name, {@code rank}) and the auxiliary functions {@code bm25},
 * {@code highlight}, {@code snippet}, read as a whole-row read of an FTS5 table of the FROM. Accepted statements
 * must give, run as the guard prints them, exactly what the original gives on SQLite, and the engine check must
 * read them within the policy; what is outside the grammar or the rules is refused with its reason; a denied
 * column of an FTS5 table makes every whole-row form a refusal, by the guard and by the engine check alone.
 */
class SqliteSpellingTest {

    private static final SqlGuard GUARD = SqlGuard.create();
    private static Path dir;
    private static SQLiteDataSource ds;
    private static Connection connection;
    private static GuardPolicy policy;
    /** The same, with a denied column of the FTS5 table. */
    private static GuardPolicy denyingBody;

    @BeforeAll
    static void open() throws Exception {
        dir = Files.createTempDirectory("sqlite-fts5");
        ds = new SQLiteDataSource();
        ds.setUrl("jdbc:sqlite:" + dir.resolve("fts.db"));
        connection = ds.getConnection();
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, ssn TEXT)");
            s.execute("INSERT INTO people VALUES (1, 'ann', 'ZQX1'), (2, 'bob', 'ZQX2')");
            s.execute("CREATE VIRTUAL TABLE notes USING fts5(title, body)");
            s.execute("INSERT INTO notes (title, body) VALUES ('alpha note', 'the quick brown fox'), "
                    + "('beta note', 'a lazy dog sleeps'), ('gamma', 'dog and fox and dog')");
            s.execute("CREATE TABLE plain (title TEXT, body TEXT)");
            s.execute("INSERT INTO plain VALUES ('x', 'y')");
        }
        GuardPolicy base = GuardPolicy.builder().allowTables("people", "notes", "plain").denyColumn("people", "ssn")
                .build();
        SchemaCatalog catalog = SchemaCatalog.introspect(ds, base);
        assertThat(catalog.fts5Tables()).containsExactly("notes");
        assertThat(catalog.table("notes").orElseThrow().columns()).extracting(SchemaCatalog.Column::name)
                .containsExactly("title", "body");
        policy = catalog.completePolicy(base);
        assertThat(policy.fts5Tables()).containsExactly("notes");
        denyingBody = policy.toBuilder().denyColumn("notes", "body").build();
    }

    @AfterAll
    static void close() throws Exception {
        connection.close();
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }

    /** Accepted, the SQL the guard prints answers as the statement does, and the engine check confirms it. */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT title FROM notes WHERE notes MATCH 'alpha'",
            "SELECT title FROM notes WHERE notes MATCH 'title:note' ORDER BY title",
            "SELECT title, body FROM notes WHERE body MATCH 'dog' ORDER BY rank",
            "SELECT title, bm25(notes) AS score FROM notes WHERE notes MATCH 'alpha OR dog' ORDER BY score",
            "SELECT title, bm25(notes, 2.0, 1.0) AS score FROM notes WHERE notes MATCH 'fox' ORDER BY score, title",
            "SELECT highlight(notes, 1, '[', ']') AS hit FROM notes WHERE notes MATCH 'dog' ORDER BY hit",
            "SELECT snippet(notes, 1, '<', '>', '...', 4) AS snip FROM notes WHERE notes MATCH 'alpha' ORDER BY 1",
            "SELECT snippet(notes, 1, '<', '>', '...', 1000000) AS snip FROM notes WHERE notes MATCH 'fox' ORDER BY 1",
            "SELECT n.title FROM notes n WHERE n.notes MATCH 'fox' ORDER BY n.rank, n.title",
            "SELECT title FROM notes n WHERE notes MATCH 'dog' AND n.title LIKE '%a%' ORDER BY title",
            "SELECT title FROM notes WHERE notes MATCH 'fox' AND NOT title LIKE 'x%' ORDER BY title",
            "SELECT title FROM notes WHERE (notes MATCH 'dog') ORDER BY title",
            "SELECT title FROM notes WHERE notes MATCH (SELECT 'al' || 'pha')",
            "SELECT title FROM notes WHERE notes MATCH lower('ALPHA')",
            "SELECT name FROM people WHERE id IN (SELECT rowid FROM notes WHERE notes MATCH 'dog') ORDER BY name",
            "SELECT p.name, (SELECT count(*) FROM notes WHERE notes MATCH 'dog') AS dogs FROM people p ORDER BY 1",
            "SELECT title FROM notes WHERE notes MATCH 'alpha' UNION SELECT title FROM notes WHERE body MATCH 'dog' "
                    + "ORDER BY 1",
            "SELECT title FROM notes WHERE notes MATCH 'dog' ORDER BY rank LIMIT 1",
            "SELECT CASE WHEN title LIKE 'a%' THEN 'a' ELSE 'b' END AS k FROM notes WHERE title MATCH 'note' "
                    + "ORDER BY 1"})
    void acceptedAndRunsAsTheStatementItselfDoes(String sql) throws SQLException {
        GuardPolicy p = sql.contains("rowid") ? policy.toBuilder().allowSystemColumns("rowid").build() : policy;
        GuardVerdict v = GUARD.check(sql, p, Dialect.SQLITE);
        assertThat(v).as("%s", v).isInstanceOf(GuardVerdict.Accepted.class);
        GuardVerdict.Accepted a = (GuardVerdict.Accepted) v;
        String run = a.statement().sql();
        assertThat(run).doesNotContainIgnoringCase("match_any");
        assertThat(rows(run)).as("%s run as %s", sql, run).isEqualTo(rows(sql)).isNotEmpty();
        assertThat(EngineCheck.create(ds, Dialect.SQLITE).check(a, p)).as("the engine's reading of %s", run)
                .isInstanceOf(EngineVerdict.Confirmed.class);
        // printed again, the guard's own SQL is accepted and printed the same (a fixpoint)
        GuardVerdict again = GUARD.check(run, p, Dialect.SQLITE);
        assertThat(again).isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(((GuardVerdict.Accepted) again).statement().sql()).isEqualTo(run);
    }

    /** Outside the grammar or FTS5's rules, or reading what the policy denies: refused, saying why. */
    @Test
    void misfitsAndDeniedReadsAreRefused() {
        List<String> why = new ArrayList<>();
        for (String sql : List.of(
                "SELECT title FROM notes WHERE notes MATCH (SELECT ssn FROM people LIMIT 1)",
                "SELECT title FROM notes WHERE notes MATCH (SELECT max(x) FROM secrets)",
                "SELECT name FROM people WHERE name MATCH 'ann'",
                "SELECT title FROM plain WHERE plain MATCH 'x'",
                "SELECT title FROM plain WHERE title MATCH 'x'",
                "SELECT bm25(plain) AS v FROM plain",
                "SELECT highlight(p, 1, '[', ']') AS v FROM people p",
                "SELECT bm25(title) AS v FROM notes WHERE notes MATCH 'dog'",
                "SELECT bm25(n) AS v FROM notes n WHERE notes MATCH 'dog'",
                "SELECT highlight(notes, 1, '[') AS v FROM notes WHERE notes MATCH 'dog'",
                "SELECT highlight(notes, 1, title, ']') AS v FROM notes WHERE notes MATCH 'dog'",
                "SELECT snippet(notes, 1, '<', '" + "x".repeat(65) + "', '...', 4) AS v FROM notes",
                "SELECT name FROM people ORDER BY rank",
                "SELECT title FROM plain ORDER BY rank",
                "SELECT title FROM notes WHERE notes MATCH 'a' AND rank MATCH 'bm25(10.0)'",
                "SELECT title FROM notes WHERE notes NOT MATCH 'a'",
                "SELECT title FROM notes WHERE notes MATCH 'a' ESCAPE 'x'",
                "SELECT title FROM notes WHERE notes MATCH 'a' || 'b'",
                "SELECT title FROM notes WHERE 1 = notes MATCH 'a'",
                "SELECT title FROM notes WHERE title BETWEEN 'a' AND notes MATCH 'a'",
                "SELECT title FROM notes WHERE notes MATCH /* x /* y */ 'a'",
                "SELECT title FROM notes WHERE notes MATCH_ANY 'a'",
                "SELECT title AS match_any FROM notes",
                "SELECT match FROM notes")) {
            GuardVerdict v = GUARD.check(sql, policy, Dialect.SQLITE);
            assertThat(v).as("%s", sql).isNotInstanceOf(GuardVerdict.Accepted.class);
            why.add(v instanceof GuardVerdict.Rejected r ? r.violations().get(0).type() + ": " + sql
                    : "UNPARSEABLE: " + sql);
        }
        assertThat(why).containsExactly(
                "COLUMN_DENIED: SELECT title FROM notes WHERE notes MATCH (SELECT ssn FROM people LIMIT 1)",
                "TABLE_NOT_ALLOWED: SELECT title FROM notes WHERE notes MATCH (SELECT max(x) FROM secrets)",
                "UNSUPPORTED_CONSTRUCT: SELECT name FROM people WHERE name MATCH 'ann'",
                "UNSUPPORTED_CONSTRUCT: SELECT title FROM plain WHERE plain MATCH 'x'",
                "UNSUPPORTED_CONSTRUCT: SELECT title FROM plain WHERE title MATCH 'x'",
                "FUNCTION_NOT_ALLOWED: SELECT bm25(plain) AS v FROM plain",
                "FUNCTION_NOT_ALLOWED: SELECT highlight(p, 1, '[', ']') AS v FROM people p",
                "FUNCTION_NOT_ALLOWED: SELECT bm25(title) AS v FROM notes WHERE notes MATCH 'dog'",
                "FUNCTION_NOT_ALLOWED: SELECT bm25(n) AS v FROM notes n WHERE notes MATCH 'dog'",
                "FUNCTION_NOT_ALLOWED: SELECT highlight(notes, 1, '[') AS v FROM notes WHERE notes MATCH 'dog'",
                "FUNCTION_NOT_ALLOWED: SELECT highlight(notes, 1, title, ']') AS v FROM notes WHERE notes MATCH 'dog'",
                "FUNCTION_NOT_ALLOWED: SELECT snippet(notes, 1, '<', '" + "x".repeat(65) + "', '...', 4) AS v FROM notes",
                "UNKNOWN_COLUMN: SELECT name FROM people ORDER BY rank",
                "UNKNOWN_COLUMN: SELECT title FROM plain ORDER BY rank",
                "UNSUPPORTED_CONSTRUCT: SELECT title FROM notes WHERE notes MATCH 'a' AND rank MATCH 'bm25(10.0)'",
                "UNSUPPORTED_CONSTRUCT: SELECT title FROM notes WHERE notes NOT MATCH 'a'",
                "UNSUPPORTED_CONSTRUCT: SELECT title FROM notes WHERE notes MATCH 'a' ESCAPE 'x'",
                "UNSUPPORTED_CONSTRUCT: SELECT title FROM notes WHERE notes MATCH 'a' || 'b'",
                "UNSUPPORTED_CONSTRUCT: SELECT title FROM notes WHERE 1 = notes MATCH 'a'",
                "UNSUPPORTED_CONSTRUCT: SELECT title FROM notes WHERE title BETWEEN 'a' AND notes MATCH 'a'",
                "COMMENT: SELECT title FROM notes WHERE notes MATCH /* x /* y */ 'a'",
                "UNSUPPORTED_CONSTRUCT: SELECT title FROM notes WHERE notes MATCH_ANY 'a'",
                "UNSUPPORTED_CONSTRUCT: SELECT title AS match_any FROM notes",
                "UNKNOWN_COLUMN: SELECT match FROM notes"); // a name: notes has no column match
    }

    /** A denied column of an FTS5 table: each form that reads its whole row is refused; its other columns are not. */
    @Test
    void aDeniedColumnOfTheFtsTableRefusesEveryWholeRowForm() throws SQLException {
        for (String sql : List.of(
                "SELECT title FROM notes WHERE notes MATCH 'dog'",
                "SELECT title FROM notes WHERE body MATCH 'dog'",
                "SELECT title, bm25(notes) AS s FROM notes WHERE title MATCH 'note'",
                "SELECT highlight(notes, 0, '[', ']') AS h FROM notes WHERE title MATCH 'note'",
                "SELECT title FROM notes WHERE title MATCH 'note' ORDER BY rank",
                "SELECT notes AS v FROM notes")) {
            assertThat(GUARD.check(sql, denyingBody, Dialect.SQLITE)).as(sql).isInstanceOf(GuardVerdict.Rejected.class);
        }
        GuardVerdict ok = GUARD.check("SELECT title FROM notes WHERE title MATCH 'note'", denyingBody, Dialect.SQLITE);
        assertThat(ok).isInstanceOf(GuardVerdict.Accepted.class);
    }

    /** The engine check alone (the guard bypassed) reads the same forms as whole-row reads, or refuses them. */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT title FROM notes WHERE notes MATCH 'dog'",
            "SELECT title FROM notes WHERE body MATCH 'dog'",
            "SELECT title, bm25(notes) AS s FROM notes WHERE title MATCH 'note'",
            "SELECT highlight(notes, 0, '[', ']') AS h FROM notes WHERE title MATCH 'note'",
            "SELECT title FROM notes WHERE title MATCH 'note' ORDER BY rank",
            "SELECT notes AS v FROM notes",
            "SELECT title FROM notes WHERE notes MATCH 'a' AND rank MATCH 'bm25(10.0)'"})
    void theEngineCheckAloneRefusesTheDeniedColumnInTheseForms(String sql) throws SQLException {
        List<String> reasons = EngineCheck.disagreements(EngineCheck.create(ds, Dialect.SQLITE)
                .read(new SqlStatement(sql, List.of())), denyingBody, Dialect.SQLITE);
        assertThat(String.join(" | ", reasons)).as(sql).containsAnyOf("body", "index string");
    }

    /** An auxiliary function whose first argument is not the table's hidden column is refused by the engine check. */
    @Test
    void theEngineCheckRefusesAnUnboundAuxiliaryFunction() throws SQLException {
        List<String> reasons = EngineCheck.disagreements(EngineCheck.create(ds, Dialect.SQLITE)
                .read(new SqlStatement("SELECT bm25(title) AS s FROM notes WHERE notes MATCH 'dog'", List.of())),
                policy, Dialect.SQLITE);
        assertThat(String.join(" | ", reasons)).contains("bm25");
        assertThat(EngineCheck.disagreements(EngineCheck.create(ds, Dialect.SQLITE)
                .read(new SqlStatement("SELECT bm25(notes) AS s FROM notes WHERE notes MATCH 'dog'", List.of())),
                policy, Dialect.SQLITE)).isEmpty();
    }

    /** The spelling is SQLite's alone; FTS5 syntax on a table the policy does not name as FTS5 stays refused. */
    @Test
    void otherDialectsAndTablesKeepTheirReading() {
        GuardPolicy notNamed = GuardPolicy.builder().allowTables("notes").tableColumns("notes", List.of("title", "body"))
                .build();
        assertThat(GUARD.check("SELECT title FROM notes WHERE notes MATCH 'a'", notNamed, Dialect.SQLITE))
                .isInstanceOf(GuardVerdict.Rejected.class);
        assertThat(GUARD.check("SELECT bm25(notes) FROM notes", notNamed, Dialect.SQLITE))
                .isInstanceOf(GuardVerdict.Rejected.class);
        GuardPolicy named = notNamed.toBuilder().fts5Tables(List.of("notes")).build();
        assertThat(GUARD.check("SELECT bm25(notes) AS s FROM notes WHERE notes MATCH 'a'", named, Dialect.H2))
                .isNotInstanceOf(GuardVerdict.Accepted.class);
        assertThat(GUARD.check("SELECT bm25(notes) AS s FROM notes WHERE notes MATCH 'a'", named,
                Dialect.SQLITE)).isInstanceOf(GuardVerdict.Accepted.class);
        // a host's allowlist without the auxiliary functions refuses them; allowUnsafe confirms one
        GuardPolicy only = named.toBuilder().functionPolicy(FunctionPolicy.allowOnly("count")).build();
        assertThat(GUARD.check("SELECT bm25(notes) AS s FROM notes", only, Dialect.SQLITE))
                .isInstanceOf(GuardVerdict.Rejected.class);
        GuardPolicy confirmed = named.toBuilder().functionPolicy(FunctionPolicy.allowOnly("count")
                .allowUnsafe(FunctionClass.READS_TABLES, "bm25")).build();
        assertThat(GUARD.check("SELECT bm25(notes) AS s FROM notes", confirmed, Dialect.SQLITE))
                .isInstanceOf(GuardVerdict.Accepted.class);
    }

    /** A CREATE statement is FTS5 by its module, read token by token. */
    @Test
    void fts5DeclarationsAreReadByTheirModule() {
        assertThat(SchemaCatalog.isFts5Declaration("CREATE VIRTUAL TABLE notes USING fts5(title, body)")).isTrue();
        assertThat(SchemaCatalog.isFts5Declaration("create virtual table if not exists main.\"n x\" using FTS5 (a)"))
                .isTrue();
        assertThat(SchemaCatalog.isFts5Declaration("CREATE VIRTUAL TABLE \"USING fts5\" USING fts4(a)")).isFalse();
        assertThat(SchemaCatalog.isFts5Declaration("CREATE VIRTUAL TABLE t USING rtree(id, a, b)")).isFalse();
        assertThat(SchemaCatalog.isFts5Declaration("CREATE TABLE t (a TEXT)")).isFalse();
        assertThat(SchemaCatalog.isFts5Declaration(null)).isFalse();
    }

    private static List<String> rows(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery(sql)) {
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(r.getString(i)).append('|');
                }
                out.add(row.toString());
            }
        }
        return out;
    }
}
