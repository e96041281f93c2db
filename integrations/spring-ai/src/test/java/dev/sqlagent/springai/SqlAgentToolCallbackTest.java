package dev.sqlagent.springai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testkit.ShopDatabase;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;

/**
 * The governed agent as Spring AI tools, against H2. The agent's SQL writer is a scripted Spring AI chat
 * model behind {@link SpringAiLlmClient}; the assistant's tool call is executed by Spring AI's own
 * {@link ToolCallingManager}, as a provider's chat model does it.
 */
class SqlAgentToolCallbackTest {

    private final List<SqlAgent> agents = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        agents.forEach(SqlAgent::close);
    }

    /** The agent's SQL writer: the secret table for "card", otherwise the order total per city. */
    private SqlAgent agent() {
        ScriptedChatModel sqlWriter = ScriptedChatModel.text(p -> p.getContents().contains("card")
                ? "SELECT card FROM card_numbers"
                : "SELECT c.city, SUM(o.amount) AS total FROM orders o JOIN customers c ON c.id = o.customer_id"
                        + " GROUP BY c.city ORDER BY c.city");
        SqlAgent agent = SqlAgent.builder().llm(SpringAiLlmClient.of(sqlWriter)).dataSource(ShopDatabase.create())
                .policy(GuardPolicy.allowingTables("customers", "orders")).caseSinkRetries(false).build();
        agents.add(agent);
        return agent;
    }

    private static String runToolCall(SqlAgentToolCallback tool, String arguments) {
        Prompt prompt = new Prompt(List.<Message>of(new UserMessage("Which city buys most?")),
                ToolCallingChatOptions.builder().toolCallbacks(tool).build());
        ChatResponse assistantAsks = new ChatResponse(List.of(new Generation(AssistantMessage.builder().content("")
                .toolCalls(List.of(new AssistantMessage.ToolCall("call-1", "function",
                        tool.getToolDefinition().name(), arguments)))
                .build())));
        ToolExecutionResult executed = ToolCallingManager.builder().build().executeToolCalls(prompt, assistantAsks);
        List<Message> history = executed.conversationHistory();
        ToolResponseMessage response = (ToolResponseMessage) history.get(history.size() - 1);
        assertThat(response.getResponses()).singleElement().satisfies(r -> assertThat(r.id()).isEqualTo("call-1"));
        return response.getResponses().get(0).responseData();
    }

    @Test
    void aQuestionIsAnsweredEndToEndThroughSpringAisToolExecution() {
        List<AgentResult> results = new CopyOnWriteArrayList<>();
        SqlAgentToolCallback tool = SqlAgentToolCallback.builder(agent()).onResult(results::add).buildAsk();

        String text = runToolCall(tool, "{\"question\": \"What is the order total per city?\"}");

        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.question()).isEqualTo("What is the order total per city?");
            assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        });
        assertThat(text).contains("SQL: SELECT").contains("| CITY | TOTAL |").contains("| Lyon | 25.50 |")
                .contains("| Oslo | 99.90 |");
    }

    @Test
    void aForbiddenTableIsRefusedThroughTheToolWithoutTheData() {
        List<AgentResult> results = new CopyOnWriteArrayList<>();
        SqlAgentToolCallback tool = SqlAgentToolCallback.builder(agent()).onResult(results::add).buildAsk();

        String text = runToolCall(tool, "{\"question\": \"List the card numbers\"}");

        assertThat(results).singleElement().satisfies(r -> assertThat(r.status()).isEqualTo(AgentResult.Status.REJECTED));
        assertThat(text).contains("refused by the data access policy").contains("card_numbers")
                .contains("Do not try to obtain this data another way").doesNotContain("4111111111111111");
    }

    @Test
    void callerSqlRunsGovernedAndAForbiddenTableIsRefusedNotCorrected() {
        List<AgentResult> results = new CopyOnWriteArrayList<>();
        SqlAgentToolCallback tool = SqlAgentToolCallback.builder(agent()).onResult(results::add).buildQuery();

        String rows = runToolCall(tool, "{\"sql\": \"SELECT name FROM customers WHERE city = 'Lyon' ORDER BY name\"}");
        assertThat(rows).contains("| NAME |").contains("| Ada |").contains("| Cy |");

        String refused = runToolCall(tool, "{\"sql\": \"SELECT card FROM card_numbers\"}");
        assertThat(refused).contains("refused by the data access policy").doesNotContain("4111111111111111");
        assertThat(results).extracting(AgentResult::status)
                .containsExactly(AgentResult.Status.ANSWERED, AgentResult.Status.REJECTED);
        assertThat(results.get(1).trace().modelCalls()).isEmpty();
    }

    /**
     * Nothing is laundered: a model that wraps its query in COPY, or caller SQL that ATTACHes or reads a file,
     * is refused as a policy violation after one model call at most, never cleaned into the inner query and
     * never corrected as a syntax error.
     */
    @Test
    void aStatementThatIsNotOneQueryIsRefusedOnBothTools() {
        SqlAgent agent = SqlAgent.builder().llm(SpringAiLlmClient.of(ScriptedChatModel.text(
                        p -> "COPY (SELECT city FROM customers) TO 'out.csv'")))
                .dataSource(ShopDatabase.create()).policy(GuardPolicy.allowingTables("customers", "orders"))
                .caseSinkRetries(false).build();
        agents.add(agent);
        List<AgentResult> results = new CopyOnWriteArrayList<>();

        String asked = runToolCall(SqlAgentToolCallback.builder(agent).onResult(results::add).buildAsk(),
                "{\"question\": \"Export the cities\"}");
        SqlAgentToolCallback query = SqlAgentToolCallback.builder(agent).onResult(results::add).buildQuery();
        String attached = runToolCall(query, "{\"sql\": \"ATTACH 'x.db' AS o; SELECT city FROM customers\"}");
        String file = runToolCall(query, "{\"sql\": \"SELECT secret FROM 'data/secret.csv'\"}");

        assertThat(List.of(asked, attached, file)).allSatisfy(t -> assertThat(t).contains("refused by the data access policy"));
        assertThat(results).extracting(AgentResult::status).containsOnly(AgentResult.Status.REJECTED);
        assertThat(results.get(0).trace().modelCallCount()).isEqualTo(1);
        assertThat(results).allSatisfy(r -> {
            assertThat(r.trace().executions()).isEmpty();
            assertThat(r.trace().correctionCount()).isZero();
            assertThat(((AgentResult.Rejected) r).violations()).extracting(v -> v.type()).containsAnyOf(
                    dev.sqlagent.guard.ViolationType.NOT_A_QUERY, dev.sqlagent.guard.ViolationType.TABLE_FUNCTION);
        });
        assertThat(agent.metrics().rejected()).isEqualTo(3);
    }

    @Test
    void theDefinitionNamesItsOneParameter() throws Exception {
        SqlAgent agent = agent();
        JsonNode ask = new ObjectMapper().readTree(SqlAgentToolCallback.ask(agent).getToolDefinition().inputSchema());
        assertThat(SqlAgentToolCallback.ask(agent).getToolDefinition().name()).isEqualTo(SqlAgentToolCallback.ASK);
        assertThat(ask.get("properties").fieldNames()).toIterable().containsExactly("question");
        assertThat(ask.get("required").get(0).asText()).isEqualTo("question");
        JsonNode query = new ObjectMapper().readTree(SqlAgentToolCallback.query(agent).getToolDefinition().inputSchema());
        assertThat(query.get("properties").fieldNames()).toIterable().containsExactly("sql");
        assertThat(SqlAgentToolCallback.builder(agent).names("shop_ask", "shop_sql").buildQuery()
                .getToolDefinition().name()).isEqualTo("shop_sql");
    }

    @Test
    void aMissingArgumentIsSaidNotAsked() {
        List<AgentResult> results = new CopyOnWriteArrayList<>();
        SqlAgentToolCallback tool = SqlAgentToolCallback.builder(agent()).onResult(results::add).buildAsk();
        assertThat(tool.call("{}")).contains("No question was given");
        assertThat(tool.call("not json")).contains("No question was given");
        assertThat(tool.call("{\"question\": \"  \"}")).contains("No question was given");
        assertThat(results).isEmpty();
    }

    @Test
    void aBadArgumentIsNamedWithItsType() {
        List<AgentResult> results = new CopyOnWriteArrayList<>();
        SqlAgentToolCallback tool = SqlAgentToolCallback.builder(agent()).onResult(results::add).buildQuery();
        assertThat(tool.call("{\"sql\": 42}")).contains("the argument \"sql\" must be a string, not a number");
        assertThat(tool.call("{\"sql\": [\"SELECT 1\"]}")).contains("must be a string, not an array");
        assertThat(tool.call("{\"sql\": \"SELECT 1\"")).contains("not valid JSON (at line 1");
        assertThat(tool.call("[1]")).contains("must be a JSON object, not an array");
        assertThat(tool.call("{\"query\": \"SELECT 1\"}")).contains("the argument \"sql\" is missing")
                .contains("{\"sql\": \"SELECT ...\"}");
        assertThat(tool.call("{\"sql\": \" \"}")).contains("is blank");
        assertThat(results).isEmpty();
    }
}
