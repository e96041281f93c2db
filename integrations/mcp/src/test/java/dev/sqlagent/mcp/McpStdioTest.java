package dev.sqlagent.mcp;

import static dev.sqlagent.mcp.McpClients.call;
import static dev.sqlagent.mcp.McpClients.query;
import static dev.sqlagent.mcp.McpClients.structured;
import static dev.sqlagent.mcp.McpClients.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The server over stdio, as a desktop assistant starts it: a child JVM ({@link StdioServerMain}) on the
 * company database, the SDK's {@code StdioClientTransport} on its standard streams.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpStdioTest {

    private McpSyncClient client;

    @BeforeAll
    void start() {
        client = McpClients.stdio(List.of("company", "", "", "employees,departments,orders", "employees.title", "-",
                "broad"));
    }

    @AfterAll
    void stop() {
        client.closeGracefully();
    }

    @Test
    void offersQueryAndDescribeWithoutAModel() {
        assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name)
                .containsExactlyInAnyOrder("query", "describe");
        assertThat(client.getServerInfo().name()).isEqualTo("sqlagent");
    }

    @Test
    void queryAnswersUnderTheStdioPolicy() {
        CallToolResult r = query(client, "SELECT d.dept_name, COUNT(*) AS n FROM employees e JOIN departments d "
                + "ON d.id = e.department_id GROUP BY d.dept_name ORDER BY d.dept_name");
        assertThat(r.isError()).isFalse();
        assertThat(text(r)).contains("| DEPT_NAME | N |").contains("| Engineering |");
        assertThat(structured(r)).containsEntry("status", "ANSWERED");
    }

    @Test
    void refusalsAreToolErrorsAndNothingRuns() {
        for (String sql : List.of("SELECT title FROM employees", "SELECT base_salary FROM salary_detail",
                "COMMIT; DELETE FROM orders", "/* */ DELETE FROM orders")) {
            CallToolResult r = query(client, sql);
            assertThat(r.isError()).as(sql).isTrue();
            assertThat(structured(r)).as(sql).containsEntry("executed", false);
        }
    }

    @Test
    void describeAndTheResourceShowThePolicysSchema() {
        String described = text(call(client, "describe", Map.of()));
        assertThat(described.toLowerCase()).contains("orders").contains("dept_name").doesNotContain("title")
                .doesNotContain("salary").doesNotContain("users");
        McpSchema.ReadResourceResult r = client.readResource(new McpSchema.ReadResourceRequest(SqlAgentMcpServer.SCHEMA_URI));
        assertThat(((McpSchema.TextResourceContents) r.contents().get(0)).text()).isEqualTo(described);
    }
}
