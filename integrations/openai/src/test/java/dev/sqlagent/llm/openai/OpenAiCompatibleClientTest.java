package dev.sqlagent.llm.openai;

import static dev.sqlagent.llm.openai.TestJson.completion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.TokenUsage;
import dev.sqlagent.llm.openai.LocalChatServer.Reply;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OpenAiCompatibleClientTest {

    private static final String KEY = "sk-test-very-secret-key-0123456789";

    private LocalChatServer server;
    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = new LocalChatServer();
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.close();
    }

    private OpenAiCompatibleClient.Builder client() {
        return OpenAiCompatibleClient.builder()
                .baseUrl(server.baseUrl())
                .model("test-model")
                .apiKey(KEY)
                .timeout(Duration.ofMinutes(1)) // bounds a hang only: every reply is immediate or held
                .sleeper(sleeps::add)
                .jitter(() -> 0.5);
    }

    private static LlmRequest question() {
        return LlmRequest.builder().system("You write SQL.").user("How many singers?").build();
    }

    @Test
    void postsMessagesTemperatureNMaxTokensAndJsonFormatToChatCompletions() {
        server.enqueue(200, completion("test-model", 10, 5, "{\"sql\":\"SELECT 1\"}", "{\"sql\":\"SELECT 2\"}"));
        LlmRequest request = LlmRequest.builder().system("sys").user("user \"quoted\"\nline")
                .temperature(0.7).n(2).maxTokens(256).jsonResponse(true).build();

        client().header("OpenAI-Organization", "org-42").build().chat(request);

        LocalChatServer.Recorded r = server.requests().get(0);
        assertThat(r.method()).isEqualTo("POST");
        assertThat(r.path()).isEqualTo("/v1/chat/completions");
        assertThat(r.header("Authorization")).isEqualTo("Bearer " + KEY);
        assertThat(r.header("Content-Type")).isEqualTo("application/json");
        assertThat(r.header("OpenAI-Organization")).isEqualTo("org-42");
        Map<String, Object> body = TestJson.object(r.body());
        assertThat(body).containsEntry("model", "test-model")
                .containsEntry("temperature", 0.7)
                .containsEntry("n", 2L)
                .containsEntry("max_tokens", 256L)
                .containsEntry("response_format", Map.of("type", "json_object"));
        assertThat(body.get("messages")).isEqualTo(List.of(
                Map.of("role", "system", "content", "sys"),
                Map.of("role", "user", "content", "user \"quoted\"\nline")));
    }

    @Test
    void leavesOutMaxTokensWhenZeroAndResponseFormatWhenNoJsonWanted() {
        server.enqueue(200, completion("m", 1, 1, "SELECT 1"));

        client().build().chat(question());

        Map<String, Object> body = TestJson.object(server.requests().get(0).body());
        assertThat(body).doesNotContainKeys("max_tokens", "response_format").containsEntry("n", 1L);
    }

    @Test
    void sendsNoAuthorizationWithoutApiKey() {
        server.enqueue(200, completion("m", 1, 1, "SELECT 1"));

        client().apiKey(null).build().chat(question());

        assertThat(server.requests().get(0).header("Authorization")).isNull();
    }

    @Test
    void returnsTextsUnchangedWithUsageAndReportedModel() {
        String reply = "```sql\nSELECT name FROM singer;\n```\n";
        server.enqueue(200, completion("gpt-x-2026", 120, 30, reply));

        LlmResponse response = client().build().chat(question());

        assertThat(response.texts()).containsExactly(reply);
        assertThat(response.usage()).isEqualTo(new TokenUsage(120, 30));
        assertThat(response.model()).isEqualTo("gpt-x-2026");
    }

    @Test
    void ordersChoicesByTheirIndex() {
        server.enqueue(200, "{\"choices\":[{\"index\":1,\"message\":{\"content\":\"second\"}},"
                + "{\"index\":0,\"message\":{\"content\":\"first\"}}]}");

        LlmResponse response = client().build().chat(question().toBuilder().n(2).build());

        assertThat(response.texts()).containsExactly("first", "second");
        assertThat(response.usage()).isEqualTo(TokenUsage.NONE);
        assertThat(response.model()).isEmpty();
    }

    @Test
    void readsNullContentAsEmptyAndContentPartsAsOneText() {
        server.enqueue(200, "{\"choices\":[{\"index\":0,\"message\":{\"content\":null,\"refusal\":\"no\"}},"
                + "{\"index\":1,\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"SELECT \"},"
                + "{\"type\":\"text\",\"text\":\"1\"}]}}]}");

        LlmResponse response = client().build().chat(question().toBuilder().n(2).build());

        assertThat(response.texts()).containsExactly("", "SELECT 1");
    }

    @Test
    void fillsUpToNWithSequentialCallsWhenTheServerIgnoresN() {
        server.enqueue(200, completion("local", 100, 10, "SELECT 1"))
                .enqueue(200, completion("local", 100, 11, "SELECT 2"))
                .enqueue(200, completion("local", 100, 12, "SELECT 3"));

        LlmResponse response = client().build().chat(question().toBuilder().n(3).temperature(0.8).build());

        assertThat(response.texts()).containsExactly("SELECT 1", "SELECT 2", "SELECT 3");
        assertThat(response.usage()).isEqualTo(new TokenUsage(300, 33));
        assertThat(server.requests()).extracting(r -> TestJson.object(r.body()).get("n"))
                .containsExactly(3L, 2L, 1L);
    }

    @Test
    void keepsOnlyNChoicesWhenTheServerSendsMore() {
        server.enqueue(200, completion("m", 1, 1, "a", "b", "c"));

        assertThat(client().build().chat(question().toBuilder().n(2).build()).texts()).containsExactly("a", "b");
    }

    @Test
    void retriesRateLimitAfterTheDelayOfRetryAfterSeconds() {
        server.enqueue(Reply.json(429, "{\"error\":{\"message\":\"Rate limit reached\"}}").withHeader("Retry-After", "2"))
                .enqueue(200, completion("m", 1, 1, "SELECT 1"));

        LlmResponse response = client().build().chat(question());

        assertThat(response.text()).isEqualTo("SELECT 1");
        assertThat(server.requests()).hasSize(2);
        assertThat(sleeps).containsExactly(Duration.ofSeconds(2));
    }

    @Test
    void prefersRetryAfterMsAndReadsRetryAfterDates() {
        Instant now = Instant.parse("2026-11-29T12:00:00Z");
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.ofInstant(now.plusSeconds(3), ZoneOffset.UTC));
        server.enqueue(Reply.json(429, "{}").withHeader("retry-after-ms", "150").withHeader("Retry-After", "1"))
                .enqueue(Reply.json(503, "{}").withHeader("Retry-After", date))
                .enqueue(200, completion("m", 1, 1, "SELECT 1"));

        client().clock(Clock.fixed(now, ZoneOffset.UTC)).build().chat(question());

        assertThat(sleeps).containsExactly(Duration.ofMillis(150), Duration.ofSeconds(3));
    }

    @Test
    void backsOffExponentiallyWithJitterOnServerErrors() {
        server.enqueue(502, "bad gateway").enqueue(500, "{}").enqueue(200, completion("m", 1, 1, "SELECT 1"));

        client().initialBackoff(Duration.ofMillis(400)).build().chat(question());

        // equal jitter at 0.5: three quarters of 400 ms, then of 800 ms
        assertThat(sleeps).containsExactly(Duration.ofMillis(300), Duration.ofMillis(600));
    }

    @Test
    void capsTheBackoffAtMaxBackoff() {
        Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(5), () -> 0.999_999);

        assertThat(backoff.delay(1)).isBetween(Duration.ofMillis(999), Duration.ofSeconds(1));
        assertThat(backoff.delay(30)).isBetween(Duration.ofMillis(4999), Duration.ofSeconds(5));
        assertThat(new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(5), () -> 0).delay(3))
                .isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void givesUpAfterMaxRetriesWithServerErrorNamingStatusAndProviderMessage() {
        for (int i = 0; i < 3; i++) {
            server.enqueue(503, "{\"error\":{\"message\":\"The engine is currently overloaded\",\"type\":\"server_error\"}}");
        }

        LlmException e = catchThrowableOfType(LlmException.class, () -> client().build().chat(question()));

        assertThat(e.kind()).isEqualTo(LlmException.Kind.SERVER_ERROR);
        assertThat(e.getMessage()).contains("HTTP 503", "The engine is currently overloaded", "after 3 attempts");
        assertThat(server.requests()).hasSize(3);
        assertThat(sleeps).hasSize(2);
    }

    @Test
    void doesNotRetryWhenMaxRetriesIsZero() {
        server.enqueue(429, "{\"error\":\"slow down\"}");

        LlmException e = catchThrowableOfType(LlmException.class,
                () -> client().maxRetries(0).build().chat(question()));

        assertThat(e.kind()).isEqualTo(LlmException.Kind.RATE_LIMITED);
        assertThat(e.getMessage()).contains("HTTP 429", "slow down");
        assertThat(server.requests()).hasSize(1);
        assertThat(sleeps).isEmpty();
    }

    @Test
    void stopsRetryingWhenRetryAfterIsLongerThanMaxBackoff() {
        server.enqueue(Reply.json(429, "{\"error\":{\"message\":\"quota\"}}").withHeader("Retry-After", "3600"));

        LlmException e = catchThrowableOfType(LlmException.class, () -> client().build().chat(question()));

        assertThat(e.kind()).isEqualTo(LlmException.Kind.RATE_LIMITED);
        assertThat(e.getMessage()).contains("3600000 ms");
        assertThat(server.requests()).hasSize(1);
        assertThat(sleeps).isEmpty();
    }

    @ParameterizedTest(name = "HTTP {0} is {1}")
    @CsvSource({"400, BAD_REQUEST", "404, BAD_REQUEST", "422, BAD_REQUEST", "401, AUTHENTICATION",
            "403, AUTHENTICATION", "418, OTHER"})
    void mapsClientErrorsToKindsWithoutRetrying(int status, LlmException.Kind kind) {
        server.enqueue(status, "{\"error\":{\"message\":\"provider says " + status + "\",\"code\":\"x\"}}");

        LlmException e = catchThrowableOfType(LlmException.class, () -> client().build().chat(question()));

        assertThat(e.kind()).isEqualTo(kind);
        assertThat(e.getMessage()).contains("HTTP " + status, "provider says " + status);
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void shortensLongProviderMessages() {
        server.enqueue(400, "{\"detail\":\"" + "x".repeat(5000) + "\"}");

        LlmException e = catchThrowableOfType(LlmException.class, () -> client().build().chat(question()));

        assertThat(e.getMessage()).hasSizeLessThan(ChatJson.MAX_ERROR_CHARS + 120).endsWith("…");
    }

    @Test
    void readsFastApiValidationDetailsAndPlainTextErrors() {
        server.enqueue(422, "{\"detail\":[{\"loc\":[\"body\",\"n\"],\"msg\":\"n must be 1\"}]}")
                .enqueue(404, "<html>\n<body>Not Found</body></html>");
        OpenAiCompatibleClient client = client().build();

        assertThatThrownBy(() -> client.chat(question())).hasMessageContaining("n must be 1");
        assertThatThrownBy(() -> client.chat(question())).hasMessageContaining("HTTP 404")
                .hasMessageContaining("<html> <body>Not Found</body></html>");
    }

    @Test
    void reportsMalformedBodiesAndMissingChoices() {
        server.enqueue(200, "<html>gateway</html>")
                .enqueue(200, "{\"choices\":[]}")
                .enqueue(200, "{\"object\":\"chat.completion\"}")
                .enqueue(200, "{\"error\":{\"message\":\"context length exceeded\"}}")
                .enqueue(200, "{\"choices\":[{\"message\":{\"content\":\"SELECT");
        OpenAiCompatibleClient client = client().build();

        for (String expected : List.of("not valid JSON", "empty 'choices'", "no 'choices'", "context length exceeded",
                "not valid JSON")) {
            LlmException e = catchThrowableOfType(LlmException.class, () -> client.chat(question()));
            assertThat(e.kind()).isEqualTo(LlmException.Kind.MALFORMED_RESPONSE);
            assertThat(e.getMessage()).contains("HTTP 200", expected);
        }
        assertThat(server.requests()).hasSize(5);
    }

    @Test
    void timesOutWhenTheServerIsTooSlow() {
        server.enqueue(Reply.json(200, completion("m", 1, 1, "late")).held());

        LlmException e = catchThrowableOfType(LlmException.class,
                () -> client().timeout(Duration.ofMillis(200)).maxRetries(0).build().chat(question()));

        assertThat(e.kind()).isEqualTo(LlmException.Kind.TIMEOUT);
        assertThat(e.getMessage()).contains("200 ms");
    }

    @Test
    void retriesATimeoutAndSucceeds() {
        server.enqueue(Reply.json(200, completion("m", 1, 1, "late")).held())
                .enqueue(200, completion("m", 1, 1, "SELECT 1"));

        // one time-out serves both attempts: the first never gets an answer, the second (answered at once)
        // must get its answer within it, so it is seconds, far above a loaded machine's loopback round trip
        LlmResponse response = client().timeout(Duration.ofSeconds(5)).build().chat(question());

        assertThat(response.text()).isEqualTo("SELECT 1");
        assertThat(sleeps).hasSize(1);
    }

    @Test
    void reportsARefusedConnectionAsTransportAfterRetrying() {
        // port 1 (tcpmux) has no listener, as the engine tests assume too; a port freed by closing a server
        // socket could be taken by another process of a shared machine before the client connects
        int port = 1;

        LlmException e = catchThrowableOfType(LlmException.class, () -> client()
                .baseUrl("http://127.0.0.1:" + port + "/v1").maxRetries(1).build().chat(question()));

        assertThat(e.kind()).isEqualTo(LlmException.Kind.TRANSPORT);
        assertThat(e.getMessage()).contains("127.0.0.1:" + port, "after 2 attempts");
        assertThat(sleeps).hasSize(1);
    }

    @Test
    void reportsAConnectionClosedWithoutAnswerAsTransport() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread closer = new Thread(() -> {
                try {
                    while (true) {
                        try (Socket c = s.accept()) {
                            c.getInputStream().read(new byte[64]);
                        }
                    }
                } catch (IOException ignored) {
                    // the socket was closed: the test is over
                }
            });
            closer.start();

            LlmException e = catchThrowableOfType(LlmException.class, () -> client()
                    .baseUrl("http://127.0.0.1:" + s.getLocalPort() + "/v1").maxRetries(0).build().chat(question()));

            assertThat(e.kind()).isEqualTo(LlmException.Kind.TRANSPORT);
        }
    }

    @Test
    void neverShowsTheApiKeyInExceptionsOrToString() {
        server.enqueue(401, "{\"error\":{\"message\":\"Incorrect API key provided: " + KEY + ".\"}}")
                .enqueue(200, "not json " + KEY);
        OpenAiCompatibleClient client = client().build();

        LlmException auth = catchThrowableOfType(LlmException.class, () -> client.chat(question()));
        LlmException malformed = catchThrowableOfType(LlmException.class, () -> client.chat(question()));

        assertThat(auth.kind()).isEqualTo(LlmException.Kind.AUTHENTICATION);
        assertThat(auth.getMessage()).contains("HTTP 401", "Incorrect API key provided: ***").doesNotContain(KEY);
        assertThat(malformed.getMessage()).doesNotContain(KEY);
        assertThat(client.toString()).doesNotContain(KEY).contains("apiKey=***", "test-model");
    }

    @Test
    void keepsHeaderValuesOutOfToString() {
        OpenAiCompatibleClient client = client().apiKey(null).header("api-key", "azure-secret-value").build();

        assertThat(client.toString()).contains("api-key").doesNotContain("azure-secret-value");
    }

    @Test
    void rebuildsFromToBuilderWithTheSameSettings() {
        OpenAiCompatibleClient client = client().build();

        OpenAiCompatibleClient copy = client.toBuilder().model("other").build();

        assertThat(copy.endpoint()).isEqualTo(client.endpoint());
        assertThat(copy.model()).isEqualTo("other");
    }

    @Test
    void checksBuilderArgumentsAndNamesThem() {
        assertThatThrownBy(() -> OpenAiCompatibleClient.builder().baseUrl("ftp://host/v1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("baseUrl");
        assertThatThrownBy(() -> OpenAiCompatibleClient.builder().baseUrl("localhost:8000"))
                .hasMessageContaining("baseUrl");
        assertThatThrownBy(() -> OpenAiCompatibleClient.builder().baseUrl("http://h/v1?key=1"))
                .hasMessageContaining("baseUrl");
        assertThatThrownBy(() -> OpenAiCompatibleClient.builder().model(" ")).hasMessageContaining("model");
        assertThatThrownBy(() -> OpenAiCompatibleClient.builder().maxRetries(-1))
                .hasMessageContaining("maxRetries must be in [0, 10] but was -1");
        assertThatThrownBy(() -> OpenAiCompatibleClient.builder().timeout(Duration.ZERO))
                .hasMessageContaining("timeout");
        assertThatThrownBy(() -> OpenAiCompatibleClient.builder().apiKey("sk abc")).hasMessageContaining("apiKey");
        assertThatThrownBy(() -> OpenAiCompatibleClient.builder().header("Host", "x"))
                .hasMessageContaining("Host");
        assertThatThrownBy(() -> OpenAiCompatibleClient.builder().model("m").build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("baseUrl");
        assertThatThrownBy(() -> OpenAiCompatibleClient.builder().baseUrl("http://h/v1").build())
                .hasMessageContaining("model");
        assertThatThrownBy(() -> client().initialBackoff(Duration.ofSeconds(5)).maxBackoff(Duration.ofSeconds(1)).build())
                .hasMessageContaining("maxBackoff");
        assertThatThrownBy(() -> client().header("Authorization", "Bearer x").build())
                .hasMessageContaining("Authorization");
    }

    @Test
    void stripsTrailingSlashesFromTheBaseUrl() {
        OpenAiCompatibleClient client = OpenAiCompatibleClient.builder().baseUrl("https://api.example.com/v1//")
                .model("m").build();

        assertThat(client.endpoint()).hasToString("https://api.example.com/v1/chat/completions");
    }

    @Test
    void readsItsSettingsFromSqlagentVariablesFirst() {
        Map<String, String> env = Map.of("SQLAGENT_LLM_BASE_URL", "http://127.0.0.1:8000/v1",
                "SQLAGENT_LLM_MODEL", "qwen", "OPENAI_MODEL", "gpt", "OPENAI_API_KEY", KEY);

        OpenAiCompatibleClient client = OpenAiCompatibleClient.fromEnvironment(env::get);

        assertThat(client.endpoint()).hasToString("http://127.0.0.1:8000/v1/chat/completions");
        assertThat(client.model()).isEqualTo("qwen");
        assertThat(client.toString()).contains("apiKey=***");
    }

    @Test
    void fallsBackToOpenAiVariablesAndEndpoint() {
        OpenAiCompatibleClient client = OpenAiCompatibleClient.fromEnvironment(
                Map.of("OPENAI_API_KEY", KEY, "OPENAI_MODEL", "gpt-4o-mini", "SQLAGENT_LLM_MODEL", " ")::get);

        assertThat(client.endpoint()).hasToString(OpenAiCompatibleClient.OPENAI_BASE_URL + "/chat/completions");
        assertThat(client.model()).isEqualTo("gpt-4o-mini");
    }

    @Test
    void namesTheMissingEnvironmentVariable() {
        assertThatThrownBy(() -> OpenAiCompatibleClient.fromEnvironment(Map.of("OPENAI_API_KEY", KEY)::get))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("SQLAGENT_LLM_MODEL");
        assertThatThrownBy(() -> OpenAiCompatibleClient.fromEnvironment(Map.of("OPENAI_MODEL", "m")::get))
                .hasMessageContaining("SQLAGENT_LLM_BASE_URL");
        assertThatThrownBy(() -> OpenAiCompatibleClient.fromEnvironment(
                Map.of("OPENAI_MODEL", "m", "OPENAI_BASE_URL", "not a url")::get))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("OPENAI_BASE_URL");
    }
}
