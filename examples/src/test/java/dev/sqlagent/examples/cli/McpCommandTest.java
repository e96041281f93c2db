package dev.sqlagent.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
    void anEngineWithoutLoginsOpenedReadOnlyStartsWithANarrowPolicyAndSaysWhatDefendsIt() {
        // SQLite has no grants: no login can be narrower than the file, so a read-only file needs no override
        Run r = run(Map.of(), "--jdbc-url", READ_ONLY, "--allow-tables", "singer,concert");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("writes: refused by the database (opened read-only)",
                "tables outside the policy: the guard only (SQLITE has no grants; the file holds singer_in_concert, "
                        + "stadium)").doesNotContain("--allow-broad-login");
        // a plain URL is opened read-only by the command (the file would be writable to this user otherwise)
        Run plain = run(Map.of(), "--jdbc-url", "jdbc:sqlite:" + DB, "--allow-tables", "singer,concert");
        assertThat(plain.code()).as(plain.err()).isZero();
        assertThat(McpCommand.readOnly("jdbc:sqlite:/x/y.db")).isEqualTo("jdbc:sqlite:file:/x/y.db?mode=ro");
        assertThat(McpCommand.readOnly("jdbc:sqlite:file:/x/y.db?mode=rw")).isEqualTo("jdbc:sqlite:file:/x/y.db?mode=rw");
    }

    @Test
    void aLoginThatReadsForbiddenTablesExitsWithThree(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("shop");
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE orders (id INT PRIMARY KEY)");
            s.execute("CREATE TABLE payroll (id INT PRIMARY KEY, amount INT)");
        }
        Run r = run(Map.of(), "--jdbc-url", url, "--user", "sa", "--allow-tables", "orders");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err()).contains("payroll", "--allow-broad-login", "login that can read only");
        Run accepted = run(Map.of(), "--jdbc-url", url, "--user", "sa", "--allow-tables", "orders",
                "--allow-broad-login");
        assertThat(accepted.code()).as(accepted.err()).isZero();
        assertThat(accepted.err()).contains("WARNING", "the guard only (the login can read");
    }

    @Test
    void aBadLineIsAnsweredAndTheSessionGoesOnToTheEndOfItsInput() {
        String lines = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
                + "not json\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"query\","
                + "\"arguments\":{\"sql\":\"SELECT name FROM singer\"}}}\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        McpCommand command = new McpCommand(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Map.of());
        int code = new CommandLine(command).execute("--jdbc-url", READ_ONLY, "--allow-tables", ALL_TABLES);
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).lines().toList()).hasSize(3)
                .anySatisfy(l -> assertThat(l).contains("\"code\":-32700"))
                .anySatisfy(l -> assertThat(l).contains("\"id\":1", "\"serverInfo\""))
                .anySatisfy(l -> assertThat(l).contains("\"id\":2", "Joe Sharp", "\"truncated\":false"));
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

        // spelt right it resolves, and the start-up report goes on to say which layer defends the denial
        Run right = run(Map.of(), "--jdbc-url", READ_ONLY, "--allow-tables", ALL_TABLES, "--deny-columns", "singer.name",
                "--allow-broad-login");
        assertThat(right.code()).as(right.err()).isZero();
        assertThat(right.err()).contains("denied columns: the guard only", "serving SQLITE").doesNotContain("nearest");
    }

    @Test
    void anUnreachableDatabaseExitsWithFiveAndNamesTheCause() {
        Run r = run(Map.of(), "--jdbc-url", "jdbc:sqlite:" + DB.resolveSibling("no-such.sqlite"), "--allow-tables", "x");
        assertThat(r.code()).isEqualTo(McpCommand.UNREACHABLE);
        assertThat(r.err()).contains("no-such.sqlite", "no such file", "check the path");
        Run host = run(Map.of(), "--jdbc-url", "jdbc:postgresql://no-such-host.invalid:5432/shop", "--allow-tables", "x");
        assertThat(host.code()).isEqualTo(McpCommand.UNREACHABLE);
        assertThat(host.err()).contains("unknown host no-such-host.invalid", "check the host name");
    }
}
