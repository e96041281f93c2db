package dev.sqlagent.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar target/sqlagent.jar mcp …} as a child process, after {@code package}, driven by the MCP
 * SDK's own client: the desktop configuration of {@code docs/mcp.md} as written (its {@code mcpServers} entry
 * and its least-privilege recipe, on PostgreSQL), the HTTP transport with a bearer token as the doc's agent
 * framework client uses it, and the start-up audit's exit code.
 */
class McpJarIT {

    private static final Path JAR = Path.of(System.getProperty("sqlagent.jar", "target/sqlagent.jar"));
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final Pattern FENCE = Pattern.compile("(?ms)^```(\\w*)\\n(.*?)^```");

    @TempDir
    Path dir;

    /** The blocks of a language in a Markdown text, in order. */
    private static List<String> blocks(String markdown, String language) {
        List<String> out = new ArrayList<>();
        Matcher m = FENCE.matcher(markdown);
        while (m.find()) {
            if (m.group(1).equals(language)) {
                out.add(m.group(2));
            }
        }
        return out;
    }

    private static Path projectRoot() {
        String configured = System.getProperty("sqlagent.projectRoot");
        Path root = configured != null ? Path.of(configured) : Path.of("..");
        return root.toAbsolutePath().normalize();
    }

    private static McpSyncClient stdio(String command, List<String> args, Map<String, String> env) {
        ServerParameters params = ServerParameters.builder(command).args(args).env(env).build();
        StdioClientTransport transport = new StdioClientTransport(params, McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> System.err.println("[sqlagent mcp] " + line));
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60)).build();
        client.initialize();
        return client;
    }

    private static String text(CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    private static CallToolResult query(McpSyncClient c, String sql) {
        return c.callTool(new McpSchema.CallToolRequest("query", Map.of("sql", sql)));
    }

    @Test
    void theDocumentedDesktopConfigurationStartsTheServerOverStdio() throws Exception {
        assertThat(JAR).as("mvn package builds it").isRegularFile();
        String doc = Files.readString(projectRoot().resolve("docs/mcp.md"), StandardCharsets.UTF_8);
        String recipe = blocks(doc, "sql").get(0);
        String config = blocks(doc, "json").stream().filter(b -> b.contains("\"command\"")).findFirst().orElseThrow();
        Map<String, Object> servers = McpJsonDefaults.getMapper().readValue(config,
                new TypeRef<Map<String, Map<String, Map<String, Object>>>>() {
                }).get("mcpServers").values().iterator().next();
        String command = (String) servers.get("command");
        @SuppressWarnings("unchecked")
        List<String> args = new ArrayList<>((List<String>) servers.get("args"));
        @SuppressWarnings("unchecked")
        Map<String, String> env = new LinkedHashMap<>((Map<String, String>) servers.get("env"));
        assertThat(command).isEqualTo("java");
        assertThat(args).contains("/path/to/sqlagent.jar", "mcp", "jdbc:postgresql://localhost:5432/shop");

        // the reader's own parts: where the jar is, where the database is (the doc's "shop" is mcp_shop here)
        String pgUrl = env("SQLAGENT_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
        String pgUser = env("SQLAGENT_PG_USER", "postgres");
        String pgPassword = env("SQLAGENT_PG_PASSWORD", "");
        String server = pgUrl.substring(0, pgUrl.indexOf('/', "jdbc:postgresql://".length()));
        try (Connection c = DriverManager.getConnection(pgUrl + (pgUrl.contains("?") ? "&" : "?") + "connectTimeout=5",
                pgUser, pgPassword)) {
            prepareShop(c, server + "/mcp_shop", pgUser, pgPassword, recipe.replace("DATABASE shop", "DATABASE mcp_shop"));
        } catch (SQLException e) {
            skipOrFail("PostgreSQL not reachable at " + pgUrl + ": " + e.getMessage());
        }
        args.replaceAll(a -> a.equals("/path/to/sqlagent.jar") ? JAR.toString()
                : a.equals("jdbc:postgresql://localhost:5432/shop") ? server + "/mcp_shop" : a);

        McpSyncClient client = stdio(command.equals("java") ? JAVA : command, args, env);
        try {
            assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name)
                    .containsExactlyInAnyOrder("query", "describe");
            String described = text(client.callTool(new McpSchema.CallToolRequest("describe", Map.of())));
            assertThat(described).contains("orders", "customers", "city").doesNotContain("email", "payroll");
            CallToolResult totals = query(client, "SELECT c.city, SUM(o.amount) AS total FROM orders o "
                    + "JOIN customers c ON c.id = o.customer_id GROUP BY c.city ORDER BY c.city");
            assertThat(totals.isError()).as(text(totals)).isFalse();
            assertThat(text(totals)).contains("| Lyon | 200.50 |", "| Oslo | 42.00 |", "(row cap 1000)");
            for (String escape : List.of("SELECT email FROM customers", "SELECT salary FROM payroll",
                    "COMMIT; DROP TABLE orders", "/* */ DELETE FROM orders", "SELECT nextval('orders_seq')")) {
                CallToolResult r = query(client, escape);
                assertThat(r.isError()).as(escape).isTrue();
                assertThat(text(r)).as(escape).contains("Refused by the policy; nothing ran");
            }
        } finally {
            client.closeGracefully();
        }
    }

    /** The doc's shop with a table no policy allows, then the doc's recipe for its login (run as it is written). */
    private static void prepareShop(Connection admin, String shopUrl, String user, String password, String recipe)
            throws SQLException {
        try (Statement s = admin.createStatement()) {
            try {
                s.execute("CREATE DATABASE mcp_shop");
            } catch (SQLException e) {
                if (!"42P04".equals(e.getSQLState())) { // duplicate_database: made by an earlier run
                    throw e;
                }
            }
        }
        try (Connection c = DriverManager.getConnection(shopUrl, user, password); Statement s = c.createStatement()) {
            s.execute("SELECT pg_advisory_lock(hashtext('mcp_shop-setup'))");
            s.execute("CREATE TABLE IF NOT EXISTS customers (id INT PRIMARY KEY, name TEXT NOT NULL, city TEXT, email TEXT)");
            s.execute("CREATE TABLE IF NOT EXISTS orders (id INT PRIMARY KEY, customer_id INT NOT NULL REFERENCES "
                    + "customers(id), amount NUMERIC(10,2) NOT NULL, ordered_on DATE NOT NULL)");
            s.execute("CREATE TABLE IF NOT EXISTS payroll (id INT PRIMARY KEY, salary NUMERIC)");
            s.execute("CREATE SEQUENCE IF NOT EXISTS orders_seq");
            s.execute("INSERT INTO customers VALUES (1, 'Ada', 'Lyon', 'ada@example.com'), (2, 'Ben', 'Oslo', "
                    + "'ben@example.com') ON CONFLICT DO NOTHING");
            s.execute("INSERT INTO orders VALUES (1, 1, 120.50, '2024-03-01'), (2, 1, 80, '2024-04-11'), "
                    + "(3, 2, 42, '2024-05-20') ON CONFLICT DO NOTHING");
            for (String statement : recipe.split(";\\s*\\n")) {
                String sql = statement.strip();
                if (sql.isEmpty()) {
                    continue;
                }
                try {
                    s.execute(sql);
                } catch (SQLException e) {
                    if (!"42710".equals(e.getSQLState())) { // duplicate_object: the role exists from an earlier run
                        throw e;
                    }
                    s.execute(sql.replaceFirst("^CREATE ROLE (\\w+) LOGIN", "ALTER ROLE $1 LOGIN"));
                }
            }
            s.execute("SELECT pg_advisory_unlock(hashtext('mcp_shop-setup'))");
        }
    }

    @Test
    void overHttpEveryRequestNeedsTheTokenAndTheFrameworkClientWorks() throws Exception {
        assertThat(JAR).as("mvn package builds it").isRegularFile();
        String shop = ShopDatabase.sqlite(dir);
        String token = "jar-test-token-0123456789abcdef";
        ProcessBuilder pb = new ProcessBuilder(JAVA, "-jar", JAR.toString(), "mcp", "--http", "--port", "0",
                "--token-env", "SQLAGENT_MCP_TOKEN", "--jdbc-url", shop, "--allow-tables", "customers,orders",
                "--allow-broad-login");
        pb.environment().put("SQLAGENT_MCP_TOKEN", token);
        pb.redirectOutput(dir.resolve("out.txt").toFile());
        Process p = pb.start();
        try {
            BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
            String url = CompletableFuture.supplyAsync(() -> {
                try {
                    for (String line; (line = err.readLine()) != null; ) {
                        Matcher m = Pattern.compile("listening on (http://\\S+)").matcher(line);
                        if (m.find()) {
                            return m.group(1);
                        }
                    }
                    return null;
                } catch (java.io.IOException e) {
                    return null;
                }
            }).get(120, TimeUnit.SECONDS);
            assertThat(url).as("the server says where it listens").startsWith("http://127.0.0.1:").endsWith("/mcp");
            CompletableFuture.runAsync(() -> err.lines().forEach(l -> System.err.println("[sqlagent mcp] " + l)));

            HttpResponse<String> anonymous = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode()).isEqualTo(401);

            // the agent framework client of docs/mcp.md
            URI endpoint = URI.create(url);
            HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
                    .builder(endpoint.getScheme() + "://" + endpoint.getHost() + ":" + endpoint.getPort())
                    .endpoint(endpoint.getPath())
                    .httpRequestCustomizer((request, method, uri, body, context) ->
                            request.header("Authorization", "Bearer " + token))
                    .build();
            try (McpSyncClient client = McpClient.sync(transport).build()) {
                client.initialize();
                CallToolResult r = query(client, "SELECT c.city, SUM(o.amount) AS total FROM orders o "
                        + "JOIN customers c ON c.id = o.customer_id GROUP BY c.city ORDER BY c.city");
                assertThat(r.isError()).as(text(r)).isFalse();
                assertThat(text(r)).contains("| Lund | 27");
                assertThat(query(client, "SELECT salary FROM salaries").isError()).isTrue();
            }
        } finally {
            p.destroy();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aSqliteFileStartsReadOnlyAndSaysTheGuardAloneKeepsItsOtherTables() throws Exception {
        assertThat(JAR).as("mvn package builds it").isRegularFile();
        String shop = ShopDatabase.sqlite(dir);
        ProcessBuilder pb = new ProcessBuilder(JAVA, "-jar", JAR.toString(), "mcp", "--jdbc-url", shop,
                "--allow-tables", "customers,orders");
        Path err = dir.resolve("err.txt");
        pb.redirectOutput(dir.resolve("out.txt").toFile()).redirectError(err.toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        // SQLite has no logins: opened read-only, nothing a login could narrow is left, so no override is needed
        assertThat(p.exitValue()).as(stderr).isZero();
        assertThat(stderr).contains("writes: refused by the database (opened read-only)",
                "tables outside the policy: the guard only (SQLITE has no grants", "salaries");
        assertThat(Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void aLoginThatCanDoMoreThanThePolicyStopsTheServerWithExitCode3() throws Exception {
        assertThat(JAR).as("mvn package builds it").isRegularFile();
        String pgUrl = env("SQLAGENT_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
        String pgUser = env("SQLAGENT_PG_USER", "postgres");
        String pgPassword = env("SQLAGENT_PG_PASSWORD", "");
        try (Connection c = DriverManager.getConnection(pgUrl, pgUser, pgPassword); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS mcp_jar_orders (id INT PRIMARY KEY)");
        } catch (SQLException e) {
            skipOrFail("PostgreSQL not reachable at " + pgUrl + ": " + e.getMessage());
        }
        // the superuser can write and read every table: the server refuses to start without the override
        ProcessBuilder pb = new ProcessBuilder(JAVA, "-jar", JAR.toString(), "mcp", "--jdbc-url", pgUrl, "--user",
                pgUser, "--password-env", "PG_PASSWORD", "--allow-tables", "mcp_jar_orders");
        pb.environment().put("PG_PASSWORD", pgPassword);
        Path err = dir.resolve("err.txt");
        pb.redirectOutput(dir.resolve("out.txt").toFile()).redirectError(err.toFile());
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            assertThat(p.exitValue()).as(stderr).isEqualTo(3);
            assertThat(stderr).contains("--allow-broad-login", "login that can read only");
        } finally {
            try (Connection c = DriverManager.getConnection(pgUrl, pgUser, pgPassword); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS mcp_jar_orders");
            }
        }
        assertThat(Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8)).isEmpty();
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    private static void skipOrFail(String why) {
        if ("true".equalsIgnoreCase(System.getenv("SQLAGENT_REQUIRE_SERVERS"))) {
            throw new AssertionError(why + " (SQLAGENT_REQUIRE_SERVERS=true)");
        }
        System.err.println("\n************************************************************************\n"
                + "SKIPPED: " + why + "\n************************************************************************");
        Assumptions.abort("SKIPPED: " + why);
    }
}
