package dev.sqlagent.examples.cli;

import dev.sqlagent.Dialect;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.engine.PrivilegeReport;
import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.llm.LlmException;
import dev.sqlagent.mcp.HttpEndpoint;
import dev.sqlagent.mcp.LoginTooBroadException;
import dev.sqlagent.mcp.SqlAgentMcpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The {@code mcp} command: a governed database MCP server ({@link SqlAgentMcpServer}) for AI agents, over
 * stdio (a desktop assistant starts it) or Streamable HTTP with a bearer token. Standard output carries the
 * MCP messages over stdio; everything else goes to standard error.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Serve a database to AI agents over MCP (stdio, or Streamable HTTP with --http): tools query "
                + "(one SELECT the agent writes, through the guard, the engine check and read-only execution), "
                + "describe (the schema the policy allows) and, with a model, ask (a question through the governed "
                + "agent); resource sqlagent://schema.",
                "The login is audited at start: one that can read what the policy forbids, or write, stops the "
                + "server unless --allow-broad-login."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the client closed standard input (stdio), or the server was stopped",
            "1:internal error (a bug: please report it)",
            "2:usage error: a bad or missing option, no driver for the JDBC URL, a missing environment variable",
            "3:refused: the login can do more than the policy allows (see the report) and --allow-broad-login was "
                + "not given",
            "5:the database cannot be reached: a missing file, an unknown host, nothing listening, a refused login"},
        footerHeading = "%nExample (desktop assistant, stdio):%n",
        footer = {
            "  java -jar sqlagent.jar mcp --jdbc-url jdbc:postgresql://localhost:5432/shop \\",
            "    --user mcp_reader --password-env SHOP_DB_PASSWORD \\",
            "    --allow-tables orders,customers --deny-columns customers.email",
            "Over HTTP: add --http --port 8765 --token-env SQLAGENT_MCP_TOKEN; clients send",
            "  Authorization: Bearer <the token> to http://127.0.0.1:8765/mcp"})
final class McpCommand implements Callable<Integer> {

    static final int OK = ExitCodes.OK;
    static final int INTERNAL = ExitCodes.INTERNAL;
    static final int USAGE = ExitCodes.USAGE;
    static final int BROAD_LOGIN = ExitCodes.REFUSED;
    static final int UNREACHABLE = ExitCodes.UNREACHABLE;

    @Option(names = "--jdbc-url", required = true, paramLabel = "URL", description = "The database's JDBC URL.")
    String jdbcUrl;

    @Option(names = "--user", paramLabel = "U", description = "The database login (prefer one that can read only "
            + "the allowed tables and columns).")
    String user;

    @Option(names = "--password-env", paramLabel = "VAR",
            description = "The environment variable holding the database password (never given on the command line).")
    String passwordEnv;

    @Mixin
    PolicyOptions policyOptions = new PolicyOptions();

    @Option(names = "--dialect", paramLabel = "NAME",
            description = "h2, sqlite, postgresql, mysql, mariadb (default: from the database).")
    String dialect;

    @Option(names = "--timeout-seconds", defaultValue = "30", paramLabel = "S",
            description = "Query timeout (default ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Option(names = "--allow-broad-login", description = "Start even when the login can read what the policy forbids,"
            + " or write: the guard and the engine check are then the only defence for it.")
    boolean allowBroadLogin;

    @Option(names = "--http", description = "Serve Streamable HTTP instead of stdio; needs --token-env.")
    boolean http;

    @Option(names = "--port", defaultValue = "8765", paramLabel = "N", description = "HTTP port (default ${DEFAULT-VALUE}; 0: any free port).")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
            description = "HTTP address to bind (default ${DEFAULT-VALUE}); anything but loopback needs TLS in front.")
    String bind;

    @Option(names = "--token-env", paramLabel = "VAR",
            description = "The environment variable holding the bearer token HTTP clients must send (at least "
                    + SqlAgentMcpServer.MIN_TOKEN_LENGTH + " characters).")
    String tokenEnv;

    @Option(names = "--allowed-origin", paramLabel = "ORIGIN",
            description = "A web origin whose pages may call the HTTP endpoint (default none). Repeatable.")
    List<String> allowedOrigins = new ArrayList<>();

    @Option(names = "--max-result-rows", paramLabel = "N", defaultValue = "" + SqlAgentMcpServer.DEFAULT_MAX_RESULT_ROWS,
            description = "Most rows one tool result carries (default ${DEFAULT-VALUE}); a cut result says so.")
    int maxResultRows;

    @Option(names = "--max-cell-chars", paramLabel = "N", defaultValue = "" + SqlAgentMcpServer.DEFAULT_MAX_CELL_CHARS,
            description = "Longest value one tool result carries, in characters (default ${DEFAULT-VALUE}).")
    int maxCellChars;

    @Option(names = "--max-result-bytes", paramLabel = "N", defaultValue = "" + SqlAgentMcpServer.DEFAULT_MAX_RESULT_BYTES,
            description = "Largest tool result, text and structured content together, in bytes (default "
                    + "${DEFAULT-VALUE}; MCP clients refuse messages over 1 MiB).")
    int maxResultBytes;

    @Option(names = "--base-url", paramLabel = "URL", description = "An OpenAI-compatible endpoint for the ask tool.")
    String baseUrl;

    @Option(names = "--model", paramLabel = "NAME", description = "The model's name; with a model the ask tool is "
            + "offered (also from SQLAGENT_LLM_* or OPENAI_* variables).")
    String model;

    @Option(names = "--api-key-env", paramLabel = "VAR", description = "The environment variable holding the model's API key.")
    String apiKeyEnv;

    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> env;

    McpCommand() {
        this(System.in, System.out, System.err, System.getenv());
    }

    McpCommand(InputStream in, PrintStream out, PrintStream err, Map<String, String> env) {
        this.in = in;
        this.out = out;
        this.err = err;
        this.env = env;
    }

    /** A setup error with its exit code. */
    private static final class Stop extends Exception {
        private static final long serialVersionUID = 1L;
        final int code;

        Stop(int code, String message) {
            super(message);
            this.code = code;
        }
    }

    @Override
    public Integer call() {
        try {
            return run();
        } catch (Stop e) {
            err.println("mcp: " + e.getMessage());
            return e.code;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OK;
        } catch (RuntimeException | IOException e) {
            err.println("mcp: internal error: " + e);
            return INTERNAL;
        } finally {
            err.flush();
        }
    }

    private int run() throws Stop, IOException, InterruptedException {
        String password = variable(passwordEnv, "--password-env");
        String token = http ? variable(tokenEnv, "--token-env") : null;
        if (http && token == null) {
            throw new Stop(USAGE, "--http needs --token-env VAR naming the variable that holds the bearer token");
        }
        if (!http && tokenEnv != null) {
            throw new Stop(USAGE, "--token-env applies to --http only");
        }
        if (policyOptions.allowTables.isEmpty()) {
            throw new Stop(USAGE, "name the tables agents may read with --allow-tables a,b");
        }
        if (timeoutSeconds < 1) {
            throw new Stop(USAGE, "--timeout-seconds must be >= 1 but was " + timeoutSeconds);
        }
        LlmClient llm = model();
        GuardPolicy policy;
        Dialect given;
        try {
            policy = policyOptions.builder().allowTables(policyOptions.allowTables).build();
            given = dialect == null ? null : Dialect.parse(dialect);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new Stop(USAGE, e.getMessage());
        }
        UrlDataSource ds = dataSource(password);
        Dialect d;
        try (Connection c = ds.getConnection()) {
            d = given != null ? given : Dialect.fromProductName(c.getMetaData().getDatabaseProductName());
        } catch (SQLException e) {
            throw new Stop(UNREACHABLE, Causes.connection(e, redact(jdbcUrl), user));
        } catch (IllegalArgumentException e) {
            throw new Stop(USAGE, e.getMessage());
        }
        SqlAgent agent;
        try {
            agent = SqlAgent.builder().llm(llm != null ? llm : NO_MODEL).dataSource(ds).dialect(d).policy(policy)
                    .queryTimeout(Duration.ofSeconds(timeoutSeconds)).build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new Stop(USAGE, e.getMessage());
        }
        try (agent) {
            SqlAgentMcpServer.Builder b = SqlAgentMcpServer.builder().agent(agent)
                    .askTool(llm != null).allowBroadLogin(allowBroadLogin);
            try {
                b.maxResultRows(maxResultRows).maxCellChars(maxCellChars).maxResultBytes(maxResultBytes);
                if (http) {
                    // HTTP only: no stdio client to audit or name
                    b.policyFor("http", token, policy);
                    b.allowedOrigins(allowedOrigins.toArray(new String[0]));
                } else {
                    b.policy(policy);
                }
            } catch (IllegalArgumentException e) {
                throw new Stop(USAGE, e.getMessage());
            }
            SqlAgentMcpServer server;
            try {
                server = b.build();
            } catch (LoginTooBroadException e) {
                // the library logs each report at WARN; the refusal names what the login can do and the way out
                throw new Stop(BROAD_LOGIN, e.getMessage());
            } catch (IllegalStateException | IllegalArgumentException e) {
                throw new Stop(USAGE, e.getMessage());
            }
            boolean broad = server.audits().values().stream().anyMatch(PrivilegeReport::guardIsOnlyDefence);
            if (broad && allowBroadLogin) {
                err.println("mcp: WARNING: --allow-broad-login: the guard is the only defence for what the database "
                        + "does not refuse below");
            }
            err.print(server.defences().lines().map(l -> "mcp: " + l + "\n").reduce("", String::concat));
            if (http) {
                serveHttp(server);
            } else {
                err.println("mcp: serving " + d + " at " + redact(jdbcUrl) + " over stdio; tables "
                        + String.join(", ", policy.allowedTables()) + (llm == null ? "; no model, so no ask tool" : ""));
                server.serveStdio(in, out);
            }
            return OK;
        }
    }

    private void serveHttp(SqlAgentMcpServer server) throws Stop, InterruptedException {
        InetAddress address;
        try {
            address = InetAddress.getByName(bind);
        } catch (IOException e) {
            throw new Stop(USAGE, "--bind: unknown address " + bind);
        }
        if (port < 0 || port > 65_535) {
            throw new Stop(USAGE, "--port must be in [0, 65535] but was " + port);
        }
        HttpEndpoint endpoint;
        try {
            endpoint = server.startHttp(new InetSocketAddress(address, port));
        } catch (IOException e) {
            throw new Stop(USAGE, "cannot listen on " + bind + ":" + port + ": " + e.getMessage());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            endpoint.close();
            stopped.countDown();
        }, "sqlagent-mcp-stop"));
        if (!address.isLoopbackAddress()) {
            err.println("mcp: WARNING: listening beyond loopback; put TLS in front: the token travels in every request");
        }
        err.println("mcp: listening on " + endpoint.uri() + " (Authorization: Bearer <the value of " + tokenEnv + ">)");
        err.flush();
        stopped.await();
    }

    /** The model for ask, from the options or the environment; null when none is configured. */
    private LlmClient model() throws Stop {
        boolean fromOptions = baseUrl != null || model != null || apiKeyEnv != null;
        if (fromOptions && model == null) {
            throw new Stop(USAGE, "--model is required with --base-url or --api-key-env");
        }
        try {
            return RealModel.choose(baseUrl, variable(apiKeyEnv, "--api-key-env"), model);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new Stop(USAGE, "the model: " + e.getMessage());
        }
    }

    /** The agent needs a model to be built; without one only query and describe are offered, which call none. */
    private static final LlmClient NO_MODEL = request -> {
        throw new LlmException(LlmException.Kind.OTHER, "no model is configured for this MCP server");
    };

    private String variable(String name, String option) throws Stop {
        if (name == null) {
            return null;
        }
        String v = env.get(name);
        if (v == null) {
            throw new Stop(USAGE, "environment variable " + name + " (" + option + ") is not set");
        }
        return v;
    }

    private UrlDataSource dataSource(String password) throws Stop {
        if (!jdbcUrl.startsWith("jdbc:")) {
            throw new Stop(USAGE, "--jdbc-url must start with jdbc: but was " + redact(jdbcUrl));
        }
        try {
            DriverManager.getDriver(jdbcUrl);
        } catch (SQLException e) {
            throw new Stop(USAGE, "no driver for " + redact(jdbcUrl) + ": " + Causes.DRIVERS);
        }
        if (AskCommand.sqliteFile(jdbcUrl) != null) {
            String why = Causes.unreadable(AskCommand.sqliteFile(jdbcUrl), "the SQLite file of --jdbc-url");
            if (why != null) {
                throw new Stop(UNREACHABLE, why);
            }
        }
        UrlDataSource ds = new UrlDataSource(readOnly(AskCommand.h2WithoutCreation(jdbcUrl)), user, password);
        ds.setLoginTimeout(timeoutSeconds);
        return ds;
    }

    /**
     * A SQLite file given as {@code jdbc:sqlite:PATH} is opened read-only ({@code file:PATH?mode=ro}): the server
     * never writes, and the database then refuses writes too, so the start-up audit passes without
     * {@code --allow-broad-login}. A URL with its own parameters is taken as given.
     */
    static String readOnly(String url) {
        if (!url.startsWith("jdbc:sqlite:") || url.contains("?") || url.startsWith("jdbc:sqlite:file:")
                || url.contains(":memory:")) {
            return url;
        }
        return "jdbc:sqlite:file:" + url.substring("jdbc:sqlite:".length()) + "?mode=ro";
    }

    private static String redact(String url) {
        return AskCommand.redact(url);
    }
}
