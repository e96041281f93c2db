package dev.sqlagent.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.TokenUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ScriptedLlmTest {

    private static LlmRequest ask(String role, String question) {
        return LlmRequest.builder().role(role).user(question).build();
    }

    @Test
    void answersEachRoleFromItsOwnQueueInOrder() {
        ScriptedLlm llm = ScriptedLlm.create()
                .enqueueFor("refiner", "SELECT name FROM order")
                .enqueueFor("selector", "{\"tables\":[\"orders\"]}")
                .enqueueFor("refiner", "SELECT name FROM orders");

        assertThat(llm.chat(ask("selector", "q")).text()).isEqualTo("{\"tables\":[\"orders\"]}");
        assertThat(llm.chat(ask("refiner", "q")).text()).isEqualTo("SELECT name FROM order");
        assertThat(llm.chat(ask("refiner", "q")).text()).isEqualTo("SELECT name FROM orders");
        assertThat(llm.remaining()).isZero();
    }

    /** Stands in for the agent's AgentRole, which the kit cannot see (core's tests depend on the kit). */
    /** Roles as the agent's {@code AgentRole} names them; the kit cannot see the core module. */
    private enum Role implements dev.sqlagent.llm.ModelRole {
        REFINER, SELECTOR, JUDGE;

        @Override
        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    @Test
    void roleConstantsQueueUnderTheirLowerCaseNames() {
        ScriptedLlm llm = ScriptedLlm.create()
                .enqueueFor(Role.REFINER, "SELECT name FROM order")
                .enqueueFault(Role.SELECTOR, ScriptedLlm.Fault.TIMEOUT)
                .enqueueResponse(Role.JUDGE, LlmResponse.of("{\"correct\": true}"))
                .enqueueFor("refiner", "SELECT name FROM orders");

        assertThat(llm.chat(ask("judge", "q")).text()).isEqualTo("{\"correct\": true}");
        assertThat(catchThrowableOfType(LlmException.class, () -> llm.chat(ask("selector", "q"))).kind())
                .isEqualTo(LlmException.Kind.TIMEOUT);
        assertThat(llm.chat(ask("refiner", "q")).text()).isEqualTo("SELECT name FROM order");
        assertThat(llm.chat(ask("refiner", "q")).text()).isEqualTo("SELECT name FROM orders");
        assertThat(llm.requests(Role.REFINER)).hasSize(2).isEqualTo(llm.requests("refiner"));
        assertThat(llm.requests(Role.JUDGE)).extracting(LlmRequest::role).containsExactly("judge");
        assertThat(ScriptedLlm.roleId(Role.SELECTOR)).isEqualTo("selector");
    }

    @Test
    void aBlankOrNullRoleIsRefused() {
        ScriptedLlm llm = ScriptedLlm.create();

        assertThatThrownBy(() -> llm.enqueueFor(() -> " ", "SELECT 1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blank");
        assertThatThrownBy(() -> llm.enqueueFor((Role) null, "SELECT 1"))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("role");
        assertThat(llm.remaining()).isZero();
    }

    @Test
    void takesTheSharedQueueOnlyWhenTheRoleHasNothingQueued() {
        ScriptedLlm llm = ScriptedLlm.create().enqueue("shared").enqueueFor("judge", "own");

        assertThat(llm.chat(ask("judge", "q")).text()).isEqualTo("own");
        assertThat(llm.chat(ask("judge", "q")).text()).isEqualTo("shared");
    }

    @Test
    void treatsEveryArgumentOfEnqueueAsOneChoiceOfOneReply() {
        ScriptedLlm llm = ScriptedLlm.create().enqueue("SELECT 1", "SELECT 2", "SELECT 3");

        LlmResponse response = llm.chat(ask("refiner", "q"));

        assertThat(response.texts()).containsExactly("SELECT 1", "SELECT 2", "SELECT 3");
        assertThat(llm.remaining()).isZero();
    }

    @Test
    void usesTheFallbackWhenTheQueuesAreEmpty() {
        ScriptedLlm llm = ScriptedLlm.create().enqueue("queued")
                .fallback(r -> LlmResponse.of("echo " + r.messages().get(0).content()));

        assertThat(llm.chat(ask("a", "one")).text()).isEqualTo("queued");
        assertThat(llm.chat(ask("a", "two")).text()).isEqualTo("echo two");
        assertThat(llm.chat(ask("b", "three")).text()).isEqualTo("echo three");
    }

    @Test
    void failsAnUnexpectedCallNamingTheRole() {
        ScriptedLlm llm = ScriptedLlm.create().enqueueFor("refiner", "SELECT 1");

        LlmException e = catchThrowableOfType(LlmException.class, () -> llm.chat(ask("judge", "q")));

        assertThat(e.kind()).isEqualTo(LlmException.Kind.OTHER);
        assertThat(e.getMessage()).contains("'judge'");
        assertThat(llm.callCount()).isEqualTo(1);
    }

    @Test
    void recordsEveryRequestAlsoThoseThatFail() {
        ScriptedLlm llm = ScriptedLlm.create().enqueueFor("refiner", "SELECT 1")
                .enqueueFault("refiner", ScriptedLlm.Fault.TIMEOUT);
        LlmRequest first = ask("refiner", "first");
        LlmRequest second = ask("refiner", "second");

        llm.chat(first);
        assertThatThrownBy(() -> llm.chat(second)).isInstanceOf(LlmException.class);
        assertThatThrownBy(() -> llm.chat(ask("judge", "third"))).isInstanceOf(LlmException.class);

        assertThat(llm.requests()).hasSize(3).startsWith(first, second);
        assertThat(llm.requests("refiner")).containsExactly(first, second);
        assertThat(llm.requests("nobody")).isEmpty();
        assertThat(llm.callCount()).isEqualTo(3);
    }

    @Test
    void injectsATimeoutAsLlmExceptionOfKindTimeout() {
        ScriptedLlm llm = ScriptedLlm.create().enqueueFault("refiner", ScriptedLlm.Fault.TIMEOUT);

        LlmException e = catchThrowableOfType(LlmException.class, () -> llm.chat(ask("refiner", "q")));

        assertThat(e.kind()).isEqualTo(LlmException.Kind.TIMEOUT);
    }

    @Test
    void injectsAnUncheckedExceptionAsABuggyClientWould() {
        ScriptedLlm llm = ScriptedLlm.create().enqueueFault("refiner", ScriptedLlm.Fault.EXCEPTION);

        assertThatThrownBy(() -> llm.chat(ask("refiner", "q"))).isInstanceOf(IllegalStateException.class)
                .isNotInstanceOf(LlmException.class).hasMessageContaining("refiner");
    }

    @Test
    void injectsAnEmptyReplyAMalformedJsonReplyAndANullResponse() {
        ScriptedLlm llm = ScriptedLlm.create()
                .enqueueFault("r", ScriptedLlm.Fault.EMPTY_REPLY)
                .enqueueFault("r", ScriptedLlm.Fault.MALFORMED_JSON)
                .enqueueFault("r", ScriptedLlm.Fault.NULL_RESPONSE);

        assertThat(llm.chat(ask("r", "q")).texts()).containsExactly("");
        assertThat(llm.chat(ask("r", "q")).text()).isEqualTo(ScriptedLlm.MALFORMED_JSON_TEXT).startsWith("{")
                .doesNotEndWith("}");
        assertThat(llm.chat(ask("r", "q"))).isNull();
    }

    @Test
    void hitsAnyRoleWithASharedFault() {
        ScriptedLlm llm = ScriptedLlm.create().enqueueFault(ScriptedLlm.Fault.TIMEOUT).enqueue("after");

        assertThatThrownBy(() -> llm.chat(ask("selector", "q"))).isInstanceOf(LlmException.class);
        assertThat(llm.chat(ask("refiner", "q")).text()).isEqualTo("after");
    }

    @Test
    void estimatesTokensFromTheCharactersOfPromptAndReply() {
        ScriptedLlm llm = ScriptedLlm.create().enqueue("12345678", "1234");

        LlmResponse response = llm.chat(ask("r", "x".repeat(40)));

        assertThat(response.usage()).isEqualTo(new TokenUsage(10, 2 + 1));
        assertThat(response.model()).isEqualTo("scripted");
    }

    @Test
    void keepsTheUsageAndModelOfAScriptedResponseThatReportsThem() {
        LlmResponse scripted = new LlmResponse(List.of("SELECT 1"), new TokenUsage(500, 7), "gpt-x");
        ScriptedLlm llm = ScriptedLlm.create().enqueueResponse("r", scripted);

        assertThat(llm.chat(ask("r", "q"))).isEqualTo(scripted);
    }

    @Test
    void namesTheModelAlsoOnResponsesThatReportUsageButNoModel() {
        ScriptedLlm llm = ScriptedLlm.create().modelName("fake-1")
                .enqueueResponse("r", new LlmResponse(List.of("SELECT 1"), new TokenUsage(5, 1), ""));

        LlmResponse response = llm.chat(ask("r", "q"));

        assertThat(response.model()).isEqualTo("fake-1");
        assertThat(response.usage()).isEqualTo(new TokenUsage(5, 1));
    }

    @Test
    void estimatesUsageOfFallbackAnswersToo() {
        ScriptedLlm llm = ScriptedLlm.create().fallback(r -> LlmResponse.of("SELECT 1"));

        LlmResponse response = llm.chat(ask("r", "abcd"));

        assertThat(response.usage()).isEqualTo(new TokenUsage(1, 2));
        assertThat(response.model()).isEqualTo("scripted");
    }

    @Test
    void passesANullFallbackAnswerThroughForContractTests() {
        ScriptedLlm llm = ScriptedLlm.create().fallback(r -> null);

        assertThat(llm.chat(ask("r", "q"))).isNull();
    }

    @Test
    void resetForgetsQueuesRequestsAndFallback() {
        ScriptedLlm llm = ScriptedLlm.create().enqueue("a").enqueueFor("r", "b")
                .fallback(r -> LlmResponse.of("fb"));
        llm.chat(ask("r", "q"));

        llm.reset();

        assertThat(llm.remaining()).isZero();
        assertThat(llm.requests()).isEmpty();
        assertThatThrownBy(() -> llm.chat(ask("r", "q"))).isInstanceOf(LlmException.class);
    }

    @Test
    void rejectsBadScriptsAtOnce() {
        ScriptedLlm llm = ScriptedLlm.create();

        assertThatThrownBy(() -> llm.enqueue()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> llm.enqueue((String) null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> llm.enqueueFor(" ", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("role");
        assertThatThrownBy(() -> llm.enqueueFault("r", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> llm.enqueueResponse("r", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> llm.chat(null)).isInstanceOf(NullPointerException.class);
        assertThat(llm.remaining()).isZero();
    }

    @Test
    void servesEachQueuedReplyExactlyOnceUnderConcurrentCalls() throws Exception {
        ScriptedLlm llm = ScriptedLlm.create();
        for (int i = 0; i < 400; i++) {
            llm.enqueueFor("r", "SELECT " + i);
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                answers.add(pool.submit(() -> llm.chat(ask("r", "q")).text()));
            }
            List<String> texts = new ArrayList<>();
            for (Future<String> f : answers) {
                texts.add(f.get(2, TimeUnit.MINUTES)); // bounds a hang only
            }
            assertThat(texts).doesNotHaveDuplicates().hasSize(400);
            assertThat(llm.callCount()).isEqualTo(400);
        } finally {
            pool.shutdownNow();
        }
    }
}
