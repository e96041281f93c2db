package dev.sqlagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testkit.ScriptedLlm;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code notifications/cancelled} on PostgreSQL: the statement of the cancelled {@code tools/call} is gone from
 * {@code pg_stat_activity} within a second of the notification, where it would otherwise run until its
 * 60-second time-out.
 */
@Timeout(120)
class McpCancellationTest {

    private static final String MARKER = "mcp_cancel_marker";

    private Servers.Server pg;
    private SqlAgent agent;
    private OutputStream toServer;
    private BufferedReader fromServer;
    private CompletableFuture<Void> serving;

    private DataSource admin() {
        return new UrlDataSource(Servers.withParameter(pg.url(), "currentSchema", "mcp_cancel"), pg.user(),
                pg.password());
    }

    @BeforeEach
    void start() throws Exception {
        pg = Servers.postgres().require();
        try (Connection c = pg.admin().getConnection(); Statement s = c.createStatement()) {
            s.execute("SELECT pg_advisory_lock(hashtext('mcp_cancel-setup'))");
            try {
                s.execute("CREATE SCHEMA IF NOT EXISTS mcp_cancel");
                s.execute("CREATE TABLE IF NOT EXISTS mcp_cancel.nums (n INT PRIMARY KEY)");
                s.execute("INSERT INTO mcp_cancel.nums SELECT g FROM generate_series(1, 3000) g ON CONFLICT DO NOTHING");
            } finally {
                s.execute("SELECT pg_advisory_unlock(hashtext('mcp_cancel-setup'))");
            }
        }
        agent = SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(admin())
                .policy(GuardPolicy.builder().allowTables("nums").build()).queryTimeout(Duration.ofSeconds(60)).build();
        SqlAgentMcpServer server = SqlAgentMcpServer.builder().agent(agent).askTool(false).allowBroadLogin(true).build();
        PipedInputStream serverIn = new PipedInputStream(1 << 16);
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
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"cancel\",\"version\":\"1\"}}}");
        assertThat(fromServer.readLine()).contains("\"result\"");
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    @AfterEach
    void stop() throws Exception {
        if (toServer != null) {
            toServer.close();
            serving.get(30, TimeUnit.SECONDS);
        }
        if (agent != null) {
            agent.close();
        }
        if (pg != null) {
            try (Connection c = pg.admin().getConnection(); Statement s = c.createStatement()) {
                s.execute("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE '%" + MARKER
                        + "%' AND pid <> pg_backend_pid()");
            }
        }
    }

    private void send(String line) throws IOException {
        toServer.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        toServer.flush();
    }

    /** Whether the marked statement runs, as PostgreSQL sees it. */
    private static boolean running(Connection watch) throws SQLException {
        try (PreparedStatement ps = watch.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE state = "
                + "'active' AND query LIKE ? AND pid <> pg_backend_pid()")) {
            ps.setString(1, "%" + MARKER + "%");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }

    /** Polls the database until the state is reached or the time is up; no sleep. */
    private static boolean await(Connection watch, boolean wanted, Duration bound) throws SQLException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline) {
            if (running(watch) == wanted) {
                return true;
            }
        }
        return running(watch) == wanted;
    }

    @Test
    @SuppressWarnings("unchecked")
    void aCancelledCallsStatementIsGoneFromTheDatabaseLongBeforeItsTimeout() throws Exception {
        send("{\"jsonrpc\":\"2.0\",\"id\":30,\"method\":\"tools/call\",\"params\":{\"name\":\"query\",\"arguments\":"
                + "{\"sql\":\"SELECT count(*) AS " + MARKER + " FROM nums a, nums b, nums c\"}}}");
        try (Connection watch = pg.admin().getConnection()) {
            assertThat(await(watch, true, Duration.ofSeconds(30))).as("the statement runs").isTrue();
            long sent = System.nanoTime();
            send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":30,"
                    + "\"reason\":\"the user pressed stop\"}}");
            // the statement would run for minutes and the agent's time-out is 60 s: gone within 15 s is the cancel's
            // doing (about 40-400 ms on a quiet machine; a one-second bound failed once under a full build's load)
            assertThat(await(watch, false, Duration.ofSeconds(15))).as("the statement is gone long before its time-out")
                    .isTrue();
            System.err.println("mcp cancellation: the statement left pg_stat_activity "
                    + (System.nanoTime() - sent) / 1_000_000 + " ms after the notification");
        }
        Map<String, Object> reply = McpJsonDefaults.getMapper().readValue(fromServer.readLine(), Map.class);
        assertThat(reply).containsEntry("id", 30);
        Map<String, Object> result = (Map<String, Object>) reply.get("result");
        assertThat(result).containsEntry("isError", true);
        // the session goes on
        send("{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"tools/call\",\"params\":{\"name\":\"query\",\"arguments\":"
                + "{\"sql\":\"SELECT count(*) AS n FROM nums\"}}}");
        assertThat(fromServer.readLine()).contains("\"id\":31").contains("3000");
    }
}
