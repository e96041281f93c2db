package dev.sqlagent.internal.run;

import dev.sqlagent.AgentRole;
import dev.sqlagent.internal.AgentConfig;
import dev.sqlagent.llm.ChatMessage;
import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.TokenUsage;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.TraceEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls the models for the steps: every call becomes a {@link TraceEvent.ModelCall} in the question's
 * trace, and a model's failure (an {@link LlmException}, any other throwable short of a
 * {@link VirtualMachineError}, a null or empty response) becomes a {@link ModelFailure} for the step to
 * handle. Stateless; one per agent.
 */
final class Models {

    /** A failure of a model call, already recorded in the trace. */
    static final class ModelFailure extends Exception {
        private static final long serialVersionUID = 1L;

        ModelFailure(String message) {
            super(message, null, false, false);
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger("dev.sqlagent.model");

    private final AgentConfig config;

    Models(AgentConfig config) {
        this.config = config;
    }

    /**
     * One model call, recorded in the trace.
     *
     * @return the reply texts, at least one
     * @throws ModelFailure when the model could not give one
     */
    List<String> call(RunState state, AgentRole role, Stage stage, List<ChatMessage> prompt, boolean json, int n)
            throws ModelFailure {
        if (state.spending().takeCalls(1) == 0) {
            state.note(stage, "budget", "no " + role.id() + " call: the question's model-call budget is spent");
            throw new ModelFailure("the question's model-call budget is spent");
        }
        TraceEvent.ModelCall call = ask(state.spending().scope(), role, stage, prompt, json, n);
        state.add(call);
        state.spending().spent(call.usage());
        if (!call.error().isEmpty()) {
            throw new ModelFailure(call.error());
        }
        return call.replies();
    }

    /**
     * Asks the refiner for {@code n} candidates: one request with {@code n}, then further requests for
     * what a client that ignores {@code n} did not return, at most {@code n} requests in all.
     *
     * @return between one and {@code n} reply texts
     * @throws ModelFailure when the first request fails
     */
    List<String> candidates(RunState state, List<ChatMessage> prompt, int n) throws ModelFailure {
        List<String> texts = new ArrayList<>(call(state, AgentRole.REFINER, Stage.GENERATE, prompt, false, n));
        int wanted = n - texts.size();
        int missing = wanted > 0 ? state.spending().takeExtraCalls(wanted) : 0;
        if (missing < wanted) {
            state.note(Stage.GENERATE, "budget", "only " + missing + " of " + wanted
                    + " extra candidate calls made: the question's model-call budget");
        }
        if (missing > 0) {
            // a client that ignores n: the rest as single-choice requests, in parallel within the bound
            dev.sqlagent.internal.RunScope scope = state.spending().scope();
            List<TraceEvent.ModelCall> calls = Parallel.map(config.parallel(), Collections.nCopies(missing, 1),
                    one -> ask(scope, AgentRole.REFINER, Stage.GENERATE, prompt, false, one));
            for (TraceEvent.ModelCall call : calls) {
                state.add(call);
                state.spending().spent(call.usage());
                if (call.error().isEmpty()) {
                    texts.addAll(call.replies());
                }
            }
        }
        return texts.size() > n ? texts.subList(0, n) : texts;
    }

    /** One model call, not yet in the trace; safe to run on another thread. */
    private TraceEvent.ModelCall ask(dev.sqlagent.internal.RunScope scope, AgentRole role, Stage stage,
            List<ChatMessage> prompt, boolean json, int n) {
        LlmClient client = config.model(role);
        LlmRequest request = LlmRequest.builder().role(role.id()).messages(prompt)
                .temperature(config.temperatureOf(role)).jsonResponse(json).n(n).build();
        long start = config.clock().millis();
        LlmResponse response;
        String error = "";
        try {
            // a cancellation or the deadline interrupts the call
            response = scope.interruptibly(() -> client.chat(request));
            if (response == null) {
                error = "LlmClient " + client.getClass().getName() + " returned null";
            } else if (response.texts().isEmpty()) {
                error = "LlmClient " + client.getClass().getName() + " returned no text";
            }
        } catch (LlmException e) {
            response = null;
            error = "model call failed (" + e.kind() + "): " + e.getMessage();
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            response = null;
            error = "LlmClient " + client.getClass().getName() + " threw " + e;
        }
        if (!error.isEmpty()) {
            LOG.warn("{} call failed: {}", role.id(), error);
        }
        Duration elapsed = Duration.ofMillis(config.clock().millis() - start);
        List<String> texts = response == null ? List.of() : response.texts();
        TokenUsage usage = response == null ? TokenUsage.NONE : response.usage();
        return new TraceEvent.ModelCall(stage, role.id(), response == null ? "" : response.model(), prompt, texts,
                usage, elapsed, error);
    }
}
