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
 * and {@code elapsed_ms}. Exit code 0 when every line was processed, whatever the outcomes.
 */
@Command(name = "classify", mixinStandardHelpOptions = true,
        description = "Run SQL from stdin (one statement per line) read-only and classify each error as JSON lines.")
final class ClassifyCommand implements Callable<Integer> {

    private static final JsonFactory JSON = new JsonFactory();

    @Option(names = "--jdbc-url", required = true, description = "JDBC URL of the database")
    String jdbcUrl;

    @Option(names = "--user", description = "database user")
    String user;

    @Option(names = "--password", description = "database password", interactive = false)
    String password;

    @Option(names = "--timeout-seconds", defaultValue = "30", description = "query timeout (default ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Override
    public Integer call() throws IOException {
        if (timeoutSeconds < 1) {
            System.err.println("classify: --timeout-seconds must be >= 1 but was " + timeoutSeconds);
            return 2;
        }
        JdbcSqlExecutor executor = JdbcSqlExecutor.builder(new dev.sqlagent.execution.UrlDataSource(jdbcUrl, user, password))
                .queryTimeout(Duration.ofSeconds(timeoutSeconds)).build();
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
        return 0;
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
