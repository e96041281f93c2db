package dev.sqlagent.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessageType;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.mock.ChatModelMock;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.llm.ChatMessage;
import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.TokenUsage;
import dev.sqlagent.testkit.ShopDatabase;
import java.net.ConnectException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LangChain4jLlmClientTest {

    /** A provider model that reports usage and its name, and records what it was asked. */
    private static final class CountingModel implements ChatModel {
        final List<ChatRequest> requests = new CopyOnWriteArrayList<>();
        final AtomicInteger calls = new AtomicInteger();
        final CountDownLatch allArrived;

        CountingModel(int expectedConcurrent) {
            this.allArrived = new CountDownLatch(expectedConcurrent);
        }

        @Override
        public ChatResponse doChat(ChatRequest request) {
            requests.add(request);
            int call = calls.incrementAndGet();
            allArrived.countDown();
            try {
                // every call waits until all have arrived: only parallel calls get past this
                if (!allArrived.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("calls were not made at once");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return ChatResponse.builder().aiMessage(AiMessage.from("SELECT " + call))
                    .tokenUsage(new dev.langchain4j.model.output.TokenUsage(100, 7)).modelName("fake-1").build();
        }
    }

    private static LlmRequest request(int n) {
        return LlmRequest.builder().role("refiner").system("You write SQL.").user("How many orders?")
                .message(ChatMessage.assistant("SELECT 1")).user("again").n(n).temperature(0.7).maxTokens(256)
                .jsonResponse(true).build();
    }

    @Test
    void oneChoicePassesMessagesAndParametersAndCarriesUsageOver() {
        CountingModel model = new CountingModel(1);
        LlmResponse response = LangChain4jLlmClient.of(model).chat(request(1));

        assertThat(response.texts()).containsExactly("SELECT 1");
        assertThat(response.usage()).isEqualTo(new TokenUsage(100, 7));
        assertThat(response.model()).isEqualTo("fake-1");
        ChatRequest sent = model.requests.get(0);
        assertThat(sent.messages()).extracting(dev.langchain4j.data.message.ChatMessage::type)
                .containsExactly(ChatMessageType.SYSTEM, ChatMessageType.USER, ChatMessageType.AI, ChatMessageType.USER);
        assertThat(((SystemMessage) sent.messages().get(0)).text()).isEqualTo("You write SQL.");
        assertThat(((UserMessage) sent.messages().get(1)).singleText()).isEqualTo("How many orders?");
        assertThat(sent.temperature()).isEqualTo(0.7);
        assertThat(sent.maxOutputTokens()).isEqualTo(256);
        assertThat(sent.responseFormat()).isEqualTo(ResponseFormat.JSON);
    }

    @Test
    void jsonModeCanBeTurnedOffForProvidersThatRefuseIt() {
        CountingModel model = new CountingModel(1);
        LangChain4jLlmClient.builder(model).jsonMode(false).build().chat(request(1));
        assertThat(model.requests.get(0).responseFormat()).isNotEqualTo(ResponseFormat.JSON);
    }

    @Test
    void nChoicesAreNParallelCallsWithTheirUsageSummed() {
        CountingModel model = new CountingModel(3);
        LlmResponse response = LangChain4jLlmClient.of(model).chat(request(3));

        assertThat(model.calls).hasValue(3);
        assertThat(response.texts()).hasSize(3).containsExactlyInAnyOrder("SELECT 1", "SELECT 2", "SELECT 3");
        assertThat(response.usage()).isEqualTo(new TokenUsage(300, 21));
        assertThat(response.model()).isEqualTo("fake-1");
    }

    static Stream<Arguments> providerFailures() {
        return Stream.of(
                Arguments.of(new TimeoutException("read timed out"), LlmException.Kind.TIMEOUT),
                Arguments.of(new RateLimitException("429 slow down"), LlmException.Kind.RATE_LIMITED),
                Arguments.of(new InternalServerException("500"), LlmException.Kind.SERVER_ERROR),
                Arguments.of(new AuthenticationException("bad key"), LlmException.Kind.AUTHENTICATION),
                Arguments.of(new InvalidRequestException("context too long"), LlmException.Kind.BAD_REQUEST),
                Arguments.of(new ModelNotFoundException("no such model"), LlmException.Kind.BAD_REQUEST),
                Arguments.of(new HttpException(503, "unavailable"), LlmException.Kind.SERVER_ERROR),
                Arguments.of(new HttpException(403, "forbidden"), LlmException.Kind.AUTHENTICATION),
                Arguments.of(new RuntimeException("wrapped", new ConnectException("refused")),
                        LlmException.Kind.TRANSPORT),
                Arguments.of(new IllegalStateException("a bug"), LlmException.Kind.OTHER));
    }

    @ParameterizedTest
    @MethodSource("providerFailures")
    void providerErrorsBecomeLlmExceptionsOfTheirKind(RuntimeException thrown, LlmException.Kind kind) {
        LangChain4jLlmClient client = LangChain4jLlmClient.of(new ChatModelMock(thrown));
        for (int n : new int[] {1, 2}) {
            assertThatThrownBy(() -> client.chat(request(n)))
                    .isInstanceOfSatisfying(LlmException.class, e -> {
                        assertThat(e.kind()).isEqualTo(kind);
                        assertThat(e).hasRootCauseMessage(rootMessage(thrown));
                    });
        }
    }

    private static String rootMessage(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage();
    }

    @Test
    void aToolCallInsteadOfTextIsAMalformedResponse() {
        ChatModelMock model = ChatModelMock.thatAlwaysResponds(AiMessage.from(
                ToolExecutionRequest.builder().id("1").name("lookup").arguments("{}").build()));
        assertThatThrownBy(() -> LangChain4jLlmClient.of(model).chat(request(1)))
                .isInstanceOfSatisfying(LlmException.class,
                        e -> assertThat(e.kind()).isEqualTo(LlmException.Kind.MALFORMED_RESPONSE))
                .hasMessageContaining("tool call");
    }

    @Test
    void aRealAgentAnswersOnH2ThroughLangChain4jsMock() {
        ChatModelMock model = ChatModelMock.thatAlwaysResponds(
                "SELECT c.name, COUNT(o.id) AS orders FROM customers c JOIN orders o ON o.customer_id = c.id"
                        + " GROUP BY c.name ORDER BY c.name");
        SqlAgent agent = SqlAgent.builder().llm(LangChain4jLlmClient.of(model)).dataSource(ShopDatabase.create())
                .policy(GuardPolicy.allowingTables("customers", "orders")).caseSinkRetries(false).build();

        AgentResult result = agent.ask("How many orders has each customer placed?");

        assertThat(result).isInstanceOf(AgentResult.Answered.class);
        assertThat(((AgentResult.Answered) result).table().rows())
                .containsExactly(List.of("Ada", 2L), List.of("Bo", 1L));
        assertThat(model.requests()).isNotEmpty();
        assertThat(model.requests()).anySatisfy(r -> assertThat(r.messages().toString())
                .contains("How many orders has each customer placed?"));
    }
}
