package dev.sqlagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every message within the byte bound: a result of wide rows stops adding rows before the bound and says so;
 * a schema too large for one message lists the tables that fit and says so.
 */
@Timeout(60)
class McpBoundsTest {

    private static final McpJsonMapper JSON = McpJsonDefaults.getMapper();

    @Test
    @SuppressWarnings("unchecked")
    void wideRowsStopAtTheByteBoundInTheWholeMessage() throws Exception {
        try (CompanyFixture fx = new CompanyFixture()) {
            int bound = 16_384;
            SqlAgentMcpServer server = SqlAgentMcpServer.builder().agent(fx.agent).askTool(false)
                    .allowBroadLogin(true).maxResultBytes(bound).maxCellChars(2_000).build();
            PipedInputStream serverIn = new PipedInputStream(1 << 16);
            OutputStream toServer = new PipedOutputStream(serverIn);
            PipedOutputStream serverOut = new PipedOutputStream();
            BufferedReader fromServer = new BufferedReader(new InputStreamReader(new PipedInputStream(serverOut,
                    1 << 20), StandardCharsets.UTF_8));
            CompletableFuture<Void> serving = CompletableFuture.runAsync(() -> {
                try {
                    server.serveStdio(serverIn, serverOut);
                    serverOut.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            String sql = "SELECT e.name, REPEAT('w', 1500) AS wide FROM employees e CROSS JOIN departments d";
            toServer.write(("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"b\",\"version\":\"1\"}}}\n"
                    + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                    + "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"query\","
                    + "\"arguments\":" + JSON.writeValueAsString(Map.of("sql", sql)) + "}}\n")
                    .getBytes(StandardCharsets.UTF_8));
            toServer.flush();
            fromServer.readLine(); // initialize
            String line = fromServer.readLine();
            toServer.close();
            serving.get(30, TimeUnit.SECONDS);

            assertThat(line.getBytes(StandardCharsets.UTF_8).length).as("the whole message").isLessThanOrEqualTo(bound);
            Map<String, Object> s = (Map<String, Object>) ((Map<String, Object>) JSON.readValue(line, Map.class)
                    .get("result")).get("structuredContent");
            assertThat(s).containsEntry("truncated", true);
            assertThat((int) s.get("row_count")).isPositive().isLessThan((int) s.get("rows_returned"));
            assertThat((List<Map<String, Object>>) s.get("truncation")).extracting(m -> m.get("why"))
                    .containsExactly("max_result_bytes");
            assertThat(line).contains("Truncated: only the first " + s.get("row_count") + " of "
                    + s.get("rows_returned") + " rows are shown");
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aSchemaTooLargeForOneMessageListsTheTablesThatFit() throws Exception {
        List<Object> tables = new ArrayList<>();
        StringBuilder text = new StringBuilder("# Database schema\n\n");
        for (int i = 0; i < 400; i++) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("name", "table_" + i);
            t.put("description", "d".repeat(100));
            tables.add(t);
            text.append("## table_").append(i).append('\n').append("d".repeat(100)).append('\n');
        }
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("dialect", "H2");
        structured.put("tables", tables);
        int bound = 20_000;
        CallToolResult r = ToolResults.describe(text.toString(), structured,
                new ToolResults.Bounds(1000, 500, bound), JSON);
        String message = JSON.writeValueAsString(r);
        assertThat(message.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(bound);
        Map<String, Object> s = (Map<String, Object>) r.structuredContent();
        assertThat(s).containsEntry("truncated", true).containsEntry("tables_total", 400);
        assertThat((List<Object>) s.get("tables")).isNotEmpty().hasSizeLessThan(400);
        assertThat(((TextContent) r.content().get(0)).text()).endsWith("tables are listed in full.\n");

        CallToolResult small = ToolResults.describe("# s\n", Map.of("tables", List.of()),
                new ToolResults.Bounds(1000, 500, bound), JSON);
        assertThat((Map<String, Object>) small.structuredContent()).containsEntry("truncated", false);
    }
}
