package dev.sqlagent.examples.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.sqlagent.Dialect;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.guard.Violation;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The {@code guard} command: one SQL per line on standard input, one JSON object per line out with
 * {@code sql}, {@code verdict} ({@code ACCEPTED}, {@code REJECTED}, {@code UNPARSEABLE}),
 * {@code violations} and {@code rewritten_sql} (plus {@code parameters}, {@code tables}, {@code message}), and
 * {@code engine_tested}: false for the experimental dialects (SQL Server, Oracle, generic), whose verdicts
 * no real engine ever confirmed.
 */
@Command(name = "guard", mixinStandardHelpOptions = true,
        description = "Check SQL (one per line on stdin) against a guard policy; print one JSON verdict per line.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every line was checked, whatever the verdicts",
            "1:internal error (a bug: please report it)",
            "2:usage error: a bad or missing option",
            "5:the --sqlite file cannot be read"})
final class GuardCommand implements Callable<Integer> {

    @Mixin
    PolicyOptions policyOptions = new PolicyOptions();

    @Option(names = "--dialect", defaultValue = "generic",
            description = "h2, sqlite, postgresql, mysql, mariadb, duckdb; experimental (no engine in the tests, "
                    + "parse-only verdicts): sqlserver, oracle, generic (default ${DEFAULT-VALUE}).")
    String dialect;

    @Option(names = "--sqlite", paramLabel = "DB",
            description = "A SQLite database file: allow its tables and default the dialect to sqlite.")
    Path sqlite;

    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;

    GuardCommand() {
        this(System.in, System.out, System.err);
    }

    GuardCommand(InputStream in, PrintStream out, PrintStream err) {
        this.in = in;
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws IOException {
        Dialect d;
        GuardPolicy policy;
        String unreadable = sqlite == null ? null : Causes.unreadable(sqlite, "--sqlite");
        if (unreadable != null) {
            err.println("guard: " + unreadable);
            return ExitCodes.UNREACHABLE;
        }
        try {
            d = sqlite != null && dialect.equals("generic") ? Dialect.SQLITE : Dialect.parse(dialect);
            List<String> tables = new ArrayList<>(policyOptions.allowTables);
            if (sqlite != null) {
                tables.addAll(sqliteTables(sqlite));
            }
            GuardPolicy.Builder b = policyOptions.builder().allowTables(tables);
            policy = b.build();
        } catch (IllegalArgumentException | IllegalStateException | SQLException e) {
            err.println("guard: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        SqlGuard guard = SqlGuard.create();
        JsonFactory json = new JsonFactory();
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String line;
        while ((line = reader.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            write(json, out, line, guard.check(line, policy, d), d);
        }
        out.flush();
        return ExitCodes.OK;
    }

    private static void write(JsonFactory json, OutputStream out, String sql, GuardVerdict v, Dialect d)
            throws IOException {
        try (JsonGenerator g = json.createGenerator(new NonClosing(out))) {
            g.writeStartObject();
            g.writeStringField("sql", sql);
            if (v instanceof GuardVerdict.Accepted) {
                GuardVerdict.Accepted a = (GuardVerdict.Accepted) v;
                g.writeStringField("verdict", "ACCEPTED");
                g.writeArrayFieldStart("violations");
                g.writeEndArray();
                g.writeStringField("rewritten_sql", a.statement().sql());
                g.writeArrayFieldStart("parameters");
                for (Object p : a.statement().parameters()) {
                    g.writeString(String.valueOf(p));
                }
                g.writeEndArray();
                g.writeArrayFieldStart("tables");
                for (String t : a.tables()) {
                    g.writeString(t);
                }
                g.writeEndArray();
            } else if (v instanceof GuardVerdict.Rejected) {
                g.writeStringField("verdict", "REJECTED");
                g.writeArrayFieldStart("violations");
                for (Violation x : ((GuardVerdict.Rejected) v).violations()) {
                    g.writeStartObject();
                    g.writeStringField("type", x.type().name());
                    g.writeStringField("fragment", x.fragment());
                    g.writeStringField("message", x.message());
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeNullField("rewritten_sql");
            } else {
                g.writeStringField("verdict", "UNPARSEABLE");
                g.writeArrayFieldStart("violations");
                g.writeEndArray();
                g.writeNullField("rewritten_sql");
                g.writeStringField("message", ((GuardVerdict.Unparseable) v).message());
            }
            g.writeBooleanField("engine_tested", d.engineTested());
            g.writeEndObject();
        }
        out.write('\n');
    }

    private static List<String> sqliteTables(Path db) throws SQLException {
        if (!Files.isRegularFile(db)) {
            throw new IllegalArgumentException("--sqlite: no such file " + db);
        }
        List<String> tables = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db.toAbsolutePath() + "?mode=ro");
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(
                     "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'")) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        return tables;
    }

    /** Lets the generator flush without closing standard output. */
    private static final class NonClosing extends java.io.FilterOutputStream {
        NonClosing(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
