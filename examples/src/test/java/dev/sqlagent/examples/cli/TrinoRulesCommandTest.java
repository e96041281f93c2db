package dev.sqlagent.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code trino-rules}: the policy's options become Trino's file-based access control (proven on a cluster in trino-tests). */
class TrinoRulesCommandTest {

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommandLine cl = new CommandLine(new TrinoRulesCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        cl.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
        int code = cl.execute(args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void printsTheRulesOfThePolicy() {
        Run r = run("--user", "analyst", "--catalog", "memory", "--schema", "hr", "--allow-tables", "people,depts",
                "--deny-columns", "people.ssn", "--row-filter", "people.dept=eng");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("Qanalyst", "ssn", "\"allow\":false", "dept", "eng", "\"catalogs\"");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void writesThemToAFile(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("rules.json");
        Run r = run("--user", "analyst", "--catalog", "memory", "--schema", "hr", "--allow-tables",
                "memory.hr.people", "--admin", "admin", "--output", f.toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).isEmpty();
        assertThat(Files.readString(f)).contains("Qadmin", "people");
    }

    @Test
    void badInputIsAUsageErrorNamingTheOption() {
        Run none = run("--user", "analyst", "--catalog", "memory", "--schema", "hr");
        assertThat(none.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(none.err()).contains("--allow-tables is required");
        Run bad = run("--user", "analyst", "--catalog", "memory", "--schema", "hr", "--allow-tables", "a.b.c.d");
        assertThat(bad.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("at most three parts");
        Run noUser = run("--catalog", "memory", "--schema", "hr", "--allow-tables", "people");
        assertThat(noUser.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(noUser.err()).contains("--user");
    }
}
