package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.DuckDbFiles;
import dev.sqlagent.schema.SchemaCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two defences apart, each holding when the other misses: DuckDB's own hostile classes (file readers by
 * path, a string literal used as a table, globs, COPY, ATTACH, INSTALL/LOAD, SET/RESET/PRAGMA, getenv,
 * {@code query}/{@code query_table} with a path, {@code sql_auto_complete}, the {@code duckdb_*} catalog,
 * {@code current_setting}, a view redefined over a file) against a host's {@link DuckDbFiles} with two
 * registered files.
 *
 * <p>Files outside the registered ones hold a unique marker ({@value #MARKER}): a directory beside the
 * allowed one, an unregistered file next to the registered ones, a symbolic link in the allowed directory
 * to an outside file, a DuckDB database file; one outside file carries a second marker in its <em>name</em>
 * ({@value #NAME_MARKER}), so that a directory listing is seen too. What the operating system gives the
 * engine is judged by the marker: it must never appear in a result or an error text.
 * <ul>
 *   <li>(a) the guard alone: every attack is refused under the host's policy (the registered tables, their
 *       columns, {@code SELECT *} allowed);</li>
 *   <li>(b) the engine alone, guard bypassed: every attack runs directly on a connection of the locked
 *       database; no marker in rows or error, no file written anywhere under the test's directory, every
 *       statement that would change the session (ATTACH, COPY, INSTALL, LOAD, SET, …) fails, and the
 *       registered tables still read their own files afterwards;</li>
 *   <li>the control: the same attacks on the same views without the lock-down do read the outside files
 *       (the marker appears), so the judgement above can fail.</li>
 * </ul>
 */
class DuckDbLockdownTest {

    static final String MARKER = "Q7V-OUTSIDE-MARKER-41d9";
    static final String NAME_MARKER = "namemark83c1";

    private static final SqlGuard GUARD = SqlGuard.create();

    private static Path root;
    private static Path allowed;
    private static Path outside;
    private static DuckDbFiles locked;

    /**
     * One attack.
     *
     * @param sql the statement, paths filled in
     * @param reads whether, without the lock-down, it reads an outside file (the control expects the marker)
     * @param changes whether it would change the session or write (it must fail on the locked database)
     */
    record Attack(String sql, boolean reads, boolean changes) {
    }

    @BeforeAll
    static void files() throws Exception {
        Path target = Path.of("target");
        root = (Files.isDirectory(target) ? Files.createTempDirectory(target.toAbsolutePath(), "duckdb-lockdown")
                : Files.createTempDirectory("duckdb-lockdown")).toRealPath();
        allowed = Files.createDirectories(root.resolve("allowed"));
        outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(allowed.resolve("sales.csv"), "id,region,amount\n1,north,10\n2,south,20\n",
                StandardCharsets.UTF_8);
        Files.writeString(allowed.resolve("unregistered.csv"), "id,secret\n1," + MARKER + "\n", StandardCharsets.UTF_8);
        Files.writeString(outside.resolve("secret.csv"), "id,secret\n1," + MARKER + "\n", StandardCharsets.UTF_8);
        Files.writeString(outside.resolve("secret.txt"), "the secret is " + MARKER + "\n", StandardCharsets.UTF_8);
        Files.writeString(outside.resolve("secret.json"), "[{\"id\": 1, \"secret\": \"" + MARKER + "\"}]",
                StandardCharsets.UTF_8);
        Files.writeString(outside.resolve(NAME_MARKER + ".csv"), "id\n1\n", StandardCharsets.UTF_8);
        Files.createSymbolicLink(allowed.resolve("link.csv"), outside.resolve("secret.csv"));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("COPY (SELECT 1 AS id, 'Ann' AS name UNION ALL SELECT 2, 'Bo') TO "
                    + lit(allowed.resolve("customers.parquet")) + " (FORMAT PARQUET)");
            s.execute("COPY (SELECT 1 AS id, '" + MARKER + "' AS secret) TO " + lit(outside.resolve("secret.parquet"))
                    + " (FORMAT PARQUET)");
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + outside.resolve("secret.duckdb"));
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE secret AS SELECT 1 AS id, '" + MARKER + "' AS secret");
        }
        locked = DuckDbFiles.builder().csv("sales", allowed.resolve("sales.csv"))
                .parquet("customers", allowed.resolve("customers.parquet")).open();
    }

    @AfterAll
    static void close() throws IOException {
        locked.close();
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static String lit(Path p) {
        return "'" + p.toString().replace("'", "''") + "'";
    }

    static List<Attack> attacks() {
        String out = outside.toString();
        String in = allowed.toString();
        String csv = out + "/secret.csv";
        List<Attack> a = new ArrayList<>();
        // file readers by path, globs, lists, traversal, a link, an unregistered neighbour, URLs
        for (String s : List.of(
                "SELECT * FROM read_csv('" + csv + "')",
                "SELECT * FROM read_csv_auto('" + csv + "')",
                "SELECT * FROM read_csv('" + out + "/*.csv', union_by_name = true)",
                "SELECT * FROM read_csv('" + out + "/**/*.csv', union_by_name = true)",
                "SELECT * FROM read_csv(['" + in + "/sales.csv', '" + csv + "'], union_by_name = true)",
                "SELECT * FROM read_csv('" + in + "/../outside/secret.csv')",
                "SELECT * FROM read_csv('" + in + "/unregistered.csv')",
                "SELECT * FROM read_csv('" + in + "/link.csv')",
                "SELECT * FROM read_csv('file://" + csv + "')",
                "SELECT * FROM read_csv('" + csv + "', ignore_errors = true, header = false)",
                "SELECT * FROM read_csv(concat('" + out + "', '/secret.csv'))",
                "SELECT * FROM read_text('" + out + "/secret.txt')",
                "SELECT * FROM read_text('" + out + "/*.txt')",
                "SELECT content::VARCHAR FROM read_blob('" + out + "/secret.txt')",
                "SELECT * FROM read_json('" + out + "/secret.json')",
                "SELECT * FROM read_json_auto('" + out + "/secret.json')",
                "SELECT * FROM read_json_objects('" + out + "/secret.json')",
                "SELECT * FROM read_parquet('" + out + "/secret.parquet')",
                "SELECT * FROM parquet_scan('" + out + "/secret.parquet')",
                "SELECT * FROM '" + csv + "'",
                "FROM '" + out + "/secret.parquet'",
                "SELECT * FROM '" + out + "/secret.json'",
                "SELECT * FROM '" + in + "/unregistered.csv'",
                "SELECT * FROM glob('" + out + "/*')",
                "SELECT * FROM glob('" + root + "/**')",
                "SELECT * FROM query_table('" + csv + "')",
                "SELECT * FROM query('SELECT * FROM read_csv(''" + csv + "'')')",
                "SELECT region FROM sales UNION ALL SELECT secret FROM read_csv('" + csv + "')",
                "WITH x AS (SELECT * FROM '" + csv + "') SELECT * FROM x",
                "SELECT region, (SELECT max(secret) FROM read_csv('" + csv + "')) AS v FROM sales",
                "SELECT * FROM glob('" + out + "/*.csv') WHERE file LIKE '%mark%'")) {
            a.add(new Attack(s, true, false));
        }
        // readers whose output is metadata, not the content: judged, but the control does not expect the marker
        for (String s : List.of(
                "SELECT * FROM sniff_csv('" + csv + "')",
                "SELECT * FROM sales WHERE EXISTS (SELECT 1 FROM read_text('" + out + "/secret.txt'))",
                "SELECT * FROM sql_auto_complete('SELECT * FROM ''" + out + "/')",
                "SELECT * FROM parquet_metadata('" + out + "/secret.parquet')",
                "SELECT * FROM parquet_schema('" + out + "/secret.parquet')",
                "SELECT getenv('HOME')",
                "SELECT current_setting('allowed_paths')",
                "SELECT current_setting('enable_external_access')",
                "SELECT * FROM duckdb_settings()",
                "SELECT * FROM duckdb_databases()",
                "SELECT * FROM duckdb_tables()",
                "SELECT * FROM duckdb_views()",
                "SELECT * FROM duckdb_extensions()",
                "SELECT * FROM duckdb_secrets()",
                "SELECT * FROM pragma_database_list",
                "SELECT * FROM sqlite_scan('" + out + "/secret.duckdb', 'secret')",
                "SELECT * FROM delta_scan('" + out + "')",
                "SELECT * FROM iceberg_scan('" + out + "')")) {
            a.add(new Attack(s, false, false));
        }
        // statements that change the session, write, or open another database
        for (String s : List.of(
                "ATTACH '" + out + "/secret.duckdb' AS s (READ_ONLY)",
                "ATTACH '" + out + "/new.duckdb' AS n",
                "COPY (SELECT * FROM sales) TO '" + out + "/written.csv'",
                "COPY sales TO '" + in + "/written.parquet' (FORMAT PARQUET)",
                "COPY customers FROM '" + csv + "'",
                "EXPORT DATABASE '" + out + "/dump'",
                "IMPORT DATABASE '" + out + "'",
                "INSTALL httpfs",
                "LOAD httpfs",
                "LOAD '" + out + "/evil.duckdb_extension'",
                "SET enable_external_access = true",
                "SET allowed_paths = ['" + csv + "']",
                "SET allowed_directories = ['" + out + "']",
                "RESET allowed_paths",
                "SET lock_configuration = false",
                "SET temp_directory = '" + out + "'",
                "SET home_directory = '" + out + "'",
                "PRAGMA enable_profiling",
                "SET profiling_output = '" + out + "/profile.json'",
                "CREATE OR REPLACE VIEW sales AS SELECT * FROM read_csv('" + csv + "')",
                "CREATE VIEW leak AS SELECT * FROM read_csv('" + csv + "')",
                "CREATE TABLE leak2 AS SELECT * FROM '" + csv + "'",
                "CREATE SECRET s (TYPE s3, KEY_ID 'k', SECRET 'x')")) {
            a.add(new Attack(s, false, true));
        }
        return a;
    }

    private static GuardPolicy policy() throws SQLException {
        GuardPolicy base = GuardPolicy.builder().allowTables("sales", "customers").allowSelectStar(true).build();
        return SchemaCatalog.introspect(locked, base).completePolicy(base);
    }

    @Test
    void theGuardAloneRefusesEveryAttack() throws SQLException {
        GuardPolicy policy = policy();
        List<String> accepted = new ArrayList<>();
        List<Attack> attacks = attacks();
        for (Attack a : attacks) {
            GuardVerdict v = GUARD.check(a.sql(), policy, Dialect.DUCKDB);
            if (v instanceof GuardVerdict.Accepted ok) {
                accepted.add(a.sql() + " -> " + ok.statement().sql());
            }
        }
        System.out.printf("DUCKDB-LOCKDOWN guard alone: %d attacks, %d accepted%n", attacks.size(), accepted.size());
        assertThat(accepted).as("attacks the guard lets through").isEmpty();
        assertThat(GUARD.check("SELECT region, amount FROM sales", policy, Dialect.DUCKDB))
                .as("the policy lets the registered tables be read").isInstanceOf(GuardVerdict.Accepted.class);
    }

    @Test
    void theEngineLockDownAloneRefusesEveryAttack() throws Exception {
        List<String> findings = new ArrayList<>();
        Set<String> before = tree();
        int failed = 0;
        List<Attack> attacks = attacks();
        try (Connection c = locked.getConnection()) {
            for (Attack a : attacks) {
                String seen = run(c, a.sql());
                boolean error = seen.startsWith("ERROR ");
                failed += error ? 1 : 0;
                if (leaks(seen)) {
                    findings.add("the marker came back: " + a.sql() + " -> " + shorten(seen));
                }
                if (a.changes() && !error) {
                    findings.add("ran on the locked database: " + a.sql());
                }
                String after = run(c, "SELECT * FROM sales");
                if (leaks(after) || after.startsWith("ERROR ") || !after.contains("north")) {
                    findings.add("the registered table no longer reads its own file after: " + a.sql() + " -> "
                            + shorten(after));
                }
            }
        }
        Set<String> written = new TreeSet<>(tree());
        written.removeAll(before);
        written.forEach(f -> findings.add("a file appeared: " + f));
        System.out.printf("DUCKDB-LOCKDOWN engine alone: %d attacks, %d refused with an error, %d findings%n",
                attacks.size(), failed, findings.size());
        findings.forEach(f -> System.out.println("DUCKDB-LOCKDOWN FINDING " + f));
        assertThat(findings).isEmpty();
        try (Connection c = locked.getConnection()) {
            assertThat(run(c, "SELECT name FROM customers ORDER BY id")).contains("Ann");
        }
    }

    /**
     * The judgement can fail: without the lock-down the same attacks read the outside files (the attacks whose
     * output is metadata, a filter or an extension this build lacks, such as {@code sql_auto_complete}, are
     * not expected to show the marker).
     */
    @Test
    void withoutTheLockDownTheAttacksReadTheOutsideFiles() throws Exception {
        List<String> silent = new ArrayList<>();
        int reads = 0;
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("SET autoinstall_known_extensions = false");
            s.execute("CREATE VIEW sales AS SELECT * FROM read_csv(" + lit(allowed.resolve("sales.csv")) + ")");
            s.execute("CREATE VIEW customers AS SELECT * FROM read_parquet(" + lit(allowed.resolve("customers.parquet"))
                    + ")");
            for (Attack a : attacks()) {
                if (a.reads()) {
                    reads++;
                    if (!leaks(run(c, a.sql()))) {
                        silent.add(a.sql() + " -> " + shorten(run(c, a.sql())));
                    }
                }
            }
        }
        System.out.printf("DUCKDB-LOCKDOWN control, no lock-down: %d reading attacks, %d read nothing%n", reads,
                silent.size());
        assertThat(silent).as("reading attacks that read nothing even without the lock-down").isEmpty();
        assertThat(reads).isGreaterThan(25);
    }

    private static boolean leaks(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        return lower.contains(MARKER.toLowerCase(Locale.ROOT)) || lower.contains(NAME_MARKER);
    }

    private static String shorten(String s) {
        return s.length() > 240 ? s.substring(0, 240) + "…" : s;
    }

    /** Every row and column as text, or {@code ERROR <message>}. */
    private static String run(Connection c, String sql) {
        StringBuilder out = new StringBuilder();
        try (Statement s = c.createStatement()) {
            if (s.execute(sql)) {
                try (ResultSet r = s.getResultSet()) {
                    int n = r.getMetaData().getColumnCount();
                    while (r.next() && out.length() < 1 << 20) {
                        for (int i = 1; i <= n; i++) {
                            out.append(r.getString(i)).append('|');
                        }
                        out.append('\n');
                    }
                }
            }
            return out.toString();
        } catch (SQLException | RuntimeException e) {
            return "ERROR " + e.getMessage();
        }
    }

    private static Set<String> tree() throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            Set<String> out = new TreeSet<>();
            s.forEach(p -> out.add(root.relativize(p).toString()));
            return out;
        }
    }
}
