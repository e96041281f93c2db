package dev.sqlagent.mcp;

import static dev.sqlagent.mcp.McpClients.query;
import static dev.sqlagent.mcp.McpClients.structured;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.SqlAgent;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testkit.ScriptedLlm;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * The escape classes that other database MCP servers fell to, sent through the {@code query} tool with the
 * SDK's own client over Streamable HTTP and over stdio (a child JVM): transaction end and
 * {@code SET TRANSACTION READ WRITE} inside the query, stacked statements, leading comments, functions that
 * write despite a read-only transaction, file and network functions, a forbidden table and a denied column.
 * Each must come back as a tool error with nothing run, and the database must be as it was (its
 * {@link #state()} unchanged). The servers run as an administrator who could do all of it, with
 * {@code allowBroadLogin}: the guard and the engine check are the only defence being tested.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class EscapeSuite {

    /** The token of the HTTP client. */
    static final String TOKEN = "escape-suite-token-0123456789";

    private SqlAgent agent;
    private SqlAgentMcpServer server;
    private HttpEndpoint http;
    private McpSyncClient overHttp;
    private McpSyncClient overStdio;

    /** @return the administrator's data source on the suite's own database or schema; skips when absent */
    abstract DataSource admin();

    /** Creates the suite's tables (idempotent) through the administrator. */
    abstract void createTables(Statement s) throws SQLException;

    /** @return whether the policy filters the items to owner 1 */
    boolean rowFiltered() {
        return true;
    }

    /** @return the policy: the items table, its {@code secret} column denied, rows of owner 1 only */
    GuardPolicy policy() {
        GuardPolicy.Builder b = GuardPolicy.builder().allowTables("items").denyColumn("items", "secret");
        return (rowFiltered() ? b.rowFilter("items", "owner", 1) : b).build();
    }

    /** @return the arguments of {@link StdioServerMain} for the same database and policy */
    abstract List<String> stdioArguments();

    /** @return the attacks, each one SQL text */
    abstract List<String> attacks();

    /** @return queries through the administrator whose answers must not change */
    abstract List<String> stateQueries();

    /** Creates the suite's database where the engine needs one before it can connect to it. */
    void createDatabase() throws SQLException {
    }

    @BeforeAll
    void start() throws Exception {
        createDatabase();
        DataSource admin = admin();
        try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
            createTables(s);
        }
        agent = SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(admin).policy(policy()).build();
        server = SqlAgentMcpServer.builder().agent(agent).policyFor("escape", TOKEN, policy()).askTool(false)
                .allowBroadLogin(true).build();
        http = server.startHttp(0);
        overHttp = McpClients.http(http.uri(), TOKEN);
        overStdio = McpClients.stdio(stdioArguments());
    }

    @AfterAll
    void stop() {
        if (overHttp != null) {
            overHttp.closeGracefully();
        }
        if (overStdio != null) {
            overStdio.closeGracefully();
        }
        if (server != null) {
            server.close();
        }
        if (agent != null) {
            agent.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyEscapeIsRefusedOverHttp() {
        return attacks().stream().map(sql -> DynamicTest.dynamicTest(sql, () -> refused(overHttp, sql)));
    }

    @TestFactory
    Stream<DynamicTest> everyEscapeIsRefusedOverStdio() {
        return attacks().stream().map(sql -> DynamicTest.dynamicTest(sql, () -> refused(overStdio, sql)));
    }

    @Test
    void anAllowedQueryAnswersWithinTheRowFilter() {
        for (McpSyncClient c : List.of(overHttp, overStdio)) {
            CallToolResult r = query(c, "SELECT owner, name FROM items WHERE owner = 2 OR 1 = 1");
            assertThat(r.isError()).as(McpClients.text(r)).isFalse();
            @SuppressWarnings("unchecked")
            List<List<Object>> rows = (List<List<Object>>) structured(r).get("rows");
            assertThat(rows).isNotEmpty();
            if (rowFiltered()) {
                assertThat(rows).allSatisfy(row -> assertThat(((Number) row.get(0)).longValue()).isEqualTo(1L));
            } else {
                assertThat(rows).hasSize(3);
            }
        }
    }

    /**
     * One server, two tokens, two policies, both clients at once: the one whose policy allows {@code hidden}
     * reads it, the other is refused every time and is not shown it.
     */
    @Test
    void twoTokensKeepTheirOwnPoliciesWithBothClientsAtOnce() throws Exception {
        GuardPolicy wide = GuardPolicy.builder().allowTables("items", "hidden").denyColumn("items", "secret").build();
        String wideToken = "wide-token-0123456789abcdef";
        String narrowToken = "narrow-token-0123456789abcdef";
        try (SqlAgent both = SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(admin()).policy(wide).build()) {
            SqlAgentMcpServer two = SqlAgentMcpServer.builder().agent(both).policyFor("wide", wideToken, wide)
                    .policyFor("narrow", narrowToken, policy()).askTool(false).allowBroadLogin(true).build();
            try (HttpEndpoint endpoint = two.startHttp(0)) {
                McpSyncClient a = McpClients.http(endpoint.uri(), wideToken);
                McpSyncClient b = McpClients.http(endpoint.uri(), narrowToken);
                ExecutorService pool = Executors.newFixedThreadPool(4);
                try {
                    List<Future<CallToolResult>> fromA = new ArrayList<>();
                    List<Future<CallToolResult>> fromB = new ArrayList<>();
                    for (int i = 0; i < 6; i++) {
                        fromA.add(pool.submit(() -> query(a, "SELECT v FROM hidden")));
                        fromB.add(pool.submit(() -> query(b, "SELECT v FROM hidden")));
                    }
                    for (Future<CallToolResult> f : fromA) {
                        CallToolResult r = f.get(60, TimeUnit.SECONDS);
                        assertThat(r.isError()).as(McpClients.text(r)).isFalse();
                        assertThat(McpClients.text(r)).contains("payroll");
                    }
                    for (Future<CallToolResult> f : fromB) {
                        CallToolResult r = f.get(60, TimeUnit.SECONDS);
                        assertThat(r.isError()).isTrue();
                        assertThat(structured(r)).containsEntry("status", "REJECTED").containsEntry("executed", false);
                    }
                    assertThat(McpClients.text(McpClients.call(a, "describe", java.util.Map.of())).toLowerCase())
                            .contains("hidden");
                    assertThat(McpClients.text(McpClients.call(b, "describe", java.util.Map.of())).toLowerCase())
                            .doesNotContain("hidden");
                } finally {
                    pool.shutdownNow();
                    a.closeGracefully();
                    b.closeGracefully();
                }
            }
        }
    }

    /**
     * The held-out payloads of {@code shared/data/sqli} (raw, one per line), spliced into a string and a number
     * of an allowed query: whatever comes back answered holds no value of a row the filter excludes, of the
     * forbidden table or of the denied column, and the database is unchanged.
     */
    @Test
    void injectionPayloadsSplicedIntoAQueryReadNothingBeyondThePolicy() throws Exception {
        Path dir = Path.of(System.getProperty("sqlagent.projectRoot", "../.."), "..", "shared", "data", "sqli").normalize();
        Assumptions.assumeTrue(Files.isDirectory(dir), "SKIPPED: no payload lists at " + dir);
        Set<String> payloads = new LinkedHashSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(x -> x.toString().endsWith(".txt")).sorted().toList()) {
                for (String line : Files.readAllLines(f, StandardCharsets.ISO_8859_1)) {
                    if (!line.isBlank()) {
                        payloads.add(line);
                    }
                }
            }
        }
        List<String> before = state();
        // the forbidden table's value, the denied column's values, and (filtered) the name only owner 2's row has;
        // a constant the payload selects itself ("UNION SELECT 2, 'x'") is no leak
        Set<String> forbidden = rowFiltered() ? Set.of("payroll", "s1", "s2", "s3", "safe")
                : Set.of("payroll", "s1", "s2", "s3");
        int answered = 0;
        for (String p : payloads) {
            for (String template : List.of("SELECT owner, name FROM items WHERE name = '{}'",
                    "SELECT owner, name FROM items WHERE id = 1{}")) {
                String sql = template.replace("{}", p);
                CallToolResult r = query(overHttp, sql);
                if (Boolean.TRUE.equals(r.isError())) {
                    continue;
                }
                answered++;
                @SuppressWarnings("unchecked")
                List<List<Object>> rows = (List<List<Object>>) structured(r).get("rows");
                for (List<Object> row : rows) {
                    for (Object v : row) {
                        assertThat(String.valueOf(v)).as(sql).isNotIn(forbidden);
                    }
                }
            }
        }
        System.err.println("[" + getClass().getSimpleName() + "] " + payloads.size() + " payloads x 2 templates: "
                + answered + " answered within the policy, the rest refused or failed");
        assertThat(state()).isEqualTo(before);
    }

    private void refused(McpSyncClient client, String sql) throws SQLException {
        List<String> before = state();
        CallToolResult r = query(client, sql);
        assertThat(r.isError()).as("answered: %s", McpClients.text(r)).isTrue();
        assertThat(structured(r).get("status")).as(McpClients.text(r)).isIn("REJECTED", "FAILED", "ERROR");
        assertThat(structured(r).get("executed")).as("the statement ran: %s", McpClients.text(r)).isNotEqualTo(true);
        assertThat(state()).isEqualTo(before);
    }

    /** @return the answers of {@link #stateQueries()} */
    List<String> state() throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = admin().getConnection(); Statement s = c.createStatement()) {
            for (String q : stateQueries()) {
                try (ResultSet rs = s.executeQuery(q)) {
                    StringBuilder b = new StringBuilder(q).append(" ->");
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        for (int i = 1; i <= n; i++) {
                            b.append(' ').append(rs.getString(i));
                        }
                        b.append(';');
                    }
                    out.add(b.toString());
                }
            }
        }
        return out;
    }
}
