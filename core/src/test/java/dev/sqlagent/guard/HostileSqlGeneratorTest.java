package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A seeded, mutation-based generator of hostile SQL: valid queries over an allowed table are mutated with
 * quotes of every kind, brackets, comments, line breaks, Unicode look-alikes, pseudo-columns, shadowing
 * CTEs and injected reads of a forbidden table and a denied column. Whatever the guard accepts is run by
 * the engine, which judges: SQLite (its {@code EXPLAIN} bytecode must open no forbidden table) and H2, and
 * on both no row may carry a marker of the forbidden table, of a denied column or of a filtered-out row,
 * and no result may exceed the row cap. Deterministic: a fixed seed and a fixed number of cases.
 *
 * <p>Its companion {@link HostileAttacks} writes valid SQL by attack class (whole rows, system columns,
 * unsafe functions, resource bombs) for the full-path suite {@link HostileFullPathTest}; this class also
 * checks that generator's determinism and coverage.
 */
class HostileSqlGeneratorTest {

    private static final long SEED = 20261201L;
    private static final int CASES_PER_DIALECT = 6_000;
    private static final int MAX_ROWS = 5;

    private static final List<String> BASES = List.of(
            "SELECT name FROM people",
            "SELECT name FROM people WHERE name = 'a'",
            "SELECT p.name FROM people p JOIN pets t ON t.owner = p.name",
            "SELECT kind FROM pets",
            "SELECT kind, count(*) FROM pets GROUP BY kind",
            "SELECT name FROM people WHERE name IN (SELECT kind FROM pets)",
            "WITH x AS (SELECT name FROM people) SELECT name FROM x",
            "SELECT name FROM people UNION SELECT kind FROM pets",
            "SELECT upper(name) FROM people ORDER BY name");

    private static final List<String> FRAGMENTS = List.of(
            "'", "\"", "`", "[", "]", "[']", "['--']", "[x]", "'--'", "\"--\"", "E'", "U&'", "q'[", "nq'[", "$$",
            "$t$", "\\'", "\\", "''", "N'", "X'", "--", "-- ", "#", "/*", "*/", "/*!", "//", "\n", "\r\n", "\t",
            "\u212A", "\u017F", "\u0435", "\uFF50", "\u200B", "\u00A0", "rowid", "_rowid_", "oid", "_rowid", "_ROWID_",
            "people.rowid", "id", "ssn", "people.ssn", "secrets", " UNION SELECT code FROM secrets",
            " UNION SELECT ssn FROM people", " UNION SELECT id FROM people", ", (SELECT code FROM secrets)",
            " OR 1=1", "; SELECT code FROM secrets", " LIMIT 100000", ")", "(", ",", " AS ", "::", "?", "@x",
            "{fn ", "}", " people ", " pets ", "[people]", "\"people\"", "`secrets`", "\"SECRETS\"",
            // whole rows, stars outside the top select list, system columns, unsafe functions (issue 20)
            "(people.*)", ", (people.*)", "people.*", " UNION SELECT x.ssn FROM (SELECT people.* FROM people) x",
            ", (SELECT max(x.id) FROM (SELECT p.* FROM people p) x)", ", people._ROWID_", " _ROWID_", ", people.oid",
            ", DB_OBJECT_SQL('TABLE', 'PUBLIC', 'SECRETS')", ", sqlite_version()", ", FILE_READ('/etc/hostname')",
            ", REPEAT('x', 3000000)", ", printf('%.*c', 3000000, 'x')");

    private static final List<String> PREFIXES = List.of(
            "WITH people AS (SELECT code AS name FROM secrets) ",
            "WITH pets AS (SELECT ssn AS kind FROM people) ",
            "WITH RECURSIVE pets(kind) AS (SELECT 'x' UNION ALL SELECT kind FROM pets LIMIT 3) ",
            "WITH \"PEOPLE\" AS (SELECT 1 AS name) ",
            "WITH peop\u212Ae AS (SELECT 1 AS name) ",
            "WITH [people] AS (SELECT 1 AS name) ",
            "WITH secrets AS (SELECT 1 AS code) ",
            "WITH x AS (SELECT p.* FROM people p) ");

    private final SqlGuard guard = SqlGuard.create();

    private static GuardPolicy policy() {
        return GuardPolicy.builder().allowTables("people", "pets").denyColumn("people", "ssn")
                .denyColumn("people", "id").rowFilter("pets", "owner", "alice").maxRows(MAX_ROWS)
                .allowSelectStar(true).build();
    }

    static List<String> generate(long seed, int count) {
        Random random = new Random(seed);
        List<String> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String sql = BASES.get(random.nextInt(BASES.size()));
            if (random.nextInt(4) == 0) {
                sql = PREFIXES.get(random.nextInt(PREFIXES.size())) + sql;
            }
            int mutations = 1 + random.nextInt(4);
            for (int m = 0; m < mutations; m++) {
                sql = mutate(sql, random);
            }
            out.add(sql);
        }
        return out;
    }

    private static String mutate(String sql, Random random) {
        int at = random.nextInt(sql.length() + 1);
        switch (random.nextInt(5)) {
            case 0: {
                // insert a fragment at a word boundary
                while (at < sql.length() && Character.isLetterOrDigit(sql.charAt(at))) {
                    at++;
                }
                return sql.substring(0, at) + FRAGMENTS.get(random.nextInt(FRAGMENTS.size())) + sql.substring(at);
            }
            case 1:
                // insert anywhere, even inside a word or a literal
                return sql.substring(0, at) + FRAGMENTS.get(random.nextInt(FRAGMENTS.size())) + sql.substring(at);
            case 2: {
                // quote a name with a random quote kind
                String[] words = {"name", "people", "pets", "kind"};
                String w = words[random.nextInt(words.length)];
                String[][] quotes = {{"\"", "\""}, {"[", "]"}, {"`", "`"}, {"'", "'"}, {"\"", ""}, {"[", ""}};
                String[] q = quotes[random.nextInt(quotes.length)];
                return sql.replaceFirst("\\b" + w + "\\b", java.util.regex.Matcher.quoteReplacement(q[0] + w + q[1]));
            }
            case 3:
                // a look-alike or pseudo-column in place of a name
                return sql.replaceFirst("\\bname\\b", List.of("rowid", "_rowid_", "oid", "id", "ssn", "n\u0430me",
                        "\u212Aind", "_ROWID_").get(random.nextInt(8)));
            default:
                return sql + FRAGMENTS.get(random.nextInt(FRAGMENTS.size()));
        }
    }

    @Test
    void theGeneratorIsDeterministic() {
        assertThat(generate(SEED, 200)).isEqualTo(generate(SEED, 200));
    }

    @Test
    void theClassGeneratorIsDeterministicAndCoversEveryClassOnEveryEngine() {
        java.nio.file.Path scratch = java.nio.file.Path.of("/nonexistent/scratch");
        for (Dialect d : HostileFixture.ENGINES) {
            List<HostileAttacks.Attack> once = HostileAttacks.generate(d, scratch);
            assertThat(HostileAttacks.generate(d, scratch)).extracting(HostileAttacks.Attack::toString)
                    .isEqualTo(once.stream().map(HostileAttacks.Attack::toString).toList());
            Set<String> classes = new LinkedHashSet<>();
            once.forEach(a -> classes.add(a.cls()));
            assertThat(classes).as("classes on %s", d).contains("whole-row", "star-outside-top", "generated-column",
                    "system-column", "bomb-constant", "bomb-computed", "bomb-recursive");
            assertThat(once).as("no statement carries a marker of the fixture")
                    .allMatch(a -> HostileFixture.markers(a.sql()).isEmpty());
        }
        assertThat(HostileAttacks.generate(Dialect.POSTGRESQL, scratch)).extracting(HostileAttacks.Attack::cls)
                .contains("attribute-notation", "field-selection", "pg-xml-export", "pg-text-search",
                        "pg-catalog-probes", "pg-session-probes");
        assertThat(HostileAttacks.generate(Dialect.H2, scratch)).extracting(HostileAttacks.Attack::cls)
                .contains("h2-files", "h2-objects", "h2-sessions");
        assertThat(HostileAttacks.generate(Dialect.MARIADB, scratch)).extracting(HostileAttacks.Attack::cls)
                .contains("mariadb-locks", "mariadb-waits", "mariadb-files-xml", "mariadb-probes");
        assertThat(HostileAttacks.generate(Dialect.SQLITE, scratch)).extracting(HostileAttacks.Attack::cls)
                .contains("sqlite-extensions-files", "sqlite-probes");
        assertThat(HostileAttacks.generate(Dialect.DUCKDB, scratch)).extracting(HostileAttacks.Attack::cls)
                .contains("duckdb-star-expressions", "duckdb-files", "duckdb-probes", "duckdb-statements");
    }

    @Test
    void theJudgeSeesForbiddenTablesDeniedColumnsFilteredRowsAndTheCap() throws Exception {
        try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:guardjudge;DB_CLOSE_DELAY=-1")) {
            populate(h2);
            assertThat(runAndJudge(h2, "SELECT code FROM secrets", List.of())).startsWith("leaked TOPSECRET");
            assertThat(runAndJudge(h2, "SELECT ssn FROM people", List.of())).startsWith("leaked SSN-");
            assertThat(runAndJudge(h2, "SELECT id FROM people", List.of())).startsWith("leaked 9000");
            assertThat(runAndJudge(h2, "SELECT kind FROM pets", List.of())).startsWith("leaked HIDDEN");
            assertThat(runAndJudge(h2, "SELECT name FROM people", List.of())).contains("over the cap");
            assertThat(runAndJudge(h2, "SELECT name FROM people LIMIT 5", List.of())).isEmpty();
        }
    }

    @Test
    void noGeneratedStatementEscapesJudgedBySqliteAndH2() throws Exception {
        Path file = Files.createTempFile("guard-hostile", ".db");
        List<String> escapes = new ArrayList<>();
        int accepted = 0;
        int ran = 0;
        try (Connection sqlite = DriverManager.getConnection("jdbc:sqlite:" + file);
             Connection h2 = DriverManager.getConnection("jdbc:h2:mem:guardhostile;DB_CLOSE_DELAY=-1")) {
            populate(sqlite);
            populate(h2);
            Map<Integer, String> pages = SqliteReadAudit.rootPages(sqlite);
            GuardPolicy policy = policy();
            for (Dialect d : List.of(Dialect.SQLITE, Dialect.H2)) {
                Connection c = d == Dialect.SQLITE ? sqlite : h2;
                for (String sql : generate(SEED + d.ordinal(), CASES_PER_DIALECT)) {
                    GuardVerdict v = guard.check(sql, policy, d);
                    if (!(v instanceof GuardVerdict.Accepted)) {
                        continue;
                    }
                    accepted++;
                    GuardVerdict.Accepted a = (GuardVerdict.Accepted) v;
                    String run = a.statement().sql();
                    if (d == Dialect.SQLITE) {
                        try {
                            SqliteReadAudit.Audit audit = SqliteReadAudit.audit(c, pages, run, a.statement().parameters());
                            Set<String> bad = new LinkedHashSet<>(audit.tables());
                            bad.removeAll(Set.of("people", "pets"));
                            if (!bad.isEmpty() || !audit.forbidden().isEmpty()) {
                                escapes.add(d + " reads " + bad + audit.forbidden() + ": " + sql + " => " + run);
                            }
                        } catch (SQLException engineRefuses) {
                            continue;
                        }
                    }
                    String leak = runAndJudge(c, run, a.statement().parameters());
                    if (leak != null) {
                        ran++;
                        if (!leak.isEmpty()) {
                            escapes.add(d + " " + leak + ": " + sql.replace("\n", "\\n") + " => " + run);
                        }
                    }
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
        System.out.printf("HOSTILE GENERATOR: %d cases, %d accepted, %d run by the engines, %d escapes%n",
                2 * CASES_PER_DIALECT, accepted, ran, escapes.size());
        escapes.stream().limit(30).forEach(e -> System.out.println("ESCAPE " + e));
        assertThat(accepted).isGreaterThan(100);
        assertThat(escapes).isEmpty();
    }

    /**
     * The same mutations judged by DuckDB, on a plain in-memory database without the lock-down of
     * {@code DuckDbFiles}: what is judged is the guard alone.
     */
    @Test
    void noGeneratedStatementEscapesJudgedByDuckDb() throws Exception {
        List<String> escapes = new ArrayList<>();
        int accepted = 0;
        int ran = 0;
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            populate(duck);
            GuardPolicy policy = policy();
            for (String sql : generate(SEED + Dialect.DUCKDB.ordinal(), CASES_PER_DIALECT)) {
                GuardVerdict v = guard.check(sql, policy, Dialect.DUCKDB);
                if (!(v instanceof GuardVerdict.Accepted a)) {
                    continue;
                }
                accepted++;
                String leak = runAndJudge(duck, a.statement().sql(), a.statement().parameters());
                if (leak != null) {
                    ran++;
                    if (!leak.isEmpty()) {
                        escapes.add("DUCKDB " + leak + ": " + sql.replace("\n", "\\n") + " => " + a.statement().sql());
                    }
                }
            }
        }
        System.out.printf("HOSTILE GENERATOR duckdb: %d cases, %d accepted, %d run by the engine, %d escapes%n",
                CASES_PER_DIALECT, accepted, ran, escapes.size());
        escapes.stream().limit(30).forEach(e -> System.out.println("ESCAPE " + e));
        assertThat(accepted).isGreaterThan(100);
        assertThat(ran).isGreaterThan(50);
        assertThat(escapes).isEmpty();
    }

    /** @return null if the engine refused the SQL, "" if it ran clean, else what leaked */
    private static String runAndJudge(Connection c, String sql, List<Object> params) {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.size(); i++) {
                ps.setObject(i + 1, params.get(i));
            }
            int rows = 0;
            try (ResultSet rs = ps.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    rows++;
                    for (int i = 1; i <= n; i++) {
                        String value = rs.getString(i);
                        if (value != null && (value.contains("TOPSECRET") || value.contains("SSN-")
                                || value.contains("HIDDEN") || value.startsWith("9000"))) {
                            return "leaked " + value;
                        }
                    }
                }
            }
            return rows > MAX_ROWS ? "returned " + rows + " rows over the cap" : "";
        } catch (SQLException engineRefuses) {
            return null;
        }
    }

    private static void populate(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name VARCHAR(50), ssn VARCHAR(50))");
            s.execute("CREATE TABLE pets (id INTEGER PRIMARY KEY, owner VARCHAR(50), kind VARCHAR(50))");
            s.execute("CREATE TABLE secrets (id INTEGER PRIMARY KEY, code VARCHAR(50))");
            for (int i = 1; i <= 12; i++) {
                s.execute("INSERT INTO people VALUES (" + (900000 + i) + ", 'p" + i + "', 'SSN-" + i + "')");
                s.execute("INSERT INTO pets VALUES (" + i + ", '" + (i % 2 == 0 ? "alice" : "bob") + "', '"
                        + (i % 2 == 0 ? "cat" : "HIDDEN") + i + "')");
                s.execute("INSERT INTO secrets VALUES (" + i + ", 'TOPSECRET" + i + "')");
            }
        }
    }

}
