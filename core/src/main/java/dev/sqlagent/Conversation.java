package dev.sqlagent;

import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.internal.ConversationContext;
import dev.sqlagent.trace.TraceEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A short conversation with an agent. Each {@link #ask} after the first is first rewritten into a
 * self-contained question from the earlier turns (the rewrite is in the trace, and is the result's
 * {@link AgentResult#question()}); the conversation's schema selection is reused. Questions of one
 * conversation are answered one at a time; the object is thread-safe.
 */
public final class Conversation {

    /** How many earlier turns a conversation keeps. */
    public static final int DEFAULT_HISTORY = 5;

    /**
     * An earlier turn.
     *
     * @param asked the question as the user asked it
     * @param result what the agent answered
     */
    public record Turn(String asked, AgentResult result) {
        /**
         * Checks the parts.
         *
         * @param asked the question as the user asked it
         * @param result what the agent answered
         */
        public Turn {
            Objects.requireNonNull(asked, "asked");
            Objects.requireNonNull(result, "result");
        }
    }

    private final SqlAgent agent;
    private final int keep;
    private final String id = UUID.randomUUID().toString();
    private final Deque<Turn> turns = new ArrayDeque<>();

    Conversation(SqlAgent agent, int keep) {
        this.agent = agent;
        this.keep = keep;
    }

    /**
     * Returns the conversation's id.
     *
     * @return the conversation's id
     */
    public String id() {
        return id;
    }

    /**
     * Answers a question in this conversation.
     *
     * @param question the question, perhaps a follow-up
     * @return the result
     * @throws NullPointerException if the question is null
     * @throws IllegalStateException if the agent is closed
     */
    public synchronized AgentResult ask(String question) {
        Objects.requireNonNull(question, "question");
        List<String> lines = new ArrayList<>();
        for (Turn t : turns) {
            lines.add(t.result().question() + " -> " + shownSql(t.result()) + " [" + t.result().status() + "]");
        }
        AgentResult result = agent.run(Question.of(question), new ConversationContext(id, lines));
        turns.addLast(new Turn(question, result));
        while (turns.size() > keep) {
            turns.removeFirst();
        }
        return result;
    }

    /**
     * The SQL of an earlier turn as the rewriter may see it. Only SQL a guard accepted is shown: SQL the
     * guard rejected, and SQL no guard checked or accepted (unparseable, or written before a cancellation
     * or the deadline stopped the question), never reaches a model again, not even as history.
     */
    private static String shownSql(AgentResult result) {
        if (result.status() == AgentResult.Status.REJECTED) {
            return "(refused by the policy)";
        }
        Optional<String> sql = result.sql();
        if (sql.isEmpty()) {
            return "(no SQL)";
        }
        if (result.status() == AgentResult.Status.ANSWERED) {
            return sql.get();
        }
        for (TraceEvent.GuardChecked g : result.trace().guardChecks()) {
            if (g.verdict() instanceof GuardVerdict.Accepted a && a.sql().equals(sql.get())) {
                return sql.get();
            }
        }
        return "(SQL not accepted by the guard)";
    }

    /**
     * Returns the kept turns, oldest first.
     *
     * @return the kept turns, oldest first
     */
    public synchronized List<Turn> history() {
        return List.copyOf(turns);
    }
}
