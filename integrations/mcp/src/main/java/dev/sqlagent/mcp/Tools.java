package dev.sqlagent.mcp;

import dev.sqlagent.AgentResult;
import dev.sqlagent.Question;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.schema.SchemaCatalog;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The server's tools and resource, for one transport: each call finds its client (and so its policy)
 * through the resolver, runs through the agent, is logged with the client's name and counted.
 */
final class Tools {

    /** The MDC key holding the name of the client whose call is handled. */
    static final String MDC_CLIENT = "sqlagent.mcp.client";

    private static final Logger LOG = LoggerFactory.getLogger("dev.sqlagent.mcp");

    private final SqlAgent agent;
    private final McpJsonMapper json;
    private final boolean ask;
    private final Map<String, LongAdder> calls;
    private final ToolResults.Bounds bounds;
    private final JsonRpcGate.Calls running;

    /**
     * @param agent the governed agent
     * @param json the SDK's JSON mapper
     * @param ask whether the {@code ask} tool is offered
     * @param calls the server's call counters, by tool
     * @param bounds the limits of one result
     * @param running the calls under way, which a cancellation reaches
     */
    Tools(SqlAgent agent, McpJsonMapper json, boolean ask, Map<String, LongAdder> calls, ToolResults.Bounds bounds,
            JsonRpcGate.Calls running) {
        this.agent = agent;
        this.json = json;
        this.ask = ask;
        this.calls = calls;
        this.bounds = bounds;
        this.running = running;
    }

    /** The names of the tools offered. */
    java.util.Set<String> names() {
        return ask ? java.util.Set.of("query", "ask", "describe") : java.util.Set.of("query", "describe");
    }

    /**
     * Runs the call on the agent's executor and waits for it; a {@code notifications/cancelled} naming the
     * call cancels the run, and with it the statement in the database.
     */
    private AgentResult cancellable(String key, java.util.concurrent.CompletableFuture<AgentResult> run) {
        running.attach(key, run);
        try {
            return run.join();
        } catch (java.util.concurrent.CancellationException e) {
            throw new CallFailure("the call was cancelled by the client; its statement was cancelled in the database");
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof IllegalStateException ise) {
                throw ise;
            }
            throw new CallFailure("the call failed: " + e.getCause());
        }
    }

    /** The call counters a server starts with: one per tool and the resource, at zero. */
    static Map<String, LongAdder> counters() {
        Map<String, LongAdder> m = new ConcurrentHashMap<>();
        for (String n : List.of("query", "ask", "describe", "schema_resource", "refused_unauthenticated")) {
            m.put(n, new LongAdder());
        }
        return m;
    }

    /**
     * @param clients finds the client of a call; throws {@link IllegalStateException} when there is none
     * @return the tool specifications
     */
    List<SyncToolSpecification> tools(Function<McpSyncServerExchange, Client> clients) {
        List<SyncToolSpecification> out = new ArrayList<>();
        out.add(tool("query", "Run one read-only SQL SELECT",
                "Runs one SQL SELECT written by you against the database, read-only. It is checked first against "
                        + "this connection's policy (allowed tables and columns, allowed functions, one statement, "
                        + "no comments): a refused statement is not run and comes back as an error listing the "
                        + "violations; do not retry the same intent in another form. Rows are capped and some tables "
                        + "are filtered for this connection; call describe first to see what may be read.",
                Map.of("sql", property("string", "One SQL SELECT statement in the database's dialect")),
                List.of("sql"), true, clients, (client, args, key) -> {
                    String sql = text(args, "sql");
                    AgentResult r = cancellable(key, agent.queryAsync(Question.of(sql).withPolicy(client.policy())
                            .withCategory("mcp.query")));
                    return ToolResults.query(r, client.policy().maxRows(), bounds, json);
                }));
        if (ask) {
            out.add(tool("ask", "Ask the database a question in plain language",
                    "Answers a question about the data in natural language: the server's governed agent writes the "
                            + "SQL with its own model, checks it against this connection's policy, runs it read-only "
                            + "and corrects it at most once. Returns the answer table and the SQL that ran; on a "
                            + "refusal or failure, an error with the hand-off a person needs to take over.",
                    Map.of("question", property("string", "The question in natural language")),
                    List.of("question"), false, clients, (client, args, key) -> {
                        String q = text(args, "question");
                        AgentResult r = cancellable(key, agent.askAsync(Question.of(q).withPolicy(client.policy())));
                        return ToolResults.ask(r, client.policy().maxRows(), bounds, json);
                    }));
        }
        out.add(tool("describe", "Describe the tables this connection may read",
                "The schema this connection may read: tables, columns with types and descriptions, keys and the "
                        + "relations between tables, the row cap and which tables are row-filtered. Tables and "
                        + "columns the policy forbids are not listed.",
                Map.of(), List.of(), true, clients, (client, args, key) -> {
                    SchemaCatalog visible = schema(client);
                    return ToolResults.describe(SchemaDescription.text(visible, client.policy(), agent.dialect()),
                            SchemaDescription.structured(visible, client.policy(), agent.dialect()), bounds, json);
                }));
        return out;
    }

    /**
     * @param clients finds the client of a read
     * @return the schema resource, the {@code describe} text as Markdown
     */
    SyncResourceSpecification schemaResource(Function<McpSyncServerExchange, Client> clients) {
        McpSchema.Resource resource = McpSchema.Resource.builder(SqlAgentMcpServer.SCHEMA_URI, "schema")
                .title("Database schema visible to this connection")
                .description("The tables and columns this connection may read, with descriptions and relations "
                        + "(the same as the describe tool).")
                .mimeType("text/markdown").build();
        return new SyncResourceSpecification(resource, (exchange, request) -> {
            Client client = clients.apply(exchange);
            long start = System.nanoTime();
            String outer = MDC.get(MDC_CLIENT);
            MDC.put(MDC_CLIENT, client.name());
            try {
                calls.get("schema_resource").increment();
                String text = ToolResults.cutText(SchemaDescription.text(schema(client), client.policy(),
                        agent.dialect()), bounds.maxBytes() - 4_096L);
                LOG.info("mcp resource {} client={} time_ms={}", SqlAgentMcpServer.SCHEMA_URI, client.name(),
                        (System.nanoTime() - start) / 1_000_000);
                return McpSchema.ReadResourceResult.builder(List.of(McpSchema.TextResourceContents
                        .builder(request.uri(), text).mimeType("text/markdown").build())).build();
            } finally {
                restore(outer);
            }
        });
    }

    private SchemaCatalog schema(Client client) {
        try {
            return SchemaDescription.shown(agent.schema(client.policy()), client.policy());
        } catch (SQLException e) {
            throw new CallFailure("cannot read the schema: " + e.getMessage());
        }
    }

    private SyncToolSpecification tool(String name, String title, String description, Map<String, Object> properties,
            List<String> required, boolean idempotent, Function<McpSyncServerExchange, Client> clients,
            Body body) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", required);
        schema.put("additionalProperties", false);
        McpSchema.Tool tool = McpSchema.Tool.builder(name, schema).title(title).description(description)
                .annotations(McpSchema.ToolAnnotations.builder().title(title).readOnlyHint(true)
                        .destructiveHint(false).idempotentHint(idempotent).openWorldHint(false).build())
                .build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
            Client client = clients.apply(exchange);
            long start = System.nanoTime();
            String outer = MDC.get(MDC_CLIENT);
            MDC.put(MDC_CLIENT, client.name());
            calls.get(name).increment();
            CallToolResult result;
            String key = request.meta() != null && request.meta().get(JsonRpcGate.CALL_KEY) instanceof String k ? k : null;
            try {
                result = body.apply(client, arguments(request), key);
            } catch (CallFailure e) {
                result = ToolResults.error(e.getMessage());
            } catch (IllegalStateException e) {
                // the agent was closed under the server
                result = ToolResults.error("the server is shutting down: " + e.getMessage());
            } finally {
                running.done(key);
                restore(outer);
            }
            Object status = result.structuredContent() instanceof Map<?, ?> m ? m.get("status") : null;
            Object id = result.structuredContent() instanceof Map<?, ?> m ? m.get("question_id") : null;
            LOG.info("mcp tool {} client={} status={} question={} time_ms={}", name, client.name(),
                    status == null ? "OK" : status, id == null ? "-" : id, (System.nanoTime() - start) / 1_000_000);
            return result;
        }).build();
    }

    private static Map<String, Object> arguments(CallToolRequest request) {
        return request.arguments() == null ? Map.of() : request.arguments();
    }

    private static String text(Map<String, Object> args, String name) {
        Object v = args.get(name);
        if (!(v instanceof String s) || s.isBlank()) {
            throw new CallFailure("the argument '" + name + "' must be a non-blank string");
        }
        return s;
    }

    private static Map<String, Object> property(String type, String description) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", type);
        p.put("description", description);
        return p;
    }

    private static void restore(String outer) {
        if (outer == null) {
            MDC.remove(MDC_CLIENT);
        } else {
            MDC.put(MDC_CLIENT, outer);
        }
    }

    /** A tool's work: the client, the arguments, the call's key for cancellation (or null). */
    @FunctionalInterface
    private interface Body {
        CallToolResult apply(Client client, Map<String, Object> args, String key);
    }

    /** A call the server cannot take; becomes a tool error naming the reason. */
    static final class CallFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CallFailure(String message) {
            super(message, null, false, false);
        }
    }
}
