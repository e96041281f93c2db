package dev.sqlagent.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine layer on its own: with the guard bypassed (raw JDBC on a connection of {@link DuckDbFiles}),
 * DuckDB itself refuses to read any file but the registered ones, to write files, attach databases, load
 * extensions or change a setting. The check is the operating system's: a marker file outside the registered
 * files, whose marker must never come back.
 */
class DuckDbFilesTest {

    private static final String MARKER = "MARKER-7f3a9c";

    @TempDir
    Path dir;

    private List<String> run(Connection c, String sql) {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            if (s.execute(sql)) {
                try (ResultSet r = s.getResultSet()) {
                    int n = r.getMetaData().getColumnCount();
                    while (r.next()) {
                        for (int i = 1; i <= n; i++) {
                            out.add(String.valueOf(r.getObject(i)));
                        }
                    }
                }
            }
            out.add("RAN");
        } catch (SQLException e) {
            out.add("ERROR " + e.getMessage());
        }
        return out;
    }

    @Test
    void registeredFilesAreTablesAndNothingElseCanBeReadWrittenOrChanged() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(data.resolve("sales.csv"), "region,amount\nnorth,10\nsouth,20\n");
        Files.writeString(data.resolve("other.csv"), "x\n" + MARKER + "\n"); // beside the registered file
        Path marker = outside.resolve("marker.csv");
        Files.writeString(marker, "secret\n" + MARKER + "\n");
        try (Connection setup = DriverManager.getConnection("jdbc:duckdb:" + outside.resolve("other.duckdb"));
             Statement s = setup.createStatement()) {
            s.execute("CREATE TABLE t AS SELECT '" + MARKER + "' AS m");
        }
        try (DuckDbFiles db = DuckDbFiles.builder().csv("sales", data.resolve("sales.csv")).open();
             Connection c = db.getConnection()) {
            assertThat(run(c, "SELECT region, amount FROM sales ORDER BY amount")).containsExactly("north", "10",
                    "south", "20", "RAN");
            String m = marker.toString();
            List<String> attacks = List.of(
                    "SELECT * FROM read_csv('" + m + "')",
                    "SELECT * FROM read_csv_auto('" + m + "')",
                    "SELECT * FROM '" + m + "'",
                    "SELECT * FROM read_text('" + m + "')",
                    "SELECT * FROM read_blob('" + m + "')",
                    "SELECT * FROM read_json('" + m + "')",
                    "SELECT * FROM glob('" + outside + "/*')",
                    "SELECT * FROM sniff_csv('" + m + "')",
                    "SELECT * FROM read_csv('" + data.resolve("other.csv") + "')",
                    "SELECT * FROM read_csv('" + data + "/../outside/marker.csv')",
                    "SELECT * FROM read_csv('" + data + "/*.csv')",
                    "ATTACH '" + outside.resolve("other.duckdb") + "' AS o",
                    "SELECT m FROM o.t",
                    "CREATE VIEW v AS SELECT * FROM read_csv('" + m + "')",
                    "SET enable_external_access = true",
                    "SET allowed_directories = ['/']",
                    "RESET lock_configuration",
                    "SET lock_configuration = false",
                    "INSTALL httpfs",
                    "LOAD httpfs",
                    "LOAD '" + m + "'",
                    "COPY sales TO '" + outside.resolve("out.csv") + "'",
                    "COPY sales TO '" + data.resolve("out.csv") + "'",
                    "COPY sales FROM '" + m + "'",
                    "EXPORT DATABASE '" + outside.resolve("dump") + "'",
                    "SELECT * FROM read_csv('" + m + "')");
            List<String> ran = new ArrayList<>();
            for (String sql : attacks) {
                List<String> out = run(c, sql);
                assertThat(String.join("\n", out)).as(sql).doesNotContain(MARKER);
                if (out.contains("RAN")) {
                    ran.add(sql);
                }
            }
            assertThat(ran).as("statements the locked engine still ran").isEmpty();
            assertThat(outside.resolve("out.csv")).doesNotExist();
            assertThat(data.resolve("out.csv")).doesNotExist();
            assertThat(outside.resolve("dump")).doesNotExist();
            assertThat(run(c, "SELECT current_setting('enable_external_access'), current_setting('lock_configuration')"))
                    .containsExactly("false", "true", "RAN");
            // the registered view still reads its file after every attempt
            assertThat(run(c, "SELECT count(*) FROM sales")).containsExactly("2", "RAN");
        }
    }

    @Test
    void aFolderRegistersEachFileUnderItsBaseName() throws Exception {
        Files.writeString(dir.resolve("sales.csv"), "region,amount\nnorth,10\n");
        Files.writeString(dir.resolve("people.json"), "[{\"name\": \"Ann\"}]");
        Files.writeString(dir.resolve("notes.txt"), MARKER);
        Files.writeString(dir.resolve("1bad.csv"), "x\n1\n");
        try (DuckDbFiles db = DuckDbFiles.builder().folder(dir).open(); Connection c = db.getConnection()) {
            assertThat(db.tables()).containsOnlyKeys("sales", "people");
            assertThat(run(c, "SELECT name FROM people")).containsExactly("Ann", "RAN");
            assertThat(String.join(" ", run(c, "SELECT * FROM read_text('" + dir.resolve("notes.txt") + "')")))
                    .doesNotContain(MARKER).startsWith("ERROR");
        }
    }

    @Test
    void aDatabaseFileOpensReadOnlyAndLocked() throws Exception {
        Path file = dir.resolve("shop.duckdb");
        Path marker = dir.resolve("marker.csv");
        Files.writeString(marker, MARKER + "\n");
        try (Connection setup = DriverManager.getConnection("jdbc:duckdb:" + file);
             Statement s = setup.createStatement()) {
            s.execute("CREATE TABLE items AS SELECT 1 AS id, 'pen' AS name");
        }
        try (DuckDbFiles db = DuckDbFiles.builder().database(file).open(); Connection c = db.getConnection()) {
            assertThat(run(c, "SELECT name FROM items")).containsExactly("pen", "RAN");
            assertThat(run(c, "INSERT INTO items VALUES (2, 'ink')").get(0)).startsWith("ERROR");
            assertThat(run(c, "CREATE TABLE x (a INT)").get(0)).startsWith("ERROR");
            assertThat(String.join(" ", run(c, "SELECT * FROM read_csv('" + marker + "')")))
                    .doesNotContain(MARKER).startsWith("ERROR");
        }
    }

    @Test
    void badRegistrationsFailClearly() {
        assertThatThrownBy(() -> DuckDbFiles.builder().csv("sales; DROP", dir.resolve("x.csv")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("table name");
        assertThatThrownBy(() -> DuckDbFiles.builder().csv("sales", dir.resolve("missing.csv")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot read");
        assertThatThrownBy(() -> DuckDbFiles.builder().database(dir.resolve("missing.duckdb")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DuckDbFiles.builder().memoryLimit(1 << 20))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("below 16 MiB");
    }

    /**
     * DuckDB runs in the host's process: a statement that needs more memory than the cap fails as a
     * resource limit (the guard bypassed: raw JDBC), where without the cap it would take up to 80 % of the
     * machine's memory; a statement within the cap still runs, and the cap cannot be raised from SQL.
     */
    @Test
    void memoryIsCappedInsideTheHost() throws Exception {
        java.nio.file.Files.writeString(dir.resolve("sales.csv"), "region,amount\nnorth,1\n");
        try (DuckDbFiles db = DuckDbFiles.builder().csv("sales", dir.resolve("sales.csv")).memoryLimit(64L << 20).open();
                Connection c = db.getConnection()) {
            assertThat(run(c, "SELECT current_setting('memory_limit')").get(0)).contains("MiB");
            // about 400 MB of strings held at once by one aggregate
            String bomb = "SELECT length(string_agg(repeat('x', 4000), ',')) FROM range(100000)";
            List<String> out = run(c, bomb);
            assertThat(out).hasSize(1);
            assertThat(out.get(0)).startsWith("ERROR Out of Memory Error");
            try (Statement s = c.createStatement()) {
                s.executeQuery(bomb);
            } catch (java.sql.SQLException e) {
                assertThat(ErrorClassifier.standard().classify(dev.sqlagent.Dialect.DUCKDB, e))
                        .isEqualTo(ErrorCategory.RESOURCE_LIMIT);
            }
            assertThat(run(c, "SELECT length(string_agg(repeat('x', 40), ',')) FROM range(1000)"))
                    .containsExactly("40999", "RAN");
            assertThat(run(c, "SET memory_limit = '100GB'").get(0)).startsWith("ERROR");
        }
    }

    @Test
    void aPathWithAQuoteIsQuotedNotInjected() throws Exception {
        Path odd = dir.resolve("it's.csv");
        Files.writeString(odd, "a\n1\n");
        try (DuckDbFiles db = DuckDbFiles.builder().csv("odd", odd).open(); Connection c = db.getConnection()) {
            assertThat(run(c, "SELECT a FROM odd")).containsExactly("1", "RAN");
        }
    }

    /** DuckDB's spill directory ({@code .tmp} under the working directory) is no way around the lock. */
    @Test
    void theSpillDirectoryIsNotReadableEither() throws Exception {
        Path tmp = Path.of(".tmp").toAbsolutePath();
        boolean created = !Files.exists(tmp);
        Files.createDirectories(tmp);
        Path marker = tmp.resolve("sqlagent-marker-" + java.util.UUID.randomUUID() + ".csv");
        Files.writeString(marker, "x\n" + MARKER + "\n");
        Files.writeString(dir.resolve("sales.csv"), "region\nnorth\n");
        try (DuckDbFiles db = DuckDbFiles.builder().csv("sales", dir.resolve("sales.csv")).open();
             Connection c = db.getConnection()) {
            for (String sql : List.of("SELECT * FROM read_csv('" + marker + "')",
                    "SELECT * FROM read_csv('.tmp/" + marker.getFileName() + "')")) {
                List<String> out = run(c, sql);
                assertThat(String.join(" ", out)).as(sql).doesNotContain(MARKER).startsWith("ERROR");
            }
        } finally {
            Files.deleteIfExists(marker);
            if (created) {
                Files.deleteIfExists(tmp);
            }
        }
    }
}
