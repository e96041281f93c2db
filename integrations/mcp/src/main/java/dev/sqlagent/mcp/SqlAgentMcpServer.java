package dev.sqlagent.mcp;

import dev.sqlagent.SqlAgent;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.engine.PrivilegeReport;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A governed database MCP server on the official MCP Java SDK: an outside AI agent (a desktop assistant, an
 * IDE agent, an agent framework) reads a database through a {@link SqlAgent}, over stdio or Streamable HTTP.
 *
 * <ul>
 *   <li>tool {@code query}: one SELECT written by the calling agent, through {@link SqlAgent#query}: the same
 *       guard, engine check, read-only execution, row cap and row filters as the agent's own SQL. A refusal is
 *       a tool error listing the violations and is never corrected; a result is a Markdown table with the row
 *       cap stated, and the same as structured content;</li>
 *   <li>tool {@code ask} (unless {@link Builder#askTool(boolean) turned off}): a question in natural language
 *       through {@link SqlAgent#ask} with the host's model; the answer, the SQL that ran and, on refusal or
 *       failure, the hand-off;</li>
 *   <li>tool {@code describe} and resource {@value #SCHEMA_URI}: the schema visible under the client's policy
 *       ({@link SqlAgent#schema}), with descriptions and relations, no forbidden table, no denied column.</li>
 * </ul>
 *
 * <p>Each connection has its policy: over stdio the one given to {@link Builder#policy} (default: the agent's);
 * over HTTP each request must carry one of the host's bearer tokens, and the token chooses the policy
 * ({@link Builder#policyFor}). The HTTP endpoint binds to loopback unless given another address, refuses
 * browser origins it was not told to allow, a {@code Host} header that is not loopback (on loopback), and a
 * session id used by another token than the one that opened it.
 *
 * <p>{@link Builder#build()} runs the privilege audit ({@link SqlAgent#audit(GuardPolicy)}) for every client's
 * policy: a login that can read what a policy forbids, or write at all, is logged at WARN and the server
 * refuses to start ({@link LoginTooBroadException}) unless the host accepts it with
 * {@link Builder#allowBroadLogin(boolean) allowBroadLogin(true)}. On an engine without logins or grants
 * (SQLite, DuckDB), where no login can be narrower than the file, only a way to write stops it: a file opened
 * read-only starts. {@link #defences()} says which layer defends which limit.
 *
 * <p>Every incoming message is checked before the SDK reads it, on both transports: bad input gets a JSON-RPC
 * error naming what was wrong ({@code -32700}, {@code -32600}, {@code -32601}, {@code -32602}) and the session
 * goes on. Every tool result is bounded in rows, value width and bytes ({@link Builder#maxResultRows},
 * {@link Builder#maxCellChars}, {@link Builder#maxResultBytes}), in its text and its structured content alike,
 * and says what was cut ({@code truncated}, {@code truncation}). {@code notifications/cancelled} cancels the
 * named call's statement in the database. Every call is logged under
 * {@code dev.sqlagent.mcp} with the client's name (never its token) and counted ({@link #callCounts()}); the
 * {@code query} and {@code ask} calls are also questions of the agent: traced, in its metrics and cases.
 *
 * <pre>{@code
 * SqlAgentMcpServer server = SqlAgentMcpServer.builder()
 *     .agent(agent)
 *     .policyFor("analysts", System.getenv("ANALYSTS_TOKEN"), analystPolicy)
 *     .policyFor("support", System.getenv("SUPPORT_TOKEN"), supportPolicy)
 *     .allowBroadLogin(true) // one login serves both: the guard keeps them apart
 *     .build();
 * try (HttpEndpoint http = server.startHttp(8765)) {
 *     ...
 * }
 * }</pre>
 *
 * <p>Thread-safe. The agent is the host's: closing the server stops its endpoints, not the agent.
 */
public final class SqlAgentMcpServer implements AutoCloseable {

    /** The URI of the schema resource. */
    public static final String SCHEMA_URI = "sqlagent://schema";
    /** The HTTP path of the MCP endpoint. */
    public static final String DEFAULT_PATH = "/mcp";
    /** The shortest bearer token accepted, in characters. */
    public static final int MIN_TOKEN_LENGTH = 16;
    /** The largest HTTP request body accepted by default, in bytes. */
    public static final int DEFAULT_MAX_REQUEST_BYTES = 1 << 20;
    /** The most rows one result carries by default. */
    public static final int DEFAULT_MAX_RESULT_ROWS = 1000;
    /** The longest value one result carries by default, in characters; longer ones are cut. */
    public static final int DEFAULT_MAX_CELL_CHARS = 500;
    /** The largest result by default, text and structured content together, in bytes (under 1 MiB, the limit
     * of the MCP Python SDK's stdio client). */
    public static final int DEFAULT_MAX_RESULT_BYTES = 512 * 1024;
    /** The name of the stdio client in logs and audits. */
    public static final String STDIO_CLIENT = "stdio";

    private static final Logger LOG = LoggerFactory.getLogger("dev.sqlagent.mcp");
    /** How long the end of the stdio input waits for the answers to requests already read. */
    private static final long STDIO_DRAIN_MILLIS = 120_000;
    private static final String INSTRUCTIONS = "Governed, read-only access to one database. Call describe first: "
            + "it lists the only tables and columns this connection may read. query runs one SELECT you write; a "
            + "statement the policy refuses is not run, and its violations are final (do not rephrase it to get "
            + "around them). Results are capped; some tables are filtered for this connection.";

    private final SqlAgent agent;
    private final Client stdio;
    private final List<BearerAuth.Token> tokens;
    private final boolean ask;
    private final Set<String> allowedOrigins;
    private final String path;
    private final int maxRequestBytes;
    private final Map<String, PrivilegeReport> audits;
    private final Map<String, LongAdder> calls = Tools.counters();
    private final McpJsonMapper json;
    private final List<HttpEndpoint> endpoints = new CopyOnWriteArrayList<>();
    private final ToolResults.Bounds bounds;
    private final JsonRpcGate.Calls running = new JsonRpcGate.Calls();
    private final boolean stdioAudited;
    private volatile boolean closed;

    private SqlAgentMcpServer(Builder b, Map<String, PrivilegeReport> audits) {
        this.agent = b.agent;
        this.stdio = new Client(STDIO_CLIENT, b.policy != null ? b.policy : b.agent.policy());
        List<BearerAuth.Token> t = new ArrayList<>();
        for (Registration r : b.clients) {
            t.add(new BearerAuth.Token(BearerAuth.digest(r.token()), r.client()));
        }
        this.tokens = List.copyOf(t);
        this.ask = b.ask;
        this.allowedOrigins = Set.copyOf(b.allowedOrigins);
        this.path = b.path;
        this.maxRequestBytes = b.maxRequestBytes;
        this.audits = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(audits));
        this.json = McpJsonDefaults.getMapper();
        this.bounds = new ToolResults.Bounds(b.maxResultRows, b.maxCellChars, b.maxResultBytes);
        this.stdioAudited = b.policy != null || b.clients.isEmpty();
    }

    private static String some(List<String> names) {
        return names.size() <= 5 ? String.join(", ", names)
                : String.join(", ", names.subList(0, 5)) + " and " + (names.size() - 5) + " more";
    }

    /** Whether the engine has no logins or grants, so that no login can be narrower than the file. */
    static boolean noLogins(PrivilegeReport r) {
        return r.dialect() == dev.sqlagent.Dialect.SQLITE || r.dialect() == dev.sqlagent.Dialect.DUCKDB;
    }

    /**
     * Returns, for people, which layer defends which limit for each client: the database itself (its grants,
     * a read-only file) or only the guard and the executor. The command line prints it at start.
     *
     * @return several lines, one block per distinct audit
     */
    public String defences() {
        Map<PrivilegeReport, List<String>> names = new IdentityHashMap<>();
        audits.forEach((name, r) -> names.computeIfAbsent(r, k -> new ArrayList<>()).add(name));
        StringBuilder b = new StringBuilder();
        if (names.isEmpty()) {
            b.append("no audit was possible: the guard, the engine check and the read-only executor are the only ")
                    .append("defence for every limit\n");
        }
        names.forEach((r, clients) -> {
            boolean grants = !noLogins(r);
            b.append("defences for ").append(String.join(", ", clients)).append(" (").append(r.dialect())
                    .append(", login ").append(r.login()).append("):\n");
            b.append("  writes: ").append(r.writes().isEmpty()
                    ? "refused by the database (" + (grants ? "the login has no write privilege" : "opened read-only")
                            + "), and by the guard and the read-only transaction"
                    : "the guard and the read-only transaction only (" + String.join("; ", r.writes()) + ")")
                    .append('\n');
            b.append("  tables outside the policy: ").append(r.forbiddenTables().isEmpty()
                    ? "refused by the database (no grant), and by the guard"
                    : "the guard only (" + (grants ? "the login can read " : r.dialect() + " has no grants; the file "
                            + "holds ") + some(r.forbiddenTables()) + ")").append('\n');
            b.append("  denied columns: ").append(r.deniedColumns().isEmpty()
                    ? (grants ? "refused by the database (no grant), and by the guard" : "none denied")
                    : "the guard only (" + (grants ? "the login can read " + r.deniedColumns()
                            : r.dialect() + " has no grants") + ")").append('\n');
            b.append("  row cap, row filters, time-out: the guard's rewriting and the executor\n");
        });
        return b.toString();
    }

    /**
     * Returns a new builder.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Serves one client over the given streams (newline-delimited JSON-RPC, as a desktop assistant starts a
     * server) under the stdio policy, until the input ends; the requests already read are answered first. Every
     * line is checked before the SDK reads it: one that is not a JSON-RPC message, names a method the server
     * does not offer or an unknown tool gets a JSON-RPC error and the session goes on; a
     * {@code notifications/cancelled} cancels the call it names, and its statement in the database. Nothing
     * else may write to {@code out}: log to standard error.
     *
     * @param in the client's messages, usually {@code System.in}
     * @param out the replies, usually {@code System.out}
     * @throws InterruptedException if interrupted while serving; the session is closed
     * @throws IllegalStateException if the server is closed, or was built for HTTP clients only (with
     *     {@link Builder#policyFor} and without {@link Builder#policy})
     */
    public void serveStdio(InputStream in, OutputStream out) throws InterruptedException {
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(out, "out");
        checkOpen();
        if (!stdioAudited) {
            throw new IllegalStateException("this server was built for HTTP clients only: give the stdio client's "
                    + "policy with policy(...) on the builder to serve stdio");
        }
        StdioLines.Out lines = new StdioLines.Out(out, json);
        StdioLines.Feed feed = new StdioLines.Feed();
        StdioServerTransportProvider transport = new StdioServerTransportProvider(json, feed, lines.forSdk());
        Tools tools = tools();
        JsonRpcGate gate = new JsonRpcGate(json, tools.names(), running);
        McpSyncServer server = server(McpServer.sync(transport), tools, exchange -> stdio);
        LOG.info("mcp server serving stdio with {} tool(s)", tools.names().size());
        StdioLines.In reader = new StdioLines.In(in, maxRequestBytes);
        try {
            // every line is checked before the SDK reads it: a bad one is answered with a JSON-RPC error and
            // the session goes on; the end of the input ends the session
            for (StdioLines.Line line; (line = reader.next()) != null; ) {
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while serving stdio");
                }
                if (line.tooLong()) {
                    lines.write(gate.response(null, Map.of("code", JsonRpcGate.INVALID_REQUEST, "message",
                            "Invalid Request: the message is longer than " + maxRequestBytes + " bytes")));
                    continue;
                }
                if (line.text().isBlank()) {
                    continue;
                }
                JsonRpcGate.Verdict v = gate.check(line.text(), STDIO_CLIENT);
                if (v.isError()) {
                    LOG.info("mcp stdio message refused with {}", v.code());
                    lines.write(v.error());
                } else if (v.pass() != null) {
                    if (v.request() != null) {
                        lines.expect(v.request());
                    }
                    feed.add(v.pass());
                }
            }
            // the input ended: the requests already read are answered before the session closes
            if (!lines.awaitAnswers(STDIO_DRAIN_MILLIS)) {
                LOG.warn("mcp stdio: the input ended and some requests were not answered within {} ms; closing",
                        STDIO_DRAIN_MILLIS);
            }
        } catch (IOException e) {
            LOG.warn("mcp stdio input failed; ending the session: {}", e.toString());
        } finally {
            feed.end();
            server.close();
        }
    }

    /**
     * Starts the Streamable HTTP endpoint on a loopback port ({@code 127.0.0.1}); every request needs one of
     * the {@link Builder#policyFor bearer tokens}.
     *
     * @param port the port, or 0 for one the system chooses ({@link HttpEndpoint#port()})
     * @return the running endpoint
     * @throws IOException if the port cannot be bound
     * @throws IllegalStateException if no bearer token was configured, or the server is closed
     * @throws IllegalArgumentException if the port is out of range
     */
    public HttpEndpoint startHttp(int port) throws IOException {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be in [0, 65535] but was " + port);
        }
        return startHttp(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    }

    /**
     * Starts the Streamable HTTP endpoint on the given address. Binding beyond loopback exposes the database
     * to the network: put TLS in front of it (the bearer tokens travel in every request).
     *
     * @param address the address to bind
     * @return the running endpoint
     * @throws IOException if the address cannot be bound
     * @throws IllegalStateException if no bearer token was configured, or the server is closed
     */
    public HttpEndpoint startHttp(InetSocketAddress address) throws IOException {
        Objects.requireNonNull(address, "address");
        checkOpen();
        if (tokens.isEmpty()) {
            throw new IllegalStateException("the HTTP transport needs at least one bearer token: call "
                    + "policyFor(token, policy) on the builder");
        }
        Set<String> hosts = new HashSet<>();
        if (address.getAddress() != null && address.getAddress().isLoopbackAddress()) {
            // against DNS rebinding: a page whose name resolves to loopback still sends its own Host
            hosts.addAll(List.of("localhost", "127.0.0.1", "[::1]", address.getHostString().toLowerCase(Locale.ROOT)));
        }
        BearerAuth gate = new BearerAuth(tokens, allowedOrigins, hosts, calls.get("refused_unauthenticated"));
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(json).mcpEndpoint(path).maxRequestSize(maxRequestBytes)
                .contextExtractor(request -> request.getAttribute(Client.KEY) instanceof Client c
                        ? McpTransportContext.create(Map.of(Client.KEY, c)) : McpTransportContext.EMPTY)
                .build();
        Tools tools = tools();
        McpSyncServer server = server(McpServer.sync(transport), tools, SqlAgentMcpServer::authenticated);
        JsonRpcFilter messages = new JsonRpcFilter(new JsonRpcGate(json, tools.names(), running), maxRequestBytes,
                transport.protocolVersions());
        HttpEndpoint endpoint;
        try {
            endpoint = HttpEndpoint.start(address, path, transport, server, gate, messages);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        endpoints.add(endpoint);
        LOG.info("mcp server listening on {} for {} client(s)", endpoint.uri(), tokens.size());
        return endpoint;
    }

    /** The client the gate authenticated; a call without one is refused (fail closed). */
    private static Client authenticated(McpSyncServerExchange exchange) {
        Object c = exchange.transportContext() == null ? null : exchange.transportContext().get(Client.KEY);
        if (c instanceof Client client) {
            return client;
        }
        throw new IllegalStateException("no authenticated client for this call");
    }

    private Tools tools() {
        return new Tools(agent, json, ask, calls, bounds, running);
    }

    private McpSyncServer server(McpServer.SyncSpecification<?> spec, Tools tools,
            Function<McpSyncServerExchange, Client> clients) {
        return spec.serverInfo("sqlagent", VERSION).instructions(INSTRUCTIONS)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).build())
                .tools(tools.tools(clients)).resources(tools.schemaResource(clients)).build();
    }

    /** The project's version, written into the jar at build time ({@code version.properties}). */
    static String version() {
        try (InputStream in = SqlAgentMcpServer.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                java.util.Properties p = new java.util.Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.isBlank() && !v.startsWith("${")) {
                    return v.strip();
                }
            }
        } catch (IOException e) {
            // fall through to the manifest
        }
        String v = SqlAgentMcpServer.class.getPackage().getImplementationVersion();
        return v == null ? "unknown" : v;
    }

    /** The version the server reports in {@code serverInfo}. */
    private static final String VERSION = version();

    /**
     * Returns the privilege reports the start-up audit made, by client name.
     *
     * @return the reports ({@value #STDIO_CLIENT} and each HTTP client); a client whose audit was impossible (a
     *     custom executor, an engine without an audit) has none
     */
    public Map<String, PrivilegeReport> audits() {
        return audits;
    }

    /**
     * Returns how many calls each tool had, and the resource ({@code schema_resource}) and refused HTTP
     * requests ({@code refused_unauthenticated}), since the server was built.
     *
     * @return a snapshot of the counts
     */
    public Map<String, Long> callCounts() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String n : List.of("query", "ask", "describe", "schema_resource", "refused_unauthenticated")) {
            m.put(n, calls.get(n).sum());
        }
        return m;
    }

    /**
     * Stops every HTTP endpoint this server started; a stdio session ends with its input. The agent stays
     * open. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        for (HttpEndpoint e : endpoints) {
            e.close();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the MCP server is closed");
        }
    }

    /** A bearer token and the client it authenticates. */
    private record Registration(String token, Client client) {
    }

    /**
     * Builds a {@link SqlAgentMcpServer}. Setters check their arguments; {@link #build()} checks that an agent
     * was given and runs the privilege audit.
     */
    public static final class Builder {
        private SqlAgent agent;
        private GuardPolicy policy;
        private final List<Registration> clients = new ArrayList<>();
        private boolean allowBroadLogin;
        private boolean ask = true;
        private final Set<String> allowedOrigins = new HashSet<>();
        private String path = DEFAULT_PATH;
        private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
        private int maxResultRows = DEFAULT_MAX_RESULT_ROWS;
        private int maxCellChars = DEFAULT_MAX_CELL_CHARS;
        private int maxResultBytes = DEFAULT_MAX_RESULT_BYTES;

        private Builder() {
        }

        /**
         * Sets the governed agent every call goes through (required). Its database login is audited at
         * {@link #build()}; the server never closes it.
         *
         * @param agent the agent
         * @return this
         */
        public Builder agent(SqlAgent agent) {
            this.agent = Objects.requireNonNull(agent, "agent");
            return this;
        }

        /**
         * Sets the policy of the stdio client (default: the agent's own policy).
         *
         * @param policy the policy; its tables must be ones the agent's policy allows
         * @return this
         */
        public Builder policy(GuardPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Adds an HTTP client: requests with {@code Authorization: Bearer <token>} are held to the policy. The
         * client is named {@code http-1}, {@code http-2}, … in the order added.
         *
         * @param token the client's secret, at least {@value SqlAgentMcpServer#MIN_TOKEN_LENGTH} characters
         * @param policy its policy; its tables must be ones the agent's policy allows
         * @return this
         * @throws IllegalArgumentException if the token is too short or already given
         */
        public Builder policyFor(String token, GuardPolicy policy) {
            return policyFor("http-" + (clients.size() + 1), token, policy);
        }

        /**
         * Adds a named HTTP client: requests with {@code Authorization: Bearer <token>} are held to the policy;
         * the name (never the token) appears in logs and audits.
         *
         * @param name the client's name, not blank
         * @param token the client's secret, at least {@value SqlAgentMcpServer#MIN_TOKEN_LENGTH} characters
         * @param policy its policy; its tables must be ones the agent's policy allows
         * @return this
         * @throws IllegalArgumentException if the name is blank or taken, or the token too short or already given
         */
        public Builder policyFor(String name, String token, GuardPolicy policy) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(token, "token");
            Objects.requireNonNull(policy, "policy");
            if (name.isBlank() || name.equals(STDIO_CLIENT)) {
                throw new IllegalArgumentException("a client name must be neither blank nor '" + STDIO_CLIENT
                        + "' but was '" + name + "'");
            }
            if (token.strip().length() < MIN_TOKEN_LENGTH || !token.equals(token.strip())) {
                throw new IllegalArgumentException("the token of client '" + name + "' must have at least "
                        + MIN_TOKEN_LENGTH + " characters and no surrounding blanks (it has " + token.length() + ")");
            }
            for (Registration r : clients) {
                if (r.client().name().equals(name)) {
                    throw new IllegalArgumentException("client '" + name + "' is already registered");
                }
                if (Arrays.equals(BearerAuth.digest(r.token()), BearerAuth.digest(token))) {
                    throw new IllegalArgumentException("client '" + name + "' has the same token as client '"
                            + r.client().name() + "': give each client its own");
                }
            }
            clients.add(new Registration(token, new Client(name, policy)));
            return this;
        }

        /**
         * Accepts a database login that can read what a client's policy forbids, or write (default false:
         * such a login stops {@link #build()}). With it the guard and the engine check are the only line of
         * defence for what the audit lists; the reports are still logged at WARN.
         *
         * @param allow whether to start anyway
         * @return this
         */
        public Builder allowBroadLogin(boolean allow) {
            this.allowBroadLogin = allow;
            return this;
        }

        /**
         * Sets whether the {@code ask} tool is offered (default true). Turn it off when the agent's model is
         * only a placeholder: {@code query} and {@code describe} call no model.
         *
         * @param offered whether to offer {@code ask}
         * @return this
         */
        public Builder askTool(boolean offered) {
            this.ask = offered;
            return this;
        }

        /**
         * Allows web pages of these origins to call the HTTP endpoint (default none: a request with an
         * {@code Origin} header is refused).
         *
         * @param origins origins such as {@code https://app.example.com}
         * @return this
         */
        public Builder allowedOrigins(String... origins) {
            for (String o : origins) {
                Objects.requireNonNull(o, "origin");
                if (!o.startsWith("http://") && !o.startsWith("https://")) {
                    throw new IllegalArgumentException("an origin must start with http:// or https:// but was '" + o
                            + "'");
                }
                allowedOrigins.add(o.toLowerCase(Locale.ROOT));
            }
            return this;
        }

        /**
         * Sets the HTTP path of the MCP endpoint (default {@value SqlAgentMcpServer#DEFAULT_PATH}).
         *
         * @param path an absolute path such as {@code /mcp}
         * @return this
         */
        public Builder path(String path) {
            Objects.requireNonNull(path, "path");
            if (!path.matches("/[A-Za-z0-9._~/-]*[A-Za-z0-9._~-]")) {
                throw new IllegalArgumentException("path must be an absolute path such as /mcp but was '" + path + "'");
            }
            this.path = path;
            return this;
        }

        /**
         * Sets the largest HTTP request body accepted (default {@value SqlAgentMcpServer#DEFAULT_MAX_REQUEST_BYTES}).
         *
         * @param bytes at least 1024
         * @return this
         */
        public Builder maxRequestBytes(int bytes) {
            if (bytes < 1024) {
                throw new IllegalArgumentException("maxRequestBytes must be >= 1024 but was " + bytes);
            }
            this.maxRequestBytes = bytes;
            return this;
        }

        /**
         * Sets the most rows one tool result carries (default {@value SqlAgentMcpServer#DEFAULT_MAX_RESULT_ROWS}),
         * in its text and its structured content alike; a result cut here says so ({@code truncated},
         * {@code truncation}). The policy's row cap still bounds what runs.
         *
         * @param rows at least 1
         * @return this
         */
        public Builder maxResultRows(int rows) {
            if (rows < 1) {
                throw new IllegalArgumentException("maxResultRows must be >= 1 but was " + rows);
            }
            this.maxResultRows = rows;
            return this;
        }

        /**
         * Sets the longest value one tool result carries, in characters (default
         * {@value SqlAgentMcpServer#DEFAULT_MAX_CELL_CHARS}); a longer one is cut and ends with {@code …}, in the
         * text and the structured content alike, and the result says so.
         *
         * @param chars at least 16
         * @return this
         */
        public Builder maxCellChars(int chars) {
            if (chars < 16) {
                throw new IllegalArgumentException("maxCellChars must be >= 16 but was " + chars);
            }
            this.maxCellChars = chars;
            return this;
        }

        /**
         * Sets the largest tool result, text and structured content together, in bytes (default
         * {@value SqlAgentMcpServer#DEFAULT_MAX_RESULT_BYTES}): rows stop before the result would exceed it,
         * and the result says so. MCP clients refuse large messages (the Python SDK any over 1 MiB).
         *
         * @param bytes at least 16384
         * @return this
         */
        public Builder maxResultBytes(int bytes) {
            if (bytes < 16_384) {
                throw new IllegalArgumentException("maxResultBytes must be >= 16384 but was " + bytes);
            }
            this.maxResultBytes = bytes;
            return this;
        }

        /**
         * Checks the configuration and audits the database login against every client's policy.
         *
         * @return the server, not yet serving
         * @throws IllegalStateException if no agent was given, or the audit cannot be made and
         *     {@link #allowBroadLogin(boolean)} was not set
         * @throws IllegalArgumentException if a client's policy allows a table the agent's policy does not
         * @throws LoginTooBroadException if the login can read what a policy forbids, or write, and
         *     {@link #allowBroadLogin(boolean)} was not set
         */
        public SqlAgentMcpServer build() {
            if (agent == null) {
                throw new IllegalStateException("an agent is required: call agent(sqlAgent)");
            }
            Map<String, GuardPolicy> byClient = new LinkedHashMap<>();
            if (policy != null || clients.isEmpty()) {
                // a server for HTTP clients only has no stdio client to audit (or to name in its reports)
                byClient.put(STDIO_CLIENT, policy != null ? policy : agent.policy());
            }
            for (Registration r : clients) {
                byClient.put(r.client().name(), r.client().policy());
            }
            GuardPolicy outer = agent.policy();
            byClient.forEach((name, p) -> {
                for (String t : p.allowedTables()) {
                    if (!outer.allowsTable(t)) {
                        throw new IllegalArgumentException("client '" + name + "' may read table '" + t + "', which "
                                + "the agent's policy does not allow: the agent reads and shows only its own tables");
                    }
                }
            });
            return new SqlAgentMcpServer(this, audit(byClient));
        }

        private Map<String, PrivilegeReport> audit(Map<String, GuardPolicy> byClient) {
            Map<String, PrivilegeReport> reports = new LinkedHashMap<>();
            Map<String, PrivilegeReport> broad = new LinkedHashMap<>();
            Map<GuardPolicy, PrivilegeReport> done = new IdentityHashMap<>();
            for (Map.Entry<String, GuardPolicy> e : byClient.entrySet()) {
                PrivilegeReport report = done.get(e.getValue());
                if (report == null) {
                    try {
                        report = agent.audit(e.getValue());
                    } catch (SQLException | IllegalStateException ex) {
                        if (!allowBroadLogin) {
                            throw new IllegalStateException("cannot audit the database login for client '"
                                    + e.getKey() + "' (" + ex.getMessage() + "); the server does not start without "
                                    + "knowing what the login can do, unless allowBroadLogin(true)", ex);
                        }
                        LOG.warn("mcp server: cannot audit the database login for client '{}' ({}); starting "
                                + "because allowBroadLogin(true)", e.getKey(), ex.getMessage());
                        continue;
                    }
                    done.put(e.getValue(), report);
                }
                reports.put(e.getKey(), report);
                if (tooBroad(report)) {
                    broad.put(e.getKey(), report);
                }
            }
            // one log entry per distinct report, naming every client it concerns
            Map<PrivilegeReport, List<String>> names = new IdentityHashMap<>();
            reports.forEach((name, r) -> names.computeIfAbsent(r, k -> new ArrayList<>()).add(name));
            names.forEach((r, clientNames) -> {
                if (tooBroad(r)) {
                    LOG.warn("mcp server: for client(s) {} the database does not refuse everything the policy "
                            + "forbids; the guard is the only line of defence for:\n{}", clientNames, r.toText());
                } else if (r.guardIsOnlyDefence()) {
                    // an engine without grants, opened read-only: nothing a narrower login could change
                    LOG.info("mcp server: for client(s) {} the engine has no grants; the guard alone keeps the "
                            + "tables and columns the policy forbids:\n{}", clientNames, r.toText());
                }
            });
            if (!broad.isEmpty() && !allowBroadLogin) {
                throw new LoginTooBroadException("the database " + (noLogins(broad.values().iterator().next())
                        ? "can be written through this connection" : "login can read what the policy of "
                        + broad.keySet() + " forbids, or write") + ": " + summary(broad) + ". "
                        + advice(broad.values().iterator().next()) + ", or accept the guard as the only defence with "
                        + "allowBroadLogin(true) (--allow-broad-login)", broad);
            }
            return reports;
        }

        /**
         * Whether a report stops the server: a login that can write or read beyond the policy; on an engine
         * without logins or grants (SQLite, DuckDB), where no login can be narrower, only a way to write.
         */
        private static boolean tooBroad(PrivilegeReport r) {
            return noLogins(r) ? !r.writes().isEmpty() : r.guardIsOnlyDefence();
        }

        private static String advice(PrivilegeReport r) {
            return switch (r.dialect()) {
                case SQLITE -> "Open the SQLite file read-only (jdbc:sqlite:file:/path/to/db.sqlite?mode=ro; the mcp "
                        + "command does so)";
                case DUCKDB -> "Open the DuckDB database read-only with external access off and the configuration "
                        + "locked (DuckDbFiles does all three)";
                default -> "Give the server a login that can read only the allowed tables and columns (see the audit "
                        + "command)";
            };
        }

        private static String summary(Map<String, PrivilegeReport> broad) {
            List<String> parts = new ArrayList<>();
            broad.forEach((name, r) -> {
                List<String> what = new ArrayList<>();
                if (!r.writes().isEmpty()) {
                    what.add("writes " + r.writes().subList(0, Math.min(3, r.writes().size()))
                            + (r.writes().size() > 3 ? " and " + (r.writes().size() - 3) + " more" : ""));
                }
                if (!r.forbiddenTables().isEmpty()) {
                    what.add("forbidden tables " + r.forbiddenTables().subList(0, Math.min(5, r.forbiddenTables().size()))
                            + (r.forbiddenTables().size() > 5 ? " and " + (r.forbiddenTables().size() - 5) + " more" : ""));
                }
                if (!r.deniedColumns().isEmpty()) {
                    what.add("denied columns " + r.deniedColumns());
                }
                parts.add(name + ": " + String.join(", ", what));
            });
            return String.join("; ", parts);
        }
    }
}
