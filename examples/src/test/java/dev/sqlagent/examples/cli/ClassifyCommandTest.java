package dev.sqlagent.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code classify} command end to end, with stdin and stdout redirected. */
class ClassifyCommandTest {

    private static Path spiderSqlite(String dbId) {
        Path root = Paths.get(System.getProperty("sqlagent.projectRoot", "..")).toAbsolutePath().normalize();
        return root.resolveSibling("shared").resolve("data").resolve("spider-dev").resolve("sqlite")
                .resolve(dbId + ".sqlite");
    }

    private static List<String> run(String stdin, String... args) {
        InputStream oldIn = System.in;
        PrintStream oldOut = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            assertThat(SqlAgentCli.run(args)).isZero();
        } finally {
            System.setIn(oldIn);
            System.setOut(oldOut);
        }
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void printsOneJsonLinePerSqlWithTheClassifiedError() {
        Path db = spiderSqlite("car_1");
        assertThat(Files.exists(db)).as(db.toString()).isTrue();
        List<String> lines = run("SELECT count(*) FROM cars_data\n\nSELECT Model FROM cars_data\nSELECT * FROM nope\n",
                "classify", "--jdbc-url", "jdbc:sqlite:file:" + db + "?mode=ro", "--timeout-seconds", "120");
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("{\"sql\":\"SELECT count(*) FROM cars_data\",\"outcome\":\"ok\","
                + "\"error_category\":null,\"sqlstate\":null,\"vendor_code\":null,\"message\":null,\"rows\":1,");
        assertThat(lines.get(1)).contains("\"outcome\":\"error\"", "\"error_category\":\"COLUMN_NOT_FOUND\"",
                "\"vendor_code\":1", "no such column: Model");
        assertThat(lines.get(2)).contains("\"error_category\":\"TABLE_NOT_FOUND\"");
    }

    @Test
    void unreachableDatabaseIsAConnectionErrorPerLine() {
        List<String> lines = run("SELECT 1\n", "classify", "--jdbc-url",
                "jdbc:postgresql://127.0.0.1:1/none?connectTimeout=2");
        assertThat(lines).singleElement().asString().contains("\"error_category\":\"CONNECTION\"", "\"sqlstate\":\"08001\"");
    }

    @Test
    void missingJdbcUrlIsAUsageError() {
        assertThat(SqlAgentCli.run("classify")).isEqualTo(2);
    }
}
