package dev.sqlagent.examples.cli;

import dev.sqlagent.AgentResult;
import dev.sqlagent.Conversation;
import dev.sqlagent.Dialect;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.DuckDbFiles;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.engine.PrivilegeAudit;
import dev.sqlagent.guard.engine.PrivilegeReport;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.llm.LlmClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import javax.sql.DataSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code ask} command: questions in natural language against any database the jar has a driver for,
 * through the governed agent (guard, read-only execution, one correction) and a real OpenAI-compatible
 * model. With a question, answers it and exits with a code that says how it ended; without one, keeps a
 * conversation over standard input (follow-ups are rewritten into self-contained questions).
 *
 * <p>{@code --json} prints one object per question: the library's {@link AgentResult#toJson()} form
 * (see {@link ResultJson}), as {@code demo --json} does, and {@code asked}.
 */
@Command(name = "ask", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Ask a database questions in natural language through the governed agent and a real "
                + "OpenAI-compatible model.",
                "With QUESTION: answers it (the table, then the SQL) and exits. Without: reads one question per line "
                + "from standard input as a conversation (follow-ups such as \"and last year?\" are rewritten from "
                + "the earlier turns) until end of input, 'exit' or 'quit'; line editing and history on a terminal.",
                "The tables the model may read must be named: --allow-tables a,b, or --all-tables for every table "
                + "and view of the login's current schema that the login can read (printed on stderr). Only SELECTs "
                + "the guard accepts run, read-only; still, prefer a login that can read no more than the policy "
                + "allows (ask warns when it can; see the audit command). The model sees the question, the allowed tables' columns and the conversation's "
                + "earlier questions and SQL, never result rows."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:answered (interactive: the input ended)",
            "1:internal error (a bug: please report it, with --debug's stack trace)",
            "2:usage error: a bad or missing option, no model configured, no driver for the JDBC URL",
            "3:rejected: the guard refused the SQL the model wrote",
            "4:failed: no answer (the model or the database failed, or the SQL still failed after its correction)",
            "5:the database cannot be reached: connection refused, unknown host or file, login refused"},
        footerHeading = "%nEnvironment:%n",
        footer = {
            "  SQLAGENT_LLM_BASE_URL, SQLAGENT_LLM_MODEL, SQLAGENT_LLM_API_KEY",
            "    (or OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API_KEY): the model, when none",
            "    of --base-url, --model, --api-key-env is given. With any of them the",
            "    model comes from the options alone, and its key only from --api-key-env,",
            "    so that a key set for one endpoint is never sent to another.",
            "  The database password comes only from the variable --password-env names.",
            "",
            "Drivers: H2 (jdbc:h2:), SQLite (jdbc:sqlite:FILE), PostgreSQL",
            "  (jdbc:postgresql://), MariaDB and MySQL (jdbc:mariadb://host/db), Trino",
            "  (jdbc:trino://host:8080/catalog/schema; see docs/trino.md),",
            "  DuckDB (--csv, --parquet, --duckdb: in-process, locked to the files given).",
            "  Dialects sqlserver, oracle and generic are experimental: no engine runs",
            "  them in the tests.",
            "  An H2 or SQLite file must exist: ask never creates a database.",
            "",
            "Example:",
            "  export SQLAGENT_LLM_BASE_URL=http://localhost:8000/v1",
            "  export SQLAGENT_LLM_MODEL=qwen2.5-coder PGPASSWORD=...",
            "  java -jar sqlagent.jar ask --jdbc-url jdbc:postgresql://localhost/shop \\",
            "    --user analyst --password-env PGPASSWORD \\",
            "    --allow-tables orders,customers \"How many orders were placed in 2023?\""})
final class AskCommand implements Callable<Integer> {

    /** Exit code: answered, or the interactive input ended. */
    static final int ANSWERED = ExitCodes.OK;
    /** Exit code: a bug. */
    static final int INTERNAL = ExitCodes.INTERNAL;
    /** Exit code: bad options or configuration. */
    static final int USAGE = ExitCodes.USAGE;
    /** Exit code: the guard refused the SQL. */
    static final int REJECTED = ExitCodes.REFUSED;
    /** Exit code: no answer. */
    static final int FAILED = ExitCodes.FAILED;
    /** Exit code: the database cannot be reached. */
    static final int UNREACHABLE = ExitCodes.UNREACHABLE;

    @Option(names = "--jdbc-url", paramLabel = "URL", description = "The database's JDBC URL (or --csv, --parquet,"
            + " --duckdb).")
    String jdbcUrl;

    @Option(names = "--csv", paramLabel = "NAME=FILE", description = "A CSV file as the table NAME, in an in-process "
            + "DuckDB locked to the registered files (repeatable). The tables default to the registered ones.")
    List<String> csv = new ArrayList<>();

    @Option(names = "--parquet", paramLabel = "NAME=FILE", description = "A Parquet file as the table NAME, as --csv"
            + " (repeatable).")
    List<String> parquet = new ArrayList<>();

    @Option(names = "--duckdb", paramLabel = "FILE", description = "A DuckDB database file, opened read-only and "
            + "locked (no file, URL, extension or setting reachable from SQL).")
    Path duckdbFile;

    @Option(names = "--user", paramLabel = "U", description = "The database login.")
    String user;

    @Option(names = "--password-env", paramLabel = "VAR",
            description = "The environment variable holding the database password (never given on the command line).")
    String passwordEnv;

    @Option(names = "--base-url", paramLabel = "URL",
            description = "The OpenAI-compatible endpoint (default with --model: OpenAI's).")
    String baseUrl;

    @Option(names = "--model", paramLabel = "NAME", description = "The model's name.")
    String model;

    @Option(names = "--api-key-env", paramLabel = "VAR",
            description = "The environment variable holding the model's API key (none: no key is sent).")
    String apiKeyEnv;

    @Option(names = "--all-tables", description = "Allow every table and view of the login's current schema "
            + "that the login can read, instead of naming them with --allow-tables; the list is printed on stderr.")
    boolean allTables;

    @Mixin
    PolicyOptions policyOptions = new PolicyOptions();

    @Option(names = "--dialect", paramLabel = "NAME",
            description = "h2, sqlite, postgresql, mysql, mariadb, duckdb; experimental: sqlserver, oracle, generic "
                    + "(default: from the database).")
    String dialect;

    @Option(names = "--timeout-seconds", defaultValue = "30", paramLabel = "S",
            description = "Query timeout (default ${DEFAULT-VALUE}); connecting may take as long.")
    int timeoutSeconds;

    @Option(names = "--json", description = "One JSON object per question (the fields of demo --json, and more).")
    boolean json;

    @Option(names = "--trace", description = "Print the whole trace: model calls, guard verdicts, executions, the"
            + " correction (on stderr with --json).")
    boolean trace;

    @Option(names = "--debug", description = "Print stack traces of errors.")
    boolean debug;

    @Parameters(paramLabel = "QUESTION", arity = "0..*",
            description = "The question (the words are joined); none: interactive.")
    List<String> question = new ArrayList<>();

    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> env;
    private final boolean terminal;

    AskCommand() {
        this(System.in, System.out, System.err, System.getenv(), LineInput.stdinIsTerminal());
    }

    /**
     * @param terminal whether {@code in} is the process's terminal: line editing and prompts
     */
    AskCommand(InputStream in, PrintStream out, PrintStream err, Map<String, String> env, boolean terminal) {
        this.in = in;
        this.out = out;
        this.err = err;
        this.env = env;
        this.terminal = terminal;
    }

    /** A setup error with its exit code and a one-line message. */
    private static final class Stop extends Exception {
        private static final long serialVersionUID = 1L;
        final int code;

        Stop(int code, String message, Throwable cause) {
            super(message, cause);
            this.code = code;
        }
    }

    @Override
    public Integer call() {
        try {
            return run();
        } catch (Stop e) {
            err.println("ask: " + e.getMessage());
            if (debug && e.getCause() != null) {
                e.getCause().printStackTrace(err);
            }
            return e.code;
        } catch (RuntimeException | IOException e) {
            err.println("ask: internal error: " + e + (debug ? "" : " (--debug shows where)"));
            if (debug) {
                e.printStackTrace(err);
            }
            return INTERNAL;
        } finally {
            out.flush();
            err.flush();
        }
    }

    private int run() throws Stop, IOException {
        String password = variable(passwordEnv, "--password-env");
        LlmClient llm = model();
        if (timeoutSeconds < 1) {
            throw new Stop(USAGE, "--timeout-seconds must be >= 1 but was " + timeoutSeconds, null);
        }
        boolean files = !csv.isEmpty() || !parquet.isEmpty();
        if ((files || duckdbFile != null) == (jdbcUrl != null)) {
            throw new Stop(USAGE, jdbcUrl != null ? "give --jdbc-url or files (--csv, --parquet, --duckdb), not both"
                    : "give the database: --jdbc-url URL, --csv NAME=FILE, --parquet NAME=FILE or --duckdb FILE", null);
        }
        if (files && duckdbFile != null) {
            throw new Stop(USAGE, "give --duckdb or --csv/--parquet files, not both", null);
        }
        if (files && !allTables && policyOptions.allowTables.isEmpty()) {
            allTables = true; // the registered files are the tables
        }
        if (allTables == !policyOptions.allowTables.isEmpty()) {
            throw new Stop(USAGE, allTables ? "give --allow-tables or --all-tables, not both"
                    : "name the tables the model may read with --allow-tables a,b (or allow every table and view of"
                    + " the login's current schema with --all-tables)", null);
        }
        GuardPolicy.Builder policy;
        Dialect given;
        try {
            policy = policyOptions.builder();
            given = dialect == null ? null : Dialect.parse(dialect);
        } catch (IllegalArgumentException e) {
            throw new Stop(USAGE, e.getMessage(), e);
        }
        DataSource ds = jdbcUrl != null ? dataSource(password) : duckDb();
        try {
            return run(llm, policy, given, ds);
        } finally {
            if (ds instanceof DuckDbFiles db) {
                db.close();
            }
        }
    }

    /** The files or the DuckDB file, registered and locked ({@link DuckDbFiles}). */
    private DuckDbFiles duckDb() throws Stop {
        DuckDbFiles.Builder b = DuckDbFiles.builder();
        // a file that cannot be read is a database that cannot be reached (5), as a missing SQLite file is
        for (String[] f : pairs(csv, "--csv")) {
            unreadable(Path.of(f[1]), "--csv");
        }
        for (String[] f : pairs(parquet, "--parquet")) {
            unreadable(Path.of(f[1]), "--parquet");
        }
        if (duckdbFile != null) {
            unreadable(duckdbFile, "--duckdb");
        }
        try {
            for (String[] f : pairs(csv, "--csv")) {
                b.csv(f[0], Path.of(f[1]));
            }
            for (String[] f : pairs(parquet, "--parquet")) {
                b.parquet(f[0], Path.of(f[1]));
            }
            if (duckdbFile != null) {
                b.database(duckdbFile);
            }
        } catch (IllegalArgumentException e) {
            throw new Stop(USAGE, e.getMessage(), e);
        }
        try {
            return b.open();
        } catch (SQLException e) {
            throw new Stop(UNREACHABLE, "DuckDB cannot open the files: " + oneLine(e), e);
        } catch (LinkageError | IllegalStateException e) {
            throw new Stop(USAGE, "DuckDB: " + e.getMessage(), e);
        }
    }

    private static void unreadable(Path file, String option) throws Stop {
        String why = Causes.unreadable(file, option);
        if (why != null) {
            throw new Stop(UNREACHABLE, why, null);
        }
    }

    private static List<String[]> pairs(List<String> values, String option) throws Stop {
        List<String[]> out = new ArrayList<>();
        for (String v : values) {
            int eq = v.indexOf('=');
            if (eq <= 0 || eq == v.length() - 1) {
                throw new Stop(USAGE, option + " takes NAME=FILE but was " + v, null);
            }
            out.add(new String[] {v.substring(0, eq), v.substring(eq + 1)});
        }
        return out;
    }

    /** Where the data is, for messages. */
    private String where() {
        if (jdbcUrl != null) {
            return redact(jdbcUrl);
        }
        return duckdbFile != null ? "DuckDB file " + duckdbFile : "DuckDB over the files given";
    }

    private int run(LlmClient llm, GuardPolicy.Builder policy, Dialect given, DataSource ds) throws Stop, IOException {
        Dialect d;
        List<String> tables = new ArrayList<>(policyOptions.allowTables);
        String schema = null;
        try (Connection c = ds.getConnection()) {
            d = given != null ? given : Dialect.fromProductName(c.getMetaData().getDatabaseProductName());
            if (allTables) {
                if ((d == Dialect.MARIADB || d == Dialect.MYSQL) && c.getCatalog() == null) {
                    throw new Stop(USAGE, "--all-tables: the URL selects no database; name one, as in"
                            + " jdbc:mariadb://host/db", null);
                }
                tables.addAll(currentSchemaTables(c));
                schema = d == Dialect.MARIADB || d == Dialect.MYSQL ? c.getCatalog() : schemaOf(c);
            }
        } catch (SQLException e) {
            throw new Stop(UNREACHABLE, Causes.connection(e, where(), user), e);
        }
        if (allTables) {
            tables = readable(ds, d, schema, tables);
            if (tables.isEmpty()) {
                throw new Stop(USAGE, "--all-tables: the login can read no table or view of its current schema", null);
            }
            err.println("ask: --all-tables: the policy allows every table and view of the current schema that the"
                    + " login can read ("
                    + tables.size() + "): " + String.join(", ", tables) + ". The model is shown their columns, and"
                    + " answers may show any row the login can read in them; name tables with --allow-tables to"
                    + " allow fewer.");
        }
        GuardPolicy p;
        try {
            p = policy.allowTables(tables).build();
            rowCap = p.maxRows();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new Stop(USAGE, e.getMessage(), e);
        }
        SqlAgent agent;
        try {
            agent = SqlAgent.builder().llm(llm).dataSource(ds).dialect(d).policy(p)
                    .queryTimeout(Duration.ofSeconds(timeoutSeconds)).build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new Stop(USAGE, e.getMessage(), e);
        }
        try (agent) {
            warnWiderLogin(agent);
            if (!question.isEmpty()) {
                String q = String.join(" ", question).strip();
                if (q.isEmpty()) {
                    throw new Stop(USAGE, "the question is blank", null);
                }
                AgentResult r = agent.ask(q);
                print(q, r);
                return code(r);
            }
            converse(agent, d, tables);
            return ANSWERED;
        }
    }

    private void converse(SqlAgent agent, Dialect d, List<String> tables) throws IOException {
        if (terminal) {
            err.println("sqlagent ask: " + d + " at " + where() + "; the policy allows " + String.join(", ", tables)
                    + ".");
            err.println("One question per line; follow-ups may refer to earlier answers. 'exit', 'quit' or Ctrl-D"
                    + " leaves.");
        }
        Conversation conversation = agent.conversation();
        try (LineInput lines = terminal ? LineInput.systemTerminal(out) : LineInput.plain(in, null)) {
            String line;
            while ((line = lines.read(LineInput.PROMPT)) != null) {
                String q = line.strip();
                if (q.isEmpty()) {
                    continue;
                }
                String word = q.toLowerCase(Locale.ROOT);
                if (word.equals("exit") || word.equals("quit") || word.equals("\\q")) {
                    break;
                }
                print(q, conversation.ask(q));
                if (!json) {
                    out.println();
                }
                out.flush();
            }
        }
    }

    private static int code(AgentResult r) {
        switch (r.status()) {
            case ANSWERED:
                return ANSWERED;
            case REJECTED:
                return REJECTED;
            default:
                return FAILED;
        }
    }

    /** The model from the options, else from the environment; {@link RealModel} decides, as for demo. */
    private LlmClient model() throws Stop {
        boolean fromOptions = baseUrl != null || model != null || apiKeyEnv != null;
        if (fromOptions && model == null) {
            throw new Stop(USAGE, "--model is required with --base-url or --api-key-env", null);
        }
        String key = variable(apiKeyEnv, "--api-key-env");
        LlmClient llm;
        try {
            llm = RealModel.choose(baseUrl, key, model);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new Stop(USAGE, "the model: " + e.getMessage(), e);
        }
        if (llm == null) {
            throw new Stop(USAGE, "no model: give --base-url URL --model NAME (and --api-key-env VAR if it needs a"
                    + " key), or set SQLAGENT_LLM_BASE_URL and SQLAGENT_LLM_MODEL (and SQLAGENT_LLM_API_KEY)", null);
        }
        return llm;
    }

    /** The value of the environment variable an option names; null when the option is absent. */
    private String variable(String name, String option) throws Stop {
        if (name == null) {
            return null;
        }
        String v = env.get(name);
        if (v == null) {
            throw new Stop(USAGE, "environment variable " + name + " (" + option + ") is not set", null);
        }
        return v;
    }

    private UrlDataSource dataSource(String password) throws Stop {
        if (!jdbcUrl.startsWith("jdbc:")) {
            throw new Stop(USAGE, "--jdbc-url must start with jdbc: but was " + redact(jdbcUrl), null);
        }
        try {
            DriverManager.getDriver(jdbcUrl);
        } catch (SQLException e) {
            throw new Stop(USAGE, "no driver for " + redact(jdbcUrl) + ": " + Causes.DRIVERS, e);
        }
        Path sqliteFile = sqliteFile(jdbcUrl);
        String unreadable = sqliteFile == null ? null : Causes.unreadable(sqliteFile, "the SQLite file of --jdbc-url");
        if (unreadable != null) {
            // sqlite-jdbc would create an empty database there
            throw new Stop(UNREACHABLE, unreadable, null);
        }
        UrlDataSource ds = new UrlDataSource(h2WithoutCreation(jdbcUrl), user, password);
        ds.setLoginTimeout(timeoutSeconds);
        return ds;
    }

    /** The file of a {@code jdbc:sqlite:} URL, or null for memory and other engines. */
    static Path sqliteFile(String url) {
        if (!url.startsWith("jdbc:sqlite:")) {
            return null;
        }
        String f = url.substring("jdbc:sqlite:".length());
        int q = f.indexOf('?');
        String params = q < 0 ? "" : f.substring(q);
        f = q < 0 ? f : f.substring(0, q);
        if (f.startsWith("file:")) {
            f = f.substring("file:".length());
        }
        if (f.isEmpty() || f.startsWith(":memory:") || f.startsWith(":resource:") || params.contains("mode=memory")) {
            return null;
        }
        return Path.of(f);
    }

    /**
     * An embedded H2 URL with {@code IFEXISTS=TRUE}, so that a mistyped path fails instead of creating an
     * empty database; other URLs (memory, server, other engines, or IFEXISTS already given) as they are.
     */
    static String h2WithoutCreation(String url) {
        if (!url.startsWith("jdbc:h2:")) {
            return url;
        }
        String rest = url.substring("jdbc:h2:".length()).toLowerCase(Locale.ROOT);
        if (rest.startsWith("mem:") || rest.startsWith("tcp:") || rest.startsWith("ssl:") || rest.contains("ifexists=")) {
            return url;
        }
        return url + ";IFEXISTS=TRUE";
    }

    private static String schemaOf(Connection c) {
        try {
            return c.getSchema();
        } catch (SQLException | AbstractMethodError e) {
            return null;
        }
    }

    /**
     * The tables of the list the login can read, as the library's privilege audit finds them (with a policy
     * that allows none of them, the audit lists every table the login can read); those left out are named
     * on stderr. On an engine without an audit, every table, with a note.
     */
    private List<String> readable(DataSource ds, Dialect d, String schema, List<String> tables) throws Stop {
        String none = "sqlagent_no_such_table";
        while (containsIgnoreCase(tables, none)) {
            none += "_";
        }
        PrivilegeReport report;
        try {
            report = PrivilegeAudit.audit(ds, d, GuardPolicy.allowingTables(none));
        } catch (IllegalArgumentException e) {
            err.println("ask: note: --all-tables cannot tell which tables the login may read on " + d
                    + "; every table is offered");
            return tables;
        } catch (SQLException e) {
            throw new Stop(UNREACHABLE, "--all-tables: cannot read the login's privileges: " + oneLine(e), e);
        }
        Set<String> canRead = new java.util.HashSet<>();
        for (String t : report.forbiddenTables()) {
            canRead.add(t.toLowerCase(Locale.ROOT));
        }
        String prefix = schema == null ? "" : schema.toLowerCase(Locale.ROOT) + ".";
        List<String> kept = new ArrayList<>();
        List<String> left = new ArrayList<>();
        for (String t : tables) {
            String bare = t.toLowerCase(Locale.ROOT);
            (canRead.contains(prefix + bare) || canRead.contains(bare) ? kept : left).add(t);
        }
        if (!left.isEmpty()) {
            err.println("ask: --all-tables: left out " + left.size() + " table(s) the login cannot read: "
                    + String.join(", ", left));
        }
        return kept;
    }

    private static boolean containsIgnoreCase(List<String> names, String name) {
        return names.stream().anyMatch(n -> n.equalsIgnoreCase(name));
    }

    /**
     * One line on stderr when the login can read what the policy forbids (the library's privilege audit):
     * the guard is then the only line of defence for it. Silent when the engine has no audit.
     */
    private void warnWiderLogin(SqlAgent agent) {
        PrivilegeReport r;
        try {
            r = agent.audit();
        } catch (IllegalStateException | SQLException e) {
            return;
        }
        List<String> reads = new ArrayList<>(r.forbiddenTables());
        reads.addAll(r.deniedColumns());
        if (!reads.isEmpty()) {
            String shown = String.join(", ", reads.subList(0, Math.min(5, reads.size())))
                    + (reads.size() > 5 ? " and " + (reads.size() - 5) + " more" : "");
            err.println("ask: warning: the login can read what the policy forbids (" + shown + "); the guard is the"
                    + " only line of defence for it. A login that cannot: see the audit command.");
        }
    }

    /** Tables and views of the connection's current catalog and schema, in the database's spelling. */
    private static List<String> currentSchemaTables(Connection c) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        String schema = schemaOf(c);
        Set<String> names = new TreeSet<>();
        try (ResultSet rs = md.getTables(c.getCatalog(), schema, "%", new String[] {"TABLE", "VIEW"})) {
            while (rs.next()) {
                String name = rs.getString("TABLE_NAME");
                if (!name.toLowerCase(Locale.ROOT).startsWith("sqlite_")) {
                    names.add(name);
                }
            }
        }
        return new ArrayList<>(names);
    }

    private void print(String asked, AgentResult r) {
        if (json) {
            printJson(asked, r);
            if (trace) {
                new TracePrinter(err, false).print(asked, r);
            }
            return;
        }
        if (trace) {
            new TracePrinter(out, false).print(asked, r);
        }
        if (!asked.equals(r.question())) {
            out.println("(understood as: " + r.question() + ")");
        }
        if (r instanceof AgentResult.Answered) {
            AgentResult.Answered a = (AgentResult.Answered) r;
            TextTable.print(out, a.table());
            out.println("SQL: " + whole(a.sqlText()));
            if (!sameSql(a.sqlText(), a.executedSql())) {
                out.println("ran: " + whole(a.executedSql()));
            }
        } else if (r instanceof AgentResult.Rejected) {
            AgentResult.Rejected rej = (AgentResult.Rejected) r;
            out.println("REJECTED by the guard policy; nothing ran:");
            for (Violation v : rej.violations()) {
                out.println("  " + v.type() + " [" + v.fragment() + "]: " + v.message());
            }
            out.println("SQL: " + whole(rej.sqlText()));
        } else {
            AgentResult.Failed f = (AgentResult.Failed) r;
            out.println("FAILED (" + f.kind() + f.errorCategory().map(c -> ", " + c).orElse("") + "): "
                    + TracePrinter.oneLine(f.message()));
            f.lastSql().ifPresent(s -> out.println("SQL: " + whole(s)));
        }
        out.flush();
    }

    /** A SQL as written, whole (never cut, so that it can be copied and run), without outer blank lines. */
    static String whole(String sql) {
        return sql.strip();
    }

    private static boolean sameSql(String a, String b) {
        return a.replaceAll("\\s+", " ").strip().equals(b.replaceAll("\\s+", " ").strip());
    }

    /** The policy's row cap, for the JSON lines' {@code truncated}. */
    private int rowCap = GuardPolicy.DEFAULT_MAX_ROWS;

    private void printJson(String asked, AgentResult r) {
        ResultJson.print(out, r, rowCap, g -> g.writeStringField("asked", asked));
    }

    /** The URL without its parameters and user information, which may hold a password. */
    static String redact(String url) {
        String u = url;
        int cut = u.length();
        for (char c : new char[] {'?', ';', '&'}) {
            int i = u.indexOf(c);
            if (i >= 0 && i < cut) {
                cut = i;
            }
        }
        u = u.substring(0, cut);
        int at = u.indexOf('@');
        int hosts = u.indexOf("//");
        if (at > 0 && hosts >= 0 && at > hosts) {
            u = u.substring(0, hosts + 2) + "…@" + u.substring(at + 1);
        }
        return u;
    }

    /** An exception's message on one line, with its SQLState when there is one. */
    private static String oneLine(SQLException e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        Throwable c = e.getCause();
        if ((m.isBlank() || m.equals("Something unusual has occurred to cause the driver to fail.")) && c != null) {
            m = String.valueOf(c.getMessage());
        }
        return TracePrinter.oneLine(m) + (e.getSQLState() == null ? "" : " (SQLState " + e.getSQLState() + ")");
    }
}
