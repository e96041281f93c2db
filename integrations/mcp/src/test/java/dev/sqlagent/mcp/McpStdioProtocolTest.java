package dev.sqlagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The stdio transport fed line by line, as a client that makes mistakes would: every bad line gets a JSON-RPC
 * error naming what was wrong, later requests are still answered, and the session ends with the input.
 */
@Timeout(60)
class McpStdioProtocolTest {

    private static final McpJsonMapper JSON = McpJsonDefaults.getMapper();

    private CompanyFixture fx;
    private OutputStream toServer;
    private BufferedReader fromServer;
    private CompletableFuture<Void> serving;

    @BeforeEach
    void start() throws IOException {
        fx = new CompanyFixture();
        SqlAgentMcpServer server = SqlAgentMcpServer.builder().agent(fx.agent).askTool(false)
                .policy(dev.sqlagent.guard.GuardPolicy.builder().allowTables("employees", "departments", "orders")
                        .denyColumn("employees", "title").build()).allowBroadLogin(true).maxCellChars(40).maxResultRows(5).build();
        PipedInputStream serverIn = new PipedInputStream(1 << 20);
        toServer = new PipedOutputStream(serverIn);
        PipedOutputStream serverOut = new PipedOutputStream();
        fromServer = new BufferedReader(new InputStreamReader(new PipedInputStream(serverOut, 1 << 20),
                StandardCharsets.UTF_8));
        serving = CompletableFuture.runAsync(() -> {
            try {
                server.serveStdio(serverIn, serverOut);
                serverOut.close();
            } catch (InterruptedException | IOException e) {
                throw new IllegalStateException(e);
            }
        });
        send("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"lines\",\"version\":\"1\"}}}");
        Map<String, Object> init = reply();
        assertThat(init).containsKey("result");
        @SuppressWarnings("unchecked")
        Map<String, Object> info = (Map<String, Object>) ((Map<String, Object>) init.get("result")).get("serverInfo");
        assertThat(info.get("version")).isEqualTo(SqlAgentMcpServer.version()).isNotEqualTo("dev");
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    @AfterEach
    void stop() throws IOException {
        toServer.close();
        fx.close();
    }

    private void send(String line) throws IOException {
        toServer.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        toServer.flush();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> reply() throws IOException {
        String line = fromServer.readLine();
        assertThat(line).as("a reply").isNotNull();
        return JSON.readValue(line, Map.class);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> error(Map<String, Object> reply) {
        assertThat(reply).containsKey("error");
        return (Map<String, Object>) reply.get("error");
    }

    @Test
    void everyBadLineGetsItsErrorAndTheSessionGoesOn() throws Exception {
        send("this is not json");
        Map<String, Object> e = error(reply());
        assertThat(e).containsEntry("code", -32700);

        send("{\"jsonrpc\":\"2.0\",\"id\":7}");
        Map<String, Object> r = reply();
        assertThat(r).containsEntry("id", 7);
        assertThat(error(r)).containsEntry("code", -32600);

        send("[{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}]");
        assertThat(error(reply())).containsEntry("code", -32600);

        send("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"server/discover\"}");
        r = reply();
        assertThat(r).containsEntry("id", 9);
        assertThat(error(r)).containsEntry("code", -32601);
        assertThat((String) error(r).get("message")).contains("server/discover");

        send("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{\"name\":\"drop_tables\",\"arguments\":{}}}");
        r = reply();
        assertThat(error(r)).containsEntry("code", -32602);
        assertThat((String) error(r).get("message")).contains("Unknown tool: drop_tables");

        send("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":{\"name\":\"query\",\"arguments\":[1]}}");
        assertThat(error(reply())).containsEntry("code", -32602);

        // after all of that, a request is answered
        send("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/list\"}");
        r = reply();
        assertThat(r).containsEntry("id", 12).containsKey("result");

        // and the end of the input ends the session
        toServer.close();
        serving.get(30, TimeUnit.SECONDS);
        assertThat(fromServer.readLine()).isNull();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> query(int id, String sql) throws IOException {
        send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"query\","
                + "\"arguments\":" + JSON.writeValueAsString(Map.of("sql", sql)) + "}}");
        return (Map<String, Object>) reply().get("result");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aDeniedColumnReadsExactlyLikeAMissingOne() throws Exception {
        Map<String, Object> denied = query(40, "SELECT name, title FROM employees");
        Map<String, Object> missing = query(41, "SELECT name, titel FROM employees");
        Map<String, Object> d = (Map<String, Object>) denied.get("structuredContent");
        Map<String, Object> m = (Map<String, Object>) missing.get("structuredContent");
        assertThat(denied.get("isError")).isEqualTo(true);
        assertThat(missing.get("isError")).isEqualTo(true);
        assertThat(d.get("status")).isEqualTo(m.get("status"));
        List<Map<String, Object>> dv = (List<Map<String, Object>>) d.get("violations");
        List<Map<String, Object>> mv = (List<Map<String, Object>>) m.get("violations");
        assertThat(dv).hasSize(1);
        assertThat(mv).hasSize(1);
        assertThat(dv.get(0).get("type")).isEqualTo(mv.get(0).get("type"));
        assertThat(((String) dv.get(0).get("message")).replace("title", "NAME"))
                .isEqualTo(((String) mv.get(0).get("message")).replace("titel", "NAME"));
        String dt = (String) ((List<Map<String, Object>>) denied.get("content")).get(0).get("text");
        String mt = (String) ((List<Map<String, Object>>) missing.get("content")).get(0).get("text");
        assertThat(dt.replace("title", "NAME")).isEqualTo(mt.replace("titel", "NAME"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void aResultCutAnywhereSaysSoInTheTextAndTheStructuredContentAlike() throws Exception {
        send("{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"tools/call\",\"params\":{\"name\":\"query\",\"arguments\":"
                + "{\"sql\":\"SELECT name, REPEAT('x', 100) AS wide FROM employees ORDER BY name\"}}}");
        Map<String, Object> result = (Map<String, Object>) reply().get("result");
        Map<String, Object> s = (Map<String, Object>) result.get("structuredContent");
        List<List<Object>> rows = (List<List<Object>>) s.get("rows");
        assertThat(rows).hasSize(5);
        assertThat(s).containsEntry("row_count", 5).containsEntry("truncated", true);
        assertThat((int) s.get("rows_returned")).isGreaterThan(5);
        assertThat((String) rows.get(0).get(1)).hasSize(41).endsWith("…");
        assertThat((List<Map<String, Object>>) s.get("truncation")).extracting(m -> m.get("why"))
                .contains("max_result_rows", "max_cell_chars");
        String text = (String) ((List<Map<String, Object>>) result.get("content")).get(0).get("text");
        assertThat(text).contains("x".repeat(40) + "…").doesNotContain("x".repeat(41)).contains("Truncated:");
    }
}
