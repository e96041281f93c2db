package dev.sqlagent.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The {@code mcp} command in process: its usage errors, the start-up audit's exit code, and a stdio session
 * that ends with its input. (The MCP conversation itself is tested on the jar, {@link McpJarIT}.)
 */
class McpCommandTest {

    private static final Path DB = Path.of(System.getProperty("sqlagent.projectRoot", ".."))
            .resolve("../shared/data/spider-dev/sqlite/concert_singer.sqlite").normalize();
    private static final String READ_ONLY = "jdbc:sqlite:file:" + DB + "?mode=ro";
    private static final String ALL_TABLES = "singer,concert,singer_in_concert,stadium";

    private record Run(int code, String out, String err) {
    }

    private static Run run(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        McpCommand command = new McpCommand(new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), env);
        int code = new CommandLine(command).execute(args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aLeastPrivilegeLoginServesStdioUntilTheInputEnds() {
        Run r = run(Map.of(), "--jdbc-url", READ_ONLY, "--allow-tables", ALL_TABLES);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("serving SQLITE", "over stdio", "no model, so no ask tool");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aLoginThatReadsForbiddenTablesExitsWithThree() {
        Run r = run(Map.of(), "--jdbc-url", READ_ONLY, "--allow-tables", "singer,concert");
        assertThat(r.code()).as(r.err()).isEqualTo(McpCommand.BROAD_LOGIN);
        assertThat(r.err()).contains("stadium", "--allow-broad-login");
        Run accepted = run(Map.of(), "--jdbc-url", READ_ONLY, "--allow-tables", "singer,concert", "--allow-broad-login");
        assertThat(accepted.code()).as(accepted.err()).isZero();
        assertThat(accepted.err()).contains("WARNING", "stadium");
    }

    @Test
    void httpNeedsALongTokenFromTheEnvironment() {
        assertThat(run(Map.of(), "--jdbc-url", READ_ONLY, "--allow-tables", ALL_TABLES, "--http").err())
                .contains("--http needs --token-env");
        Run unset = run(Map.of(), "--jdbc-url", READ_ONLY, "--allow-tables", ALL_TABLES, "--http", "--token-env", "T");
        assertThat(unset.code()).isEqualTo(McpCommand.USAGE);
        assertThat(unset.err()).contains("environment variable T");
        Run shortToken = run(Map.of("T", "short"), "--jdbc-url", READ_ONLY, "--allow-tables", ALL_TABLES, "--http",
                "--token-env", "T");
        assertThat(shortToken.code()).isEqualTo(McpCommand.USAGE);
        assertThat(shortToken.err()).contains("at least 16").doesNotContain("short\n");
    }

    @Test
    void tablesMustBeNamedAndTheTokenIsForHttpOnly() {
        Run noTables = run(Map.of(), "--jdbc-url", READ_ONLY);
        assertThat(noTables.code()).isEqualTo(McpCommand.USAGE);
        assertThat(noTables.err()).contains("--allow-tables");
        Run stray = run(Map.of("T", "0123456789abcdef0123"), "--jdbc-url", READ_ONLY, "--allow-tables", ALL_TABLES,
                "--token-env", "T");
        assertThat(stray.code()).isEqualTo(McpCommand.USAGE);
    }

    /** A misspelt denial would leave the real column open: the server does not start, naming the nearest. */
    @Test
    void aPolicyNameTheDatabaseLacksStopsTheServerBeforeItServes() {
        Run denial = run(Map.of(), "--jdbc-url", READ_ONLY, "--allow-tables", ALL_TABLES, "--deny-columns", "singer.nme");
        assertThat(denial.code()).as(denial.err()).isEqualTo(McpCommand.USAGE);
        assertThat(denial.err()).contains("denied column singer.nme (nearest: Name").doesNotContain("serving");

        Run table = run(Map.of(), "--jdbc-url", READ_ONLY, "--allow-tables", ALL_TABLES + ",singers");
        assertThat(table.code()).as(table.err()).isEqualTo(McpCommand.USAGE);
        assertThat(table.err()).contains("allowed table singers (nearest: singer)").doesNotContain("serving");

        // spelt right it resolves, and the start-up audit goes on to say what SQLite's login can read
        Run right = run(Map.of(), "--jdbc-url", READ_ONLY, "--allow-tables", ALL_TABLES, "--deny-columns", "singer.name",
                "--allow-broad-login");
        assertThat(right.code()).as(right.err()).isZero();
        assertThat(right.err()).contains("singer.name", "serving SQLITE");
    }

    @Test
    void anUnreachableDatabaseExitsWithFive() {
        Run r = run(Map.of(), "--jdbc-url", "jdbc:sqlite:" + DB.resolveSibling("no-such.sqlite"), "--allow-tables", "x");
        assertThat(r.code()).isEqualTo(McpCommand.UNREACHABLE);
    }
}
