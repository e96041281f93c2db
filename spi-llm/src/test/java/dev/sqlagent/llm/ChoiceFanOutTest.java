package dev.sqlagent.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link ChoiceFanOut}: n calls joined in call order with their usage summed; a failure of any call is the
 * failure of the whole, mapped to an {@link LlmException}. The executor here runs tasks on the calling thread,
 * so the order is fixed and no test depends on scheduling.
 */
class ChoiceFanOutTest {

    private static final Executor INLINE = Runnable::run;

    @Test
    void joinsTheChoicesInCallOrderAndSumsTheirUsage() {
        AtomicInteger calls = new AtomicInteger();
        LlmResponse r = ChoiceFanOut.collect(3, () -> {
            int k = calls.incrementAndGet();
            return new LlmResponse(List.of("choice " + k), new TokenUsage(10, k), k == 1 ? "" : "model-" + k);
        }, INLINE, t -> new LlmException(LlmException.Kind.OTHER, "mapped", t));
        // the two extra calls run first on the inline executor, then the caller's own
        assertThat(r.texts()).containsExactly("choice 3", "choice 1", "choice 2");
        assertThat(r.usage()).isEqualTo(new TokenUsage(30, 6));
        assertThat(r.model()).isEqualTo("model-3");
        assertThat(calls).hasValue(3);
    }

    @Test
    void oneChoiceIsOneCallOnTheCallersThread() {
        Executor refusing = task -> {
            throw new AssertionError("no extra call for n = 1");
        };
        LlmResponse r = ChoiceFanOut.collect(1, () -> LlmResponse.of("only"), refusing, t -> null);
        assertThat(r.texts()).containsExactly("only");
    }

    @Test
    void aFailingCallFailsTheWholeAsAnLlmException() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> ChoiceFanOut.collect(3, () -> {
            if (calls.incrementAndGet() == 2) {
                throw new IllegalStateException("provider said no");
            }
            return LlmResponse.of("ok");
        }, INLINE, t -> new LlmException(LlmException.Kind.SERVER_ERROR, "mapped: " + t.getMessage(), t)))
                .isInstanceOf(LlmException.class).hasMessageContaining("mapped: provider said no");
        // an LlmException of a call is thrown as it is, not mapped again
        assertThatThrownBy(() -> ChoiceFanOut.collect(2, () -> {
            throw new LlmException(LlmException.Kind.RATE_LIMITED, "slow down");
        }, INLINE, t -> new LlmException(LlmException.Kind.OTHER, "wrong", t)))
                .isInstanceOf(LlmException.class).hasMessage("slow down");
    }

    @Test
    void aCallWithoutAChoiceIsAMalformedResponseAndBadArgumentsAreRefused() {
        assertThatThrownBy(() -> ChoiceFanOut.collect(1, () -> new LlmResponse(List.of(), TokenUsage.NONE, ""), INLINE,
                t -> null)).isInstanceOf(LlmException.class).hasMessageContaining("no choice");
        assertThatThrownBy(() -> ChoiceFanOut.collect(0, () -> LlmResponse.of("x"), INLINE, t -> null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theDefaultPoolHasNamedDaemonThreads() throws Exception {
        java.util.concurrent.ExecutorService pool = ChoiceFanOut.daemonPool("sqlagent-test");
        try {
            Thread t = pool.submit(Thread::currentThread).get();
            assertThat(t.isDaemon()).isTrue();
            assertThat(t.getName()).startsWith("sqlagent-test-");
        } finally {
            pool.shutdown();
        }
    }
}
