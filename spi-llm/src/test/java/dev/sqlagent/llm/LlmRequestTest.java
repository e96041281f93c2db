package dev.sqlagent.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LlmRequestTest {

    @Test
    void hasDeterministicDefaults() {
        LlmRequest r = LlmRequest.builder().user("q").build();

        assertThat(r.role()).isEqualTo(LlmRequest.DEFAULT_ROLE);
        assertThat(r.temperature()).isEqualTo(LlmRequest.DEFAULT_TEMPERATURE).isZero();
        assertThat(r.n()).isEqualTo(1);
        assertThat(r.maxTokens()).isZero();
        assertThat(r.jsonResponse()).isFalse();
    }

    @Test
    void needsAtLeastOneMessage() {
        assertThatThrownBy(() -> LlmRequest.builder().build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("message");
    }

    @ParameterizedTest
    @ValueSource(doubles = {-0.1, 2.01, Double.NaN, Double.POSITIVE_INFINITY})
    void rejectsTemperatureOutsideZeroToTwoNamingTheValue(double t) {
        assertThatThrownBy(() -> LlmRequest.builder().temperature(t)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("temperature").hasMessageContaining(String.valueOf(t));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 129})
    void rejectsNOutsideOneTo128(int n) {
        assertThatThrownBy(() -> LlmRequest.builder().n(n)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("n must be in [1, 128] but was " + n);
    }

    @Test
    void acceptsTheBoundaries() {
        LlmRequest r = LlmRequest.builder().user("q").temperature(2).n(128).maxTokens(0).build();

        assertThat(r.temperature()).isEqualTo(2.0);
        assertThat(r.n()).isEqualTo(128);
    }

    @Test
    void rejectsNegativeMaxTokens() {
        assertThatThrownBy(() -> LlmRequest.builder().maxTokens(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxTokens must be >= 0 but was -1");
    }

    @Test
    void rejectsBlankOrNullRoleAndNullMessages() {
        assertThatThrownBy(() -> LlmRequest.builder().role(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("role");
        assertThatThrownBy(() -> LlmRequest.builder().role(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> LlmRequest.builder().message(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> LlmRequest.builder().messages(Arrays.asList(ChatMessage.user("a"), null)))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> LlmRequest.builder().user(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void copiesMessagesSoLaterChangesDoNotLeakIn() {
        List<ChatMessage> messages = new ArrayList<>(List.of(ChatMessage.system("s"), ChatMessage.user("u")));
        LlmRequest.Builder b = LlmRequest.builder().messages(messages);
        LlmRequest r = b.build();

        messages.add(ChatMessage.user("late"));
        b.user("later");

        assertThat(r.messages()).extracting(ChatMessage::content).containsExactly("s", "u");
        assertThatThrownBy(() -> r.messages().add(ChatMessage.user("x")))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void toBuilderKeepsEveryValueAndLeavesTheOriginalAlone() {
        LlmRequest r = LlmRequest.builder().role("refiner").system("s").user("u").temperature(0.4).n(3)
                .maxTokens(100).jsonResponse(true).build();

        LlmRequest copy = r.toBuilder().user("more").n(1).build();

        assertThat(copy.role()).isEqualTo("refiner");
        assertThat(copy.temperature()).isEqualTo(0.4);
        assertThat(copy.maxTokens()).isEqualTo(100);
        assertThat(copy.jsonResponse()).isTrue();
        assertThat(copy.messages()).hasSize(3);
        assertThat(r.messages()).hasSize(2);
        assertThat(r.n()).isEqualTo(3);
    }

    @Test
    void joinsMessageTextsAndKeepsThemOutOfToString() {
        LlmRequest r = LlmRequest.builder().system("secret schema").user("question").build();

        assertThat(r.text()).isEqualTo("secret schema\nquestion");
        assertThat(r.toString()).doesNotContain("secret schema").contains("messages=2");
    }
}
