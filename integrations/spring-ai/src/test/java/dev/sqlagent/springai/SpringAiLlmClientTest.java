package dev.sqlagent.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.TokenUsage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

/** SpringAiLlmClient and SpringAiEmbedder against scripted Spring AI models. */
class SpringAiLlmClientTest {

    @Test
    void messagesTemperatureAndTokenCapReachTheModel() {
        ScriptedChatModel model = ScriptedChatModel.text(p -> "SELECT 1");
        LlmResponse r = SpringAiLlmClient.of(model).chat(LlmRequest.builder().system("you write SQL")
                .user("count orders").message(dev.sqlagent.llm.ChatMessage.assistant("SELECT"))
                .user("again").temperature(0.7).maxTokens(123).build());

        assertThat(r.texts()).containsExactly("SELECT 1");
        assertThat(r.usage()).isEqualTo(new TokenUsage(10, 5));
        assertThat(r.model()).isEqualTo("scripted-1");
        Prompt p = model.prompts.get(0);
        assertThat(p.getInstructions()).extracting(m -> m.getMessageType()).containsExactly(MessageType.SYSTEM,
                MessageType.USER, MessageType.ASSISTANT, MessageType.USER);
        assertThat(p.getInstructions()).extracting(m -> m.getText())
                .containsExactly("you write SQL", "count orders", "SELECT", "again");
        assertThat(p.getOptions().getTemperature()).isEqualTo(0.7);
        assertThat(p.getOptions().getMaxTokens()).isEqualTo(123);
    }

    @Test
    void noTokenCapIsSentWhenTheRequestSetsNone() {
        ScriptedChatModel model = ScriptedChatModel.text(p -> "x");
        SpringAiLlmClient.of(model).chat(LlmRequest.builder().user("q").build());
        assertThat(model.prompts.get(0).getOptions().getMaxTokens()).isNull();
    }

    @Test
    void nChoicesAreNCallsWithTheirUsageSummed() {
        AtomicInteger calls = new AtomicInteger();
        ScriptedChatModel model = ScriptedChatModel.text(p -> "SELECT " + calls.incrementAndGet());
        LlmResponse r = SpringAiLlmClient.of(model).chat(LlmRequest.builder().user("q").n(3).build());

        assertThat(r.texts()).hasSize(3).containsExactlyInAnyOrder("SELECT 1", "SELECT 2", "SELECT 3");
        assertThat(r.usage()).isEqualTo(new TokenUsage(30, 15));
        assertThat(model.prompts).hasSize(3);
    }

    @Test
    void aJsonRequestCanCarryTheProvidersOwnOptions() {
        ScriptedChatModel model = ScriptedChatModel.text(p -> "{}");
        SpringAiLlmClient client = SpringAiLlmClient.builder(model).options(req -> ChatOptions.builder()
                .temperature(req.temperature()).model(req.jsonResponse() ? "json-model" : "text-model").build()).build();
        client.chat(LlmRequest.builder().user("q").jsonResponse(true).build());
        assertThat(model.prompts.get(0).getOptions().getModel()).isEqualTo("json-model");
    }

    @Test
    void failuresAreMappedToKinds() {
        assertKind(new UncheckedIOException(new SocketTimeoutException("read timed out")), LlmException.Kind.TIMEOUT);
        assertKind(new IllegalStateException("wrapped", new IOException("connection reset")),
                LlmException.Kind.TRANSPORT);
        assertKind(new IllegalStateException("boom"), LlmException.Kind.OTHER);
        assertKind(new org.springframework.ai.retry.NonTransientAiException("401 - {\"error\":\"bad key\"}"),
                LlmException.Kind.AUTHENTICATION);
        assertKind(new org.springframework.ai.retry.NonTransientAiException("HTTP 429 - slow down"),
                LlmException.Kind.RATE_LIMITED);
        assertKind(new org.springframework.ai.retry.NonTransientAiException("model not found"),
                LlmException.Kind.BAD_REQUEST);
        assertKind(new org.springframework.ai.retry.TransientAiException("upstream gone"),
                LlmException.Kind.SERVER_ERROR);
    }

    @Test
    void aToolCallOrAnEmptyAnswerIsAMalformedResponse() {
        ScriptedChatModel toolCall = new ScriptedChatModel(p -> AssistantMessage.builder()
                .toolCalls(List.of(new AssistantMessage.ToolCall("1", "function", "f", "{}"))).build());
        assertThatThrownBy(() -> SpringAiLlmClient.of(toolCall).chat(LlmRequest.builder().user("q").build()))
                .isInstanceOfSatisfying(LlmException.class,
                        e -> assertThat(e.kind()).isEqualTo(LlmException.Kind.MALFORMED_RESPONSE))
                .hasMessageContaining("tool call");
        org.springframework.ai.chat.model.ChatModel empty = prompt -> new org.springframework.ai.chat.model.ChatResponse(
                List.of());
        assertThatThrownBy(() -> SpringAiLlmClient.of(empty).chat(LlmRequest.builder().user("q").build()))
                .isInstanceOfSatisfying(LlmException.class,
                        e -> assertThat(e.kind()).isEqualTo(LlmException.Kind.MALFORMED_RESPONSE));
    }

    @Test
    void theEmbedderKnowsItsDimensionAndEmbedsBlankTextAsZero() {
        AtomicInteger calls = new AtomicInteger();
        EmbeddingModel model = new EmbeddingModel() {
            @Override
            public EmbeddingResponse call(EmbeddingRequest request) {
                calls.incrementAndGet();
                return new EmbeddingResponse(request.getInstructions().stream()
                        .map(t -> new org.springframework.ai.embedding.Embedding(new float[] {t.length(), 1, 0}, 0))
                        .toList());
            }

            @Override
            public float[] embed(Document document) {
                return embed(document.getText());
            }

            @Override
            public int dimensions() {
                return 3;
            }
        };
        SpringAiEmbedder embedder = SpringAiEmbedder.of(model);
        assertThat(embedder.dimension()).isEqualTo(3);
        assertThat(embedder.embed("abcd")).containsExactly(4f, 1f, 0f);
        assertThat(embedder.embed("  ")).containsExactly(0f, 0f, 0f);
        assertThat(calls).hasValue(1);
    }

    private static void assertKind(RuntimeException thrown, LlmException.Kind kind) {
        org.springframework.ai.chat.model.ChatModel failing = prompt -> {
            throw thrown;
        };
        assertThatThrownBy(() -> SpringAiLlmClient.of(failing).chat(LlmRequest.builder().user("q").build()))
                .isInstanceOfSatisfying(LlmException.class, e -> {
                    assertThat(e.kind()).as(thrown.toString()).isEqualTo(kind);
                    assertThat(e.getCause()).isSameAs(thrown);
                });
    }
}
