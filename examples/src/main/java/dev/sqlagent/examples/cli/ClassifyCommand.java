package dev.sqlagent.examples.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.sqlagent.execution.ExecutionError;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.JdbcSqlExecutor;
import dev.sqlagent.execution.SqlStatement;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code classify} command: runs each SQL line of stdin read-only through {@link JdbcSqlExecutor} and
 * prints one JSON object per line with the outcome and, for a failure, the classified error.
 *
 * <p>Fields: {@code sql}, {@code outcome} ({@code ok}/{@code error}), {@code error_category},
 * {@code sqlstate}, {@code vendor_code}, {@code message} (all null when ok), {@code rows} (null on error)
 * and {@code elapsed_ms}. Exit codes ({@link ExitCodes}): 0 when every line was processed, whatever the
 * outcomes (an unreachable server is classified on each line); 2 on a usage error; 5 when the SQLite file of
 * the URL does not exist. The password comes from the
 * environment ({@code --password-env VAR}, else {@value #PASSWORD_VARIABLE}); {@code --password} still works
 * but is deprecated (it shows in the process list and the shell's history) and warns.
 */
@Command(name = "classify", mixinStandardHelpOptions = true,
        description = "Run SQL from stdin (one statement per line) read-only and classify each error as JSON lines.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every line was processed, whatever the outcomes",
            "1:internal error (a bug: please report it)",
            "2:usage error: a bad or missing option, a missing environment variable",
            "5:the SQLite file of the URL cannot be read (a server that cannot be reached is classified per line)"})
final class ClassifyCommand implements Callable<Integer> {

    private static final JsonFactory JSON = new JsonFactory();

    @Option(names = "--jdbc-url", required = true, description = "JDBC URL of the database")
    String jdbcUrl;

    @Option(names = "--user", description = "database user")
    String user;

    /** The variable read for the password when no option names one. */
    static final String PASSWORD_VARIABLE = "SQLAGENT_DB_PASSWORD";

    @Option(names = "--password", description = "DEPRECATED (visible in the process list and the shell's history):"
            + " use --password-env or " + PASSWORD_VARIABLE + ".", interactive = false, hidden = false)
    String password;

    @Option(names = "--password-env", paramLabel = "VAR", description = "The environment variable holding the "
            + "database password (default " + PASSWORD_VARIABLE + " when set).")
    String passwordEnv;

    @Option(names = "--timeout-seconds", defaultValue = "30", description = "query timeout (default ${DEFAULT-VALUE})")
    int timeoutSeconds;

    private final java.util.Map<String, String> env;

    ClassifyCommand() {
        this(System.getenv());
    }

    ClassifyCommand(java.util.Map<String, String> env) {
        this.env = env;
    }

    @Override
    public Integer call() throws IOException {
        if (timeoutSeconds < 1) {
            System.err.println("classify: --timeout-seconds must be >= 1 but was " + timeoutSeconds);
            return ExitCodes.USAGE;
        }
        String secret;
        if (password != null) {
            if (passwordEnv != null) {
                System.err.println("classify: give --password-env or --password, not both");
                return ExitCodes.USAGE;
            }
            System.err.println("classify: WARNING: --password is deprecated: the password shows in the process list "
                    + "and the shell's history; export it and give --password-env VAR (or set " + PASSWORD_VARIABLE
                    + ")");
            secret = password;
        } else if (passwordEnv != null) {
            secret = env.get(passwordEnv);
            if (secret == null) {
                System.err.println("classify: environment variable " + passwordEnv + " (--password-env) is not set; "
                        + "export it, or name the variable that holds the password");
                return ExitCodes.USAGE;
            }
        } else {
            secret = env.get(PASSWORD_VARIABLE);
        }
        dev.sqlagent.execution.UrlDataSource ds = new dev.sqlagent.execution.UrlDataSource(jdbcUrl, user, secret);
        java.nio.file.Path sqlite = AskCommand.sqliteFile(jdbcUrl);
        String unreadable = sqlite == null ? null : Causes.unreadable(sqlite, "the SQLite file of --jdbc-url");
        if (unreadable != null) {
            System.err.println("classify: " + unreadable);
            return ExitCodes.UNREACHABLE;
        }
        // a database that cannot be reached is classified line by line (CONNECTION): that is this command's work
        JdbcSqlExecutor executor = JdbcSqlExecutor.builder(ds).queryTimeout(Duration.ofSeconds(timeoutSeconds)).build();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Writer out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String sql = line.strip();
            if (sql.isEmpty()) {
                continue;
            }
            write(out, sql, executor.execute(SqlStatement.of(sql)));
            out.write('\n');
            out.flush();
        }
        return ExitCodes.OK;
    }

    private static void write(Writer out, String sql, ExecutionOutcome outcome) throws IOException {
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.writeStartObject();
            g.writeStringField("sql", sql);
            if (outcome instanceof ExecutionOutcome.Success) {
                ExecutionOutcome.Success ok = (ExecutionOutcome.Success) outcome;
                g.writeStringField("outcome", "ok");
                g.writeNullField("error_category");
                g.writeNullField("sqlstate");
                g.writeNullField("vendor_code");
                g.writeNullField("message");
                g.writeNumberField("rows", ok.table().rowCount());
                g.writeNumberField("elapsed_ms", ok.table().elapsed().toMillis());
            } else {
                ExecutionError e = ((ExecutionOutcome.Failure) outcome).error();
                g.writeStringField("outcome", "error");
                g.writeStringField("error_category", e.category().name());
                g.writeStringField("sqlstate", e.sqlState());
                g.writeNumberField("vendor_code", e.vendorCode());
                g.writeStringField("message", e.message());
                g.writeNullField("rows");
                g.writeNumberField("elapsed_ms", e.elapsed().toMillis());
            }
            g.writeEndObject();
        }
    }
}
