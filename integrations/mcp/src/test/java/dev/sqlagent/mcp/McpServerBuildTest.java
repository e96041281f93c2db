package dev.sqlagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What {@link SqlAgentMcpServer.Builder#build()} checks: the privilege audit at start (a login that can read
 * what a policy forbids stops the server unless the host opts in), clients' tables within the agent's, tokens
 * long and distinct, and that HTTP needs a token.
 */
class McpServerBuildTest {

    private final CompanyFixture fx = new CompanyFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    @Test
    void aLeastPrivilegeLoginStartsWithoutTheOptIn() {
        SqlAgentMcpServer server = SqlAgentMcpServer.builder().agent(fx.agent).build();
        assertThat(server.audits()).containsOnlyKeys("stdio");
        assertThat(server.audits().get("stdio").guardIsOnlyDefence()).isFalse();
    }

    @Test
    void aLoginThatReadsAForbiddenTableStopsTheServer() {
        // the analyst can read salary_detail, which the policy forbids
        try (SqlAgent broad = SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(fx.db.analyst())
                .policy(GuardPolicy.allowingTables("employees", "orders")).build()) {
            assertThatThrownBy(() -> SqlAgentMcpServer.builder().agent(broad).build())
                    .isInstanceOfSatisfying(LoginTooBroadException.class, e -> {
                        assertThat(e.getMessage()).contains("[stdio]").contains("salary_detail")
                                .contains("allowBroadLogin(true)");
                        assertThat(e.reports()).containsOnlyKeys("stdio");
                    });
            SqlAgentMcpServer accepted = SqlAgentMcpServer.builder().agent(broad).allowBroadLogin(true).build();
            assertThat(accepted.audits().get("stdio").forbiddenTables()).anySatisfy(
                    t -> assertThat(t.toLowerCase()).contains("salary_detail"));
        }
    }

    @Test
    void aClientNarrowerThanTheLoginIsAuditedToo() {
        assertThatThrownBy(() -> SqlAgentMcpServer.builder().agent(fx.agent)
                .policyFor("support", McpHttpTest.SUPPORT, CompanyFixture.support()).build())
                .isInstanceOfSatisfying(LoginTooBroadException.class,
                        e -> assertThat(e.reports()).containsOnlyKeys("support"));
    }

    @Test
    void aCustomExecutorCannotBeAuditedAndNeedsTheOptIn() throws Exception {
        try (SqlAgent custom = SqlAgent.builder().llm(ScriptedLlm.create()).executor(s -> {
            throw new UnsupportedOperationException();
        }).dialect(dev.sqlagent.Dialect.H2).schema(fx.agent.schema(fx.agent.policy()))
                .policy(CompanyFixture.agentPolicy()).build()) {
            assertThatThrownBy(() -> SqlAgentMcpServer.builder().agent(custom).build())
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot audit");
            assertThat(SqlAgentMcpServer.builder().agent(custom).allowBroadLogin(true).build().audits()).isEmpty();
        }
    }

    @Test
    void aClientMayReadOnlyTablesTheAgentReads() {
        assertThatThrownBy(() -> SqlAgentMcpServer.builder().agent(fx.agent)
                .policyFor("x", McpHttpTest.SUPPORT, GuardPolicy.allowingTables("employees", "salary_detail")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'salary_detail'");
    }

    @Test
    void tokensMustBeLongDistinctAndClientsNamed() {
        SqlAgentMcpServer.Builder b = SqlAgentMcpServer.builder().agent(fx.agent);
        assertThatThrownBy(() -> b.policyFor("short-token", GuardPolicy.allowingTables("employees")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 16");
        b.policyFor("a", McpHttpTest.SUPPORT, GuardPolicy.allowingTables("employees"));
        assertThatThrownBy(() -> b.policyFor("b", McpHttpTest.SUPPORT, GuardPolicy.allowingTables("employees")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("same token as client 'a'")
                .hasMessageNotContaining(McpHttpTest.SUPPORT);
        assertThatThrownBy(() -> b.policyFor("stdio", McpHttpTest.ANALYSTS, GuardPolicy.allowingTables("employees")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anEngineWithoutLoginsOpenedReadOnlyStartsWithoutTheOptIn(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("shop.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, ssn TEXT)");
            s.execute("CREATE TABLE payroll (id INTEGER PRIMARY KEY, amount INTEGER)");
        }
        GuardPolicy policy = GuardPolicy.builder().allowTables("orders").denyColumn("orders", "ssn").build();
        // read-write: the file can be written through the connection, which a read-only open would refuse
        try (SqlAgent rw = SqlAgent.builder().llm(ScriptedLlm.create())
                .dataSource(new UrlDataSource("jdbc:sqlite:" + file, null, null)).policy(policy).build()) {
            assertThatThrownBy(() -> SqlAgentMcpServer.builder().agent(rw).build())
                    .isInstanceOfSatisfying(LoginTooBroadException.class, e -> assertThat(e.getMessage())
                            .contains("mode=ro").doesNotContain("login that can read only"));
        }
        // read-only: no login can be narrower than the file, so the tables and columns are the guard's alone
        try (SqlAgent ro = SqlAgent.builder().llm(ScriptedLlm.create())
                .dataSource(new UrlDataSource("jdbc:sqlite:file:" + file + "?mode=ro", null, null)).policy(policy)
                .build()) {
            SqlAgentMcpServer server = SqlAgentMcpServer.builder().agent(ro).build();
            assertThat(server.audits().get("stdio").forbiddenTables()).contains("payroll");
            assertThat(server.defences()).contains("writes: refused by the database (opened read-only)")
                    .contains("tables outside the policy: the guard only (SQLITE has no grants; the file holds payroll)")
                    .contains("denied columns: the guard only");
        }
    }

    @Test
    void aServerForHttpClientsOnlyNamesNoStdioClient() throws Exception {
        SqlAgentMcpServer server = SqlAgentMcpServer.builder().agent(fx.agent)
                .policyFor("analysts", McpHttpTest.ANALYSTS, CompanyFixture.agentPolicy()).build();
        assertThat(server.audits()).containsOnlyKeys("analysts");
        assertThat(server.defences()).contains("defences for analysts").doesNotContain("stdio");
        assertThatThrownBy(() -> server.serveStdio(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("policy(");
    }

    @Test
    void httpNeedsABearerToken() {
        SqlAgentMcpServer server = SqlAgentMcpServer.builder().agent(fx.agent).build();
        assertThatThrownBy(() -> server.startHttp(0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("bearer token");
    }

    @Test
    void serveStdioReturnsWhenTheInputEnds() throws Exception {
        SqlAgentMcpServer server = SqlAgentMcpServer.builder().agent(fx.agent).build();
        String init = RawHttp.INITIALIZE + "\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        server.serveStdio(new ByteArrayInputStream(init.getBytes(StandardCharsets.UTF_8)), out);
        // the input ended: serveStdio returned (whether the reply was written before the session closed is the SDK's)
        server.close();
        assertThatThrownBy(() -> server.serveStdio(new ByteArrayInputStream(new byte[0]), out))
                .isInstanceOf(IllegalStateException.class);
    }
}
