package dev.sqlagent.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class AuditCommandTest {

    private static final Path DB = Path.of(System.getProperty("sqlagent.projectRoot", ".."))
            .resolve("../shared/data/spider-dev/sqlite/concert_singer.sqlite").normalize();

    private record Run(int code, String out, String err) {
    }

    private static Run run(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        AuditCommand command = new AuditCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), env);
        int code = new CommandLine(command).execute(args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void printsOneJsonLineAndExitsThreeWhenTheLoginCanReadMoreThanThePolicy() {
        Run r = run(Map.of(), "--jdbc-url", "jdbc:sqlite:file:" + DB + "?mode=ro", "--allow-tables", "singer,concert",
                "--deny-columns", "singer.Age", "--json");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.out().strip()).doesNotContain("\n").startsWith("{\"dialect\":\"SQLITE\"")
                .contains("\"least_privilege\":false", "\"can_write\":false",
                        "\"forbidden_tables_readable\":[\"singer_in_concert\",\"stadium\"]",
                        "\"denied_columns_readable\":[\"singer.age\"]");
    }

    @Test
    void printsATextReportWithoutJson() {
        Run r = run(Map.of(), "--jdbc-url", "jdbc:sqlite:file:" + DB + "?mode=ro",
                "--allow-tables", "singer,concert,singer_in_concert,stadium");
        assertThat(r.code()).as(r.err()).isZero(); // every table allowed, no column denied, the file read-only
        assertThat(r.out()).contains("Database login", "SQLITE", "least privilege", "SQLite has no grants");
    }

    @Test
    void aMissingPasswordVariableIsAUsageError() {
        Run r = run(Map.of(), "--jdbc-url", "jdbc:sqlite::memory:", "--password-env", "NO_SUCH_VAR");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("NO_SUCH_VAR");
    }
}
