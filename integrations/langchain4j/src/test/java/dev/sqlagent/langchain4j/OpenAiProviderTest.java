package dev.sqlagent.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.TokenUsage;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * LangChain4j's own OpenAI model (its HTTP client, its JSON, its exceptions) behind the bridge, talking
 * to a local HTTP server that answers as a provider would.
 */
class OpenAiProviderTest {

    private HttpServer server;
    private final AtomicInteger status = new AtomicInteger(200);
    private final AtomicReference<String> body = new AtomicReference<>();
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger calls = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            received.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            int n = calls.incrementAndGet();
            byte[] out = body.get().replace("#N", Integer.toString(n)).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status.get(), out.length);
            try (OutputStream os = exchange.getResponseBody()) {
                os.write(out);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private LangChain4jLlmClient client() {
        return LangChain4jLlmClient.of(OpenAiChatModel.builder()
                .baseUrl("http://127.0.0.1:" + server.getAddress().getPort() + "/v1").apiKey("sk-test")
                .modelName("gpt-test").maxRetries(0).timeout(Duration.ofSeconds(10)).build());
    }

    private static LlmRequest request(int n) {
        return LlmRequest.builder().role("refiner").system("Write SQL.").user("How many orders?").n(n).build();
    }

    @Test
    void choicesAndTokenUsageComeFromTheProvidersReply() {
        body.set("{\"id\":\"c-#N\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"gpt-test-2024\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"SELECT #N\"},"
                + "\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":42,\"completion_tokens\":6,\"total_tokens\":48}}");

        LlmResponse response = client().chat(request(2));

        assertThat(response.texts()).containsExactlyInAnyOrder("SELECT 1", "SELECT 2");
        assertThat(response.usage()).isEqualTo(new TokenUsage(84, 12));
        assertThat(response.model()).isEqualTo("gpt-test-2024");
        assertThat(received).hasSize(2).allSatisfy(r -> assertThat(r).contains("How many orders?"));
    }

    @Test
    void providerStatusesBecomeTheirKinds() {
        body.set("{\"error\":{\"message\":\"nope\",\"type\":\"x\"}}");
        int[][] cases = {{429, 0}, {401, 1}, {500, 2}, {400, 3}};
        LlmException.Kind[] kinds = {LlmException.Kind.RATE_LIMITED, LlmException.Kind.AUTHENTICATION,
            LlmException.Kind.SERVER_ERROR, LlmException.Kind.BAD_REQUEST};
        for (int[] c : cases) {
            status.set(c[0]);
            assertThatThrownBy(() -> client().chat(request(1))).as("HTTP %d", c[0])
                    .isInstanceOfSatisfying(LlmException.class, e -> assertThat(e.kind()).isEqualTo(kinds[c[1]]));
        }
    }
}
