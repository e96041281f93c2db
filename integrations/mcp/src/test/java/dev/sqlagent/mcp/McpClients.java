package dev.sqlagent.mcp;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The MCP SDK's own client, over HTTP with a bearer token or over stdio to a child JVM. */
final class McpClients {

    private McpClients() {
    }

    /**
     * @param endpoint the server's MCP URL
     * @param token the bearer token
     * @return an initialised client
     */
    static McpSyncClient http(URI endpoint, String token) {
        String base = endpoint.getScheme() + "://" + endpoint.getHost() + ":" + endpoint.getPort();
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(base)
                .endpoint(endpoint.getPath())
                .httpRequestCustomizer((request, method, uri, body, context) ->
                        request.header("Authorization", "Bearer " + token))
                .build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(30)).build();
        client.initialize();
        return client;
    }

    /**
     * A child JVM running {@link StdioServerMain} with the test class path.
     *
     * @param args the main's arguments
     * @return an initialised client
     */
    static McpSyncClient stdio(List<String> args) {
        List<String> all = new ArrayList<>();
        all.add("-cp");
        all.add(System.getProperty("java.class.path"));
        all.add("-Xss1m");
        all.add(StdioServerMain.class.getName());
        all.addAll(args);
        return stdio(Path.of(System.getProperty("java.home"), "bin", "java").toString(), all);
    }

    /**
     * A child process speaking MCP over its standard streams.
     *
     * @param command the program
     * @param args its arguments
     * @return an initialised client
     */
    static McpSyncClient stdio(String command, List<String> args) {
        ServerParameters params = ServerParameters.builder(command).args(args).build();
        StdioClientTransport transport = new StdioClientTransport(params, McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> System.err.println("[mcp child] " + line));
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60)).build();
        client.initialize();
        return client;
    }

    static CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
        return client.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    static CallToolResult query(McpSyncClient client, String sql) {
        return call(client, "query", Map.of("sql", sql));
    }

    /** @return the structured content as a map */
    @SuppressWarnings("unchecked")
    static Map<String, Object> structured(CallToolResult r) {
        return (Map<String, Object>) r.structuredContent();
    }

    /** @return the text of the first content */
    static String text(CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }
}
