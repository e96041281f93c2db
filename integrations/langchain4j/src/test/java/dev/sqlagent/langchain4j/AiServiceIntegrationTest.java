package dev.sqlagent.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.mock.ChatModelMock;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.query.Query;
import dev.langchain4j.service.AiServices;
import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.testkit.ShopDatabase;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A LangChain4j AI service that uses the governed agent instead of SqlDatabaseContentRetriever: as its
 * content retriever, and as a tool. Two models take part, both LangChain4j's ChatModelMock: the
 * assistant's, and the agent's SQL writer (through {@link LangChain4jLlmClient}).
 */
class AiServiceIntegrationTest {

    interface Assistant {
        String chat(String message);
    }

    /** The agent's SQL writer: a secret table for "cards", otherwise orders per city. */
    private static SqlAgent agent() {
        ChatModelMock sqlWriter = ChatModelMock.thatResponds(request -> {
            String prompt = request.messages().stream().filter(m -> m instanceof UserMessage)
                    .map(m -> ((UserMessage) m).singleText()).reduce("", String::concat);
            return AiMessage.from(prompt.contains("card")
                    ? "SELECT card FROM card_numbers"
                    : "SELECT c.city, SUM(o.amount) AS total FROM orders o JOIN customers c ON c.id = o.customer_id"
                            + " GROUP BY c.city ORDER BY c.city");
        });
        return SqlAgent.builder().llm(LangChain4jLlmClient.of(sqlWriter)).dataSource(ShopDatabase.create())
                .policy(GuardPolicy.allowingTables("customers", "orders")).caseSinkRetries(false).build();
    }

    private static String lastUserText(List<ChatMessage> messages) {
        String text = "";
        for (ChatMessage m : messages) {
            if (m instanceof UserMessage) {
                text = ((UserMessage) m).singleText();
            }
        }
        return text;
    }

    @Test
    void retrievedRowsAreInjectedIntoTheAssistantsPrompt() {
        List<String> seen = new CopyOnWriteArrayList<>();
        ChatModelMock assistantModel = ChatModelMock.thatResponds(request -> {
            seen.add(lastUserText(request.messages()));
            return AiMessage.from("Lyon leads.");
        });
        List<AgentResult> results = new CopyOnWriteArrayList<>();
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(assistantModel)
                .contentRetriever(SqlAgentContentRetriever.builder(agent()).onResult(results::add).build()).build();

        assertThat(assistant.chat("What is the order total per city?")).isEqualTo("Lyon leads.");

        assertThat(results).singleElement().satisfies(r -> assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED));
        assertThat(seen).singleElement().asString()
                .contains("What is the order total per city?")
                .contains("| CITY | TOTAL |")
                .contains("| Lyon | 25.50 |")
                .contains("| Oslo | 99.90 |");
    }

    @Test
    void aRejectedQuestionRetrievesNothingUnlessFailuresAreReported() {
        SqlAgent agent = agent();
        List<Content> silent = SqlAgentContentRetriever.of(agent).retrieve(Query.from("Show the card numbers"));
        assertThat(silent).isEmpty();

        List<Content> reported = SqlAgentContentRetriever.builder(agent).reportFailures(true).build()
                .retrieve(Query.from("Show the card numbers"));
        assertThat(reported).singleElement().satisfies(c -> {
            assertThat(c.textSegment().text()).contains("refused by the data access policy")
                    .doesNotContain("4111111111111111");
            assertThat(c.textSegment().metadata().getString(SqlAgentContentRetriever.STATUS)).isEqualTo("REJECTED");
            assertThat(c.textSegment().metadata().getString(SqlAgentContentRetriever.SQL))
                    .isEqualTo("SELECT card FROM card_numbers");
        });
    }

    @Test
    void theAssistantCallsTheAgentAsAToolAndReadsItsRows() {
        List<String> toolResults = new CopyOnWriteArrayList<>();
        ChatModelMock assistantModel = ChatModelMock.thatResponds(request -> {
            ChatMessage last = request.messages().get(request.messages().size() - 1);
            if (last instanceof ToolExecutionResultMessage) {
                toolResults.add(((ToolExecutionResultMessage) last).text());
                return AiMessage.from("Done: " + ((ToolExecutionResultMessage) last).text());
            }
            assertThat(request.toolSpecifications()).extracting(s -> s.name()).contains("query_database");
            return AiMessage.from(ToolExecutionRequest.builder().id("call-1").name("query_database")
                    .arguments("{\"question\": \"What is the order total per city?\"}").build());
        });
        List<AgentResult> results = new CopyOnWriteArrayList<>();
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(assistantModel)
                .tools(new SqlAgentTool(agent(), 10, results::add)).build();

        String answer = assistant.chat("Which city buys most?");

        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.question()).isEqualTo("What is the order total per city?");
            assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        });
        assertThat(toolResults).singleElement().asString().contains("| Lyon | 25.50 |").contains("SQL: SELECT");
        assertThat(answer).startsWith("Done: ").contains("| Oslo | 99.90 |");
    }

    @Test
    void theToolSpecificationNamesItsParameterQuestion() {
        ToolSpecification spec = ToolSpecifications.toolSpecificationsFrom(new SqlAgentTool(agent())).get(0);

        assertThat(spec.name()).isEqualTo("query_database");
        assertThat(spec.parameters().properties()).containsOnlyKeys("question");
        assertThat(spec.parameters().required()).containsExactly("question");
        assertThat(spec.parameters().properties().get("question"))
                .isInstanceOfSatisfying(JsonStringSchema.class,
                        p -> assertThat(p.description()).isEqualTo("the question, in natural language"));
    }

    /** A reply wrapping its query in COPY or INSTALL is refused after one model call, never cleaned into it. */
    @Test
    void aReplyThatIsNotOneQueryIsRefusedAfterOneModelCall() {
        for (String reply : List.of("COPY (SELECT city FROM customers) TO 'out.csv'",
                "INSTALL httpfs; SELECT city FROM customers", "SELECT secret FROM 'data/secret.csv'")) {
            SqlAgent agent = SqlAgent.builder().llm(LangChain4jLlmClient.of(ChatModelMock.thatAlwaysResponds(reply)))
                    .dataSource(ShopDatabase.create()).policy(GuardPolicy.allowingTables("customers", "orders"))
                    .caseSinkRetries(false).build();
            List<AgentResult> results = new CopyOnWriteArrayList<>();
            String text = new SqlAgentTool(agent, 10, results::add).queryDatabase("Export the cities");

            assertThat(text).as(reply).contains("refused");
            AgentResult r = results.get(0);
            assertThat(r.status()).as(reply).isEqualTo(AgentResult.Status.REJECTED);
            assertThat(((AgentResult.Rejected) r).violations()).extracting(v -> v.type())
                    .containsAnyOf(ViolationType.NOT_A_QUERY, ViolationType.TABLE_FUNCTION);
            assertThat(r.trace().modelCallCount()).isEqualTo(1);
            assertThat(r.trace().executions()).isEmpty();
            agent.close();
        }
    }

    @Test
    void theToolPassesOnARefusalWithoutTheData() {
        List<AgentResult> results = new CopyOnWriteArrayList<>();
        String text = new SqlAgentTool(agent(), 10, results::add).queryDatabase("List the card numbers");
        assertThat(text).contains("refused").contains("Do not try").doesNotContain("4111");
        assertThat(((AgentResult.Rejected) results.get(0)).violations())
                .extracting(v -> v.type()).contains(ViolationType.TABLE_NOT_ALLOWED);
    }
}
