package dev.sqlagent.examples.demo;

import dev.sqlagent.llm.ChatMessage;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.testkit.ScriptedLlm;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A scripted model that answers each demo question with that scenario's replies, in order, whatever
 * order the questions come in. A request for a question without replies left gets an empty reply.
 */
public final class ScenarioModel {

    private ScenarioModel() {
    }

    /**
     * @param scenarios the scenarios
     * @return a model replaying them
     */
    public static ScriptedLlm of(List<Scenario> scenarios) {
        Map<String, Deque<String>> replies = new HashMap<>();
        for (Scenario s : scenarios) {
            replies.put(s.question(), new ArrayDeque<>(s.replies()));
        }
        return ScriptedLlm.create().modelName("demo-scripted").fallback(request -> {
            String question = questionOf(request);
            Deque<String> queue = replies.get(question);
            String next;
            synchronized (replies) {
                next = queue == null ? null : queue.pollFirst();
            }
            return LlmResponse.of(next == null ? "" : next);
        });
    }

    private static String questionOf(LlmRequest request) {
        for (ChatMessage m : request.messages()) {
            if (m.role() == ChatMessage.Role.USER && m.content().startsWith("Question: ")) {
                String rest = m.content().substring("Question: ".length());
                int nl = rest.indexOf('\n');
                return nl < 0 ? rest : rest.substring(0, nl);
            }
        }
        return "";
    }
}
