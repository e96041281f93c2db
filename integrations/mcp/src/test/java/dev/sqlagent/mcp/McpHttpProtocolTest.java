package dev.sqlagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Streamable HTTP endpoint with the JDK's HTTP client, as a client that makes mistakes would: every bad
 * request gets the right status and a JSON-RPC error body without the server's internals, an unknown protocol
 * version is refused, and every server-sent event has an id of its own.
 */
@Timeout(60)
class McpHttpProtocolTest {

    private static final String TOKEN = "analysts-token-0123456789abcdef";
    private static final McpJsonMapper JSON = McpJsonDefaults.getMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private CompanyFixture fx;
    private SqlAgentMcpServer server;
    private HttpEndpoint http;

    @BeforeEach
    void start() throws Exception {
        fx = new CompanyFixture();
        server = SqlAgentMcpServer.builder().agent(fx.agent).askTool(false)
                .policyFor("analysts", TOKEN, CompanyFixture.analysts()).allowBroadLogin(true).build();
        http = server.startHttp(0);
    }

    @AfterEach
    void stop() {
        server.close();
        fx.close();
    }

    private HttpResponse<String> post(String body, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(http.uri()).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> rpcError(HttpResponse<String> r) throws IOException {
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        assertThat(r.body()).doesNotContain("stackTrace").doesNotContain("java.").doesNotContain("io.modelcontext")
                .doesNotContain("Exception");
        Map<String, Object> m = JSON.readValue(r.body(), Map.class);
        assertThat(m).containsEntry("jsonrpc", "2.0").containsKey("error");
        return (Map<String, Object>) m.get("error");
    }

    private String initialize() throws Exception {
        HttpResponse<String> r = post(RawHttp.INITIALIZE);
        assertThat(r.statusCode()).isEqualTo(200);
        String session = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", "Mcp-Session-Id", session)
                .statusCode()).isEqualTo(202);
        return session;
    }

    @Test
    void aBodyThatIsNoJsonRpcMessageIsA400WithAJsonRpcError() throws Exception {
        HttpResponse<String> r = post("this is not json");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(rpcError(r)).containsEntry("code", -32700);

        r = post("{\"jsonrpc\":\"2.0\",\"id\":3}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(rpcError(r)).containsEntry("code", -32600);
    }

    @Test
    void anUnknownMethodOrToolIsNamedInItsError() throws Exception {
        String session = initialize();
        HttpResponse<String> r = post("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"server/discover\"}");
        assertThat(r.statusCode()).isEqualTo(200);
        Map<String, Object> e = rpcError(r);
        assertThat(e).containsEntry("code", -32601);
        assertThat((String) e.get("message")).isEqualTo("Method not found: server/discover");

        r = post("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"invalid_tool_name\"}}",
                "Mcp-Session-Id", session);
        e = rpcError(r);
        assertThat(e).containsEntry("code", -32602);
        assertThat((String) e.get("message")).startsWith("Unknown tool: invalid_tool_name");
    }

    @Test
    void theSdksOwnRefusalsCarryNoInternals() throws Exception {
        // a request other than initialize without a session: the SDK refuses it
        HttpResponse<String> r = post(RawHttp.TOOLS_LIST);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat((String) rpcError(r).get("message")).isNotBlank();
    }

    @Test
    void anUnknownProtocolVersionIsRefused() throws Exception {
        String session = initialize();
        HttpResponse<String> r = post(RawHttp.TOOLS_LIST, "Mcp-Session-Id", session, "MCP-Protocol-Version",
                "1999-01-01");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat((String) rpcError(r).get("message")).contains("1999-01-01");
        assertThat(post(RawHttp.TOOLS_LIST, "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-06-18")
                .statusCode()).isEqualTo(200);
    }

    @Test
    void everyEventHasAnIdOfItsOwn() throws Exception {
        String session = initialize();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> r = post("{\"jsonrpc\":\"2.0\",\"id\":" + (10 + i) + ",\"method\":\"tools/list\"}",
                    "Mcp-Session-Id", session);
            assertThat(r.statusCode()).isEqualTo(200);
            for (String line : r.body().split("\n")) {
                if (line.startsWith("id:")) {
                    ids.add(line.substring(3).strip());
                }
            }
        }
        assertThat(ids).hasSize(3).doesNotContain(session);
        Set<String> unique = new HashSet<>(ids);
        assertThat(unique).hasSize(3);
    }
}
