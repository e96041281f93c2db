package dev.sqlagent.mcp;

import static dev.sqlagent.mcp.McpClients.call;
import static dev.sqlagent.mcp.McpClients.query;
import static dev.sqlagent.mcp.McpClients.structured;
import static dev.sqlagent.mcp.McpClients.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentRole;
import dev.sqlagent.cases.CaseRecord;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The server over Streamable HTTP with the SDK's own client, on H2: the tools' results and refusals, each
 * bearer token held to its own policy (two clients at once), and the gate in front of the MCP messages.
 */
class McpHttpTest {

    static final String ANALYSTS = "analysts-token-0123456789abcdef";
    static final String SUPPORT = "support-token-0123456789abcdefgh";
    static final String SALESMAN = "salesman-token-0123456789abcdefg";

    private CompanyFixture fx;
    private SqlAgentMcpServer server;
    private HttpEndpoint http;
    private final List<McpSyncClient> clients = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        fx = new CompanyFixture();
        // one login serves three policies: for the narrower ones the guard is the only defence, accepted here
        server = SqlAgentMcpServer.builder().agent(fx.agent)
                .policyFor("analysts", ANALYSTS, CompanyFixture.analysts())
                .policyFor("support", SUPPORT, CompanyFixture.support())
                .policyFor("salesman", SALESMAN, CompanyFixture.salesman())
                .allowBroadLogin(true).build();
        http = server.startHttp(0);
    }

    @AfterEach
    void stop() {
        clients.forEach(McpSyncClient::closeGracefully);
        server.close();
        fx.close();
    }

    private McpSyncClient client(String token) {
        McpSyncClient c = McpClients.http(http.uri(), token);
        clients.add(c);
        return c;
    }

    @Test
    void listsTheThreeReadOnlyToolsAndTheSchemaResource() {
        McpSyncClient c = client(ANALYSTS);
        List<McpSchema.Tool> tools = c.listTools().tools();
        assertThat(tools).extracting(McpSchema.Tool::name).containsExactlyInAnyOrder("query", "ask", "describe");
        assertThat(tools).allSatisfy(t -> assertThat(t.annotations().readOnlyHint()).isTrue());
        assertThat(c.listResources().resources()).extracting(McpSchema.Resource::uri)
                .containsExactly(SqlAgentMcpServer.SCHEMA_URI);
        assertThat(http.uri().getHost()).isEqualTo("127.0.0.1");
    }

    @Test
    void queryReturnsAReadableTableWithTheRowCapStated() {
        CallToolResult r = query(client(ANALYSTS), "SELECT name, title FROM employees WHERE department_id = 1 ORDER BY name");

        assertThat(r.isError()).isFalse();
        assertThat(text(r)).startsWith("| NAME | TITLE |").contains("| Alice Wang | Engineer |").contains("3 rows (row cap 1000).");
        Map<String, Object> s = structured(r);
        assertThat(s).containsEntry("status", "ANSWERED").containsEntry("row_count", 3).containsEntry("row_cap", 1000)
                .containsEntry("truncated", false).containsEntry("executed", true);
        assertThat((List<?>) s.get("rows")).hasSize(3);
        assertThat((String) s.get("executed_sql")).containsIgnoringCase("LIMIT");
    }

    @Test
    void aResultCutAtTheRowCapSaysSo() {
        CallToolResult r = query(client(SALESMAN), "SELECT name FROM employees ORDER BY id");
        assertThat(r.isError()).isFalse();
        assertThat(structured(r)).containsEntry("row_count", 2).containsEntry("row_cap_reached", true)
                .containsEntry("row_cap", 2);
        assertThat(text(r)).contains("2 rows: the row cap of 2 was reached, so more rows may exist");
    }

    @Test
    void theRowFilterOfTheTokensPolicyHolds() {
        CallToolResult r = query(client(SALESMAN), "SELECT COUNT(*) AS n, MIN(employee_id) AS lo, MAX(employee_id) AS hi FROM orders");
        assertThat(r.isError()).isFalse();
        @SuppressWarnings("unchecked")
        List<List<Object>> rows = (List<List<Object>>) structured(r).get("rows");
        assertThat(((Number) rows.get(0).get(1)).longValue()).isEqualTo(1L);
        assertThat(((Number) rows.get(0).get(2)).longValue()).isEqualTo(1L);
    }

    @Test
    void aForbiddenTableIsAToolErrorListingTheViolationAndNothingRuns() {
        CallToolResult r = query(client(SUPPORT), "SELECT customer, amount FROM orders");

        assertThat(r.isError()).isTrue();
        Map<String, Object> s = structured(r);
        assertThat(s).containsEntry("status", "REJECTED").containsEntry("executed", false);
        assertThat(text(r)).contains("Refused by the policy; nothing ran").contains("TABLE_NOT_ALLOWED")
                .contains("orders");
        assertThat(fx.llm.callCount()).isZero();
        assertThat(fx.agent.metrics().rejected()).isEqualTo(1);
        assertThat(fx.agent.metrics().corrections()).isZero();
    }

    @Test
    void aDeniedColumnIsRefused() {
        McpSyncClient support = client(SUPPORT);
        CallToolResult r = query(support, "SELECT username, email FROM users");
        assertThat(r.isError()).isTrue();
        assertThat(structured(r)).containsEntry("status", "REJECTED").containsEntry("executed", false);
        assertThat(text(r)).contains("email");
        assertThat(query(support, "SELECT username FROM users").isError()).isFalse();
    }

    @Test
    void aTableTheDatabaseLacksReadsExactlyLikeAForbiddenOne() {
        McpSyncClient support = client(SUPPORT);
        CallToolResult forbidden = query(support, "SELECT id FROM salary_detail");
        CallToolResult missing = query(support, "SELECT id FROM salary_detailz");

        assertThat(forbidden.isError()).isTrue();
        assertThat(missing.isError()).isTrue();
        assertThat(structured(missing)).containsEntry("status", "REJECTED").containsEntry("executed", false);
        assertThat(text(missing).replace("salary_detailz", "salary_detail")).isEqualTo(text(forbidden));
    }

    @Test
    void describeShowsOnlyWhatTheTokensPolicyAllows() {
        CallToolResult support = call(client(SUPPORT), "describe", Map.of());
        assertThat(support.isError()).isFalse();
        String text = text(support).toLowerCase();
        assertThat(text).contains("employees").contains("username").doesNotContain("orders").doesNotContain("email")
                .doesNotContain("salary");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> tables = (List<Map<String, Object>>) structured(support).get("tables");
        assertThat(tables).extracting(t -> ((String) t.get("name")).toLowerCase())
                .containsExactlyInAnyOrder("employees", "departments", "users");

        CallToolResult analysts = call(client(ANALYSTS), "describe", Map.of());
        assertThat(text(analysts).toLowerCase()).contains("orders").contains("customer").doesNotContain("username");
        // relations: an order's employee, an employee's department
        assertThat(text(analysts).toLowerCase()).contains("departments");
    }

    @Test
    void theSchemaResourceIsTheDescribeTextOfTheReadersPolicy() {
        McpSyncClient support = client(SUPPORT);
        McpSchema.ReadResourceResult r = support.readResource(new McpSchema.ReadResourceRequest(SqlAgentMcpServer.SCHEMA_URI));
        String resource = ((McpSchema.TextResourceContents) r.contents().get(0)).text();
        assertThat(resource).isEqualTo(text(call(support, "describe", Map.of())));
        assertThat(resource.toLowerCase()).doesNotContain("orders");
    }

    @Test
    void askAnswersWithTheSqlThatRan() {
        fx.llm.enqueueFor(AgentRole.REFINER.id(), "SELECT COUNT(*) AS n FROM employees");
        CallToolResult r = call(client(ANALYSTS), "ask", Map.of("question", "How many employees are there?"));

        assertThat(r.isError()).isFalse();
        assertThat(text(r)).contains("SQL that ran:").contains("COUNT(*)");
        assertThat(structured(r)).containsEntry("status", "ANSWERED").containsEntry("sql", "SELECT COUNT(*) AS n FROM employees");
    }

    @Test
    void askRefusedUnderTheTokensPolicyCarriesTheHandOff() {
        fx.llm.enqueueFor(AgentRole.REFINER.id(), "SELECT SUM(amount) FROM orders");
        CallToolResult r = call(client(SUPPORT), "ask", Map.of("question", "What is the total of all orders?"));

        assertThat(r.isError()).isTrue();
        Map<String, Object> s = structured(r);
        assertThat(s).containsEntry("status", "REJECTED");
        assertThat(s.get("hand_off")).isInstanceOfSatisfying(Map.class, h -> {
            assertThat(h.get("status")).isEqualTo("REJECTED");
            assertThat(h.get("asked_question")).isEqualTo("What is the total of all orders?");
        });
        assertThat(text(r)).contains("Hand-off for a person");
    }

    @Test
    void eachTokenKeepsItsOwnPolicyWithTwoClientsAtOnce() throws Exception {
        McpSyncClient analysts = client(ANALYSTS);
        McpSyncClient support = client(SUPPORT);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<CallToolResult>> a = new ArrayList<>();
            List<Future<CallToolResult>> b = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                Callable<CallToolResult> readA = () -> query(analysts, "SELECT customer FROM orders");
                Callable<CallToolResult> readB = () -> query(support, "SELECT customer FROM orders");
                a.add(pool.submit(readA));
                b.add(pool.submit(readB));
            }
            for (Future<CallToolResult> f : a) {
                CallToolResult r = f.get(60, TimeUnit.SECONDS);
                assertThat(r.isError()).isFalse();
                assertThat(structured(r)).containsEntry("status", "ANSWERED");
            }
            for (Future<CallToolResult> f : b) {
                CallToolResult r = f.get(60, TimeUnit.SECONDS);
                assertThat(r.isError()).isTrue();
                assertThat(structured(r)).containsEntry("status", "REJECTED").containsEntry("executed", false);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(server.callCounts()).containsEntry("query", 16L);
        assertThat(fx.agent.metrics().answered()).isEqualTo(8);
        assertThat(fx.agent.metrics().rejected()).isEqualTo(8);
    }

    @Test
    void everyCallIsCountedAndKeptAsACase() throws Exception {
        McpSyncClient c = client(ANALYSTS);
        query(c, "SELECT name FROM employees");
        query(c, "SELECT secret FROM nowhere_at_all");
        call(c, "describe", Map.of());

        assertThat(server.callCounts()).containsEntry("query", 2L).containsEntry("describe", 1L);
        assertThat(fx.agent.metrics().questions()).isEqualTo(2);
        assertThat(fx.cases.cases()).hasSize(2).allSatisfy(k -> {
            assertThat(k.category()).isEqualTo("mcp.query");
            assertThat(k.verified()).isFalse();
        });
        assertThat(fx.cases.cases()).extracting(CaseRecord::status)
                .containsExactly(CaseRecord.Status.GOOD, CaseRecord.Status.BAD);
    }

    @Test
    void aBlankArgumentIsAToolError() {
        CallToolResult r = call(client(ANALYSTS), "query", Map.of("sql", "  "));
        assertThat(r.isError()).isTrue();
        assertThat(text(r)).contains("'sql' must be a non-blank string");
    }

    @Test
    void requestsWithoutAValidBearerTokenAreRefusedBeforeAnyMcpMessage() throws Exception {
        assertThat(RawHttp.post(http.uri(), Map.of(), RawHttp.INITIALIZE).status()).isEqualTo(401);
        RawHttp.Response wrong = RawHttp.post(http.uri(), Map.of("Authorization", "Bearer " + ANALYSTS + "x"),
                RawHttp.INITIALIZE);
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.headers()).containsKey("www-authenticate");
        assertThat(RawHttp.post(http.uri(), Map.of("Authorization", "Basic " + ANALYSTS), RawHttp.INITIALIZE).status())
                .isEqualTo(401);
        assertThat(RawHttp.post(http.uri(), Map.of("Authorization", "Bearer " + ANALYSTS), RawHttp.INITIALIZE).status())
                .isEqualTo(200);
        assertThat(server.callCounts().get("refused_unauthenticated")).isEqualTo(3L);
    }

    @Test
    void browserOriginsAndForeignHostNamesAreRefused() throws Exception {
        Map<String, String> auth = Map.of("Authorization", "Bearer " + ANALYSTS);
        Map<String, String> origin = new java.util.HashMap<>(auth);
        origin.put("Origin", "https://evil.example");
        assertThat(RawHttp.post(http.uri(), origin, RawHttp.INITIALIZE).status()).isEqualTo(403);
        Map<String, String> host = new java.util.HashMap<>(auth);
        host.put("Host", "rebound.evil.example:" + http.port());
        assertThat(RawHttp.post(http.uri(), host, RawHttp.INITIALIZE).status()).isEqualTo(403);
        Map<String, String> localhost = new java.util.HashMap<>(auth);
        localhost.put("Host", "localhost:" + http.port());
        assertThat(RawHttp.post(http.uri(), localhost, RawHttp.INITIALIZE).status()).isEqualTo(200);
    }

    @Test
    void aSessionOpenedWithOneTokenCannotBeUsedWithAnother() throws Exception {
        RawHttp.Response init = RawHttp.post(http.uri(), Map.of("Authorization", "Bearer " + ANALYSTS), RawHttp.INITIALIZE);
        String session = init.headers().get("mcp-session-id");
        assertThat(session).isNotBlank();

        RawHttp.Response hijack = RawHttp.post(http.uri(), Map.of("Authorization", "Bearer " + SUPPORT,
                "Mcp-Session-Id", session), RawHttp.TOOLS_LIST);
        assertThat(hijack.status()).isEqualTo(404);
        RawHttp.Response owner = RawHttp.post(http.uri(), Map.of("Authorization", "Bearer " + ANALYSTS,
                "Mcp-Session-Id", session), RawHttp.TOOLS_LIST);
        assertThat(owner.status()).isNotEqualTo(404);
    }
}
