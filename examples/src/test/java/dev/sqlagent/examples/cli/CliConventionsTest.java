package dev.sqlagent.examples.cli;

import static dev.sqlagent.examples.cli.AskRunner.ask;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.examples.cli.AskRunner.Run;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * What every command does alike: one exit-code table (a file that cannot be read is 5 whatever the option),
 * errors that name the cause and the next step, secrets from the environment (the old flags warn), logging on
 * standard error at a level chosen by option or variable, and {@code truncated} set when the row cap cut.
 */
class CliConventionsTest {

    private static FakeModel model;

    @BeforeAll
    static void start() throws Exception {
        model = new FakeModel(AskRunner::shop);
    }

    @AfterAll
    static void stop() throws Exception {
        model.close();
    }

    @Test
    void aFileThatCannotBeReadIsFiveWhateverTheOptionAndTheMessageSaysWhy(@TempDir Path tmp) {
        Path nope = tmp.resolve("data/nope.csv");
        Run csv = ask(model, "", Map.of(), "--csv", "t=" + nope, "--allow-tables", "t", "how many?");
        assertThat(csv.code()).as(csv.toString()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(csv.err()).contains("cannot read " + nope + " (--csv): no such file", "check the path");
        Run sqlite = ask(model, "", Map.of(), "--jdbc-url", "jdbc:sqlite:" + tmp.resolve("nope.sqlite"),
                "--allow-tables", "t", "how many?");
        assertThat(sqlite.code()).as(sqlite.toString()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(sqlite.err()).contains("nope.sqlite", "no such file");
        Run dirAsFile = ask(model, "", Map.of(), "--csv", "t=" + tmp, "--allow-tables", "t", "how many?");
        assertThat(dirAsFile.code()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(dirAsFile.err()).contains("a directory, not a file");
    }

    @Test
    void anUnknownHostOrAnEmptyPortIsNamed() {
        Run host = ask(model, "", Map.of(), "--jdbc-url", "jdbc:postgresql://no-such-host.invalid:5432/shop",
                "--allow-tables", "t", "how many?");
        assertThat(host.code()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(host.err()).contains("unknown host no-such-host.invalid", "check the host name in --jdbc-url")
                .doesNotContain("The connection attempt failed");
        Run port = ask(model, "", Map.of(), "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/shop", "--allow-tables", "t",
                "how many?");
        assertThat(port.code()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(port.err()).contains("nothing answers there", "is the database server running");
    }

    @Test
    void askJsonSaysTruncatedWhenTheRowCapCut(@TempDir Path tmp) throws Exception {
        String sqlite = ShopDatabase.sqlite(tmp);
        Run r = ask(model, "", Map.of(), "--jdbc-url", sqlite, "--allow-tables", "customers,orders", "--max-rows", "2",
                "--json", "What cities do customers live in?");
        assertThat(r.code()).as(r.toString()).isZero();
        // three customers, a cap of two: the rows shown were cut
        assertThat(r.out()).contains("\"rows\":2,", "\"truncated\":true", "\"row_count\":2", "\"row_cap\":2",
                "\"row_cap_reached\":true");
    }

    @Test
    void classifyTakesThePasswordFromTheEnvironmentAndWarnsOnTheOldFlag() {
        PrintStream oldErr = System.err;
        InputStream oldIn = System.in;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            System.setIn(new ByteArrayInputStream(new byte[0]));
            assertThat(new CommandLine(new ClassifyCommand(Map.of())).execute("--jdbc-url", "jdbc:h2:mem:c",
                    "--password", "secret")).isZero();
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("--password is deprecated", "--password-env");
            err.reset();
            assertThat(new CommandLine(new ClassifyCommand(Map.of())).execute("--jdbc-url", "jdbc:h2:mem:c",
                    "--password-env", "NO_SUCH_VAR")).isEqualTo(ExitCodes.USAGE);
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("NO_SUCH_VAR", "is not set");
            err.reset();
            assertThat(new CommandLine(new ClassifyCommand(Map.of("PW", "x"))).execute("--jdbc-url", "jdbc:h2:mem:c",
                    "--password-env", "PW")).isZero();
            assertThat(err.toString(StandardCharsets.UTF_8)).doesNotContain("deprecated");
        } finally {
            System.setErr(oldErr);
            System.setIn(oldIn);
        }
    }

    @Test
    void demoWarnsOnAnApiKeyGivenOnTheCommandLine() {
        PrintStream oldErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            // no --model: a usage error, after the warning
            assertThat(new CommandLine(new DemoCommand()).execute("--api-key", "sk-on-the-command-line"))
                    .isEqualTo(ExitCodes.USAGE);
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("--api-key is deprecated", "--api-key-env");
        } finally {
            System.setErr(oldErr);
        }
    }

    @Test
    void logsGoToStandardErrorAtTheLevelAskedFor() {
        assertThat(LoggerFactory.getILoggerFactory().getClass().getName()).contains("Simple");
        String before = System.getProperty("org.slf4j.simpleLogger.defaultLogLevel");
        try {
            assertThat(Logging.configure(new String[] {"mcp", "--log-level", "DEBUG"}, Map.of())).isEqualTo("debug");
            assertThat(System.getProperty("org.slf4j.simpleLogger.defaultLogLevel")).isEqualTo("debug");
            assertThat(Logging.configure(new String[] {"ask"}, Map.of(Logging.VARIABLE, "error"))).isEqualTo("error");
            assertThat(Logging.configure(new String[] {"--log-level=info", "ask"}, Map.of(Logging.VARIABLE, "error")))
                    .isEqualTo("info");
            assertThat(Logging.configure(new String[] {"ask"}, Map.of())).isEqualTo(Logging.DEFAULT);
            assertThat(Logging.configure(new String[] {"--log-level", "loud"}, Map.of())).isNull();
            assertThat(SqlAgentCli.run("--log-level", "loud", "guard", "--help")).isEqualTo(ExitCodes.USAGE);
        } finally {
            if (before == null) {
                System.clearProperty("org.slf4j.simpleLogger.defaultLogLevel");
            } else {
                System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", before);
            }
        }
    }
}
