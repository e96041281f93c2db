package dev.sqlagent.testing;

import dev.sqlagent.execution.DuckDbFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * A Spider dev database as a DuckDB file, opened as a host would open it: {@link DuckDbFiles} on the file,
 * read-only and locked down (no file, extension, {@code ATTACH}, setting). Built from
 * {@code spider-dev/postgres/<db>.sql}, which DuckDB reads as it is once the schema prefix is taken off (the
 * tables live in {@code main}, as in a host's own file; the name is quoted, since {@code show} is a keyword) and the foreign keys are left out (DuckDB cannot add
 * them to an existing table). The file is built once under {@code target/duckdb-spider} and the database is
 * kept open for the JVM's life.
 */
public final class DuckDbSpider {

    private static final Map<String, DuckDbFiles> OPEN = new ConcurrentHashMap<>();

    private DuckDbSpider() {
    }

    /**
     * @param dbId the Spider database id
     * @return the locked, read-only DuckDB database of it
     */
    public static synchronized DataSource of(String dbId) {
        DuckDbFiles open = OPEN.get(dbId);
        if (open == null) {
            try {
                open = DuckDbFiles.builder().database(file(dbId)).open();
            } catch (SQLException e) {
                throw new IllegalStateException("cannot open the DuckDB copy of " + dbId + ": " + e.getMessage(), e);
            }
            OPEN.put(dbId, open);
        }
        return open;
    }

    /**
     * Builds (once) the DuckDB file of a Spider database.
     *
     * @param dbId the Spider database id
     * @return the file
     */
    public static synchronized Path file(String dbId) {
        Path dir = Path.of(Files.isDirectory(Path.of("target")) ? "target" : System.getProperty("java.io.tmpdir"),
                "duckdb-spider");
        Path file = dir.resolve(dbId + ".duckdb").toAbsolutePath();
        Path done = dir.resolve(dbId + ".done");
        if (Files.exists(done) && Files.exists(file)) {
            return file;
        }
        try {
            Files.createDirectories(dir);
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir.resolve(dbId + ".duckdb.wal"));
            load(SharedData.spiderDir().resolve("postgres").resolve(dbId + ".sql"), dbId, file);
            Files.writeString(done, "built", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot build the DuckDB copy of " + dbId + ": " + e.getMessage(), e);
        }
        return file;
    }

    private static void load(Path sqlFile, String dbId, Path file) throws IOException, SQLException {
        Pattern prefix = Pattern.compile("^(CREATE TABLE|INSERT INTO) " + Pattern.quote(dbId) + "\\.(\\w+)");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement()) {
            StringBuilder stmt = new StringBuilder();
            for (String line : Files.readAllLines(sqlFile, StandardCharsets.UTF_8)) {
                if (stmt.length() == 0 && (line.startsWith("--") || line.isBlank())) {
                    continue;
                }
                stmt.append(line).append('\n');
                if (line.stripTrailing().endsWith(";")) {
                    String sql = stmt.toString();
                    stmt.setLength(0);
                    if (sql.startsWith("ALTER TABLE") || sql.startsWith("CREATE SCHEMA")) {
                        continue;
                    }
                    s.execute(prefix.matcher(sql).replaceFirst("$1 \"$2\""));
                }
            }
            s.execute("CHECKPOINT");
        }
    }
}
