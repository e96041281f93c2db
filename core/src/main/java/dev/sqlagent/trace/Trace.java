package dev.sqlagent.trace;

import dev.sqlagent.llm.TokenUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything that happened to one question, in order: stages entered, model calls, guard verdicts,
 * executions, the correction, remarks. Immutable. {@link #toJson()} renders it as JSON; the convenience
 * methods here answer the questions tests and metrics ask most.
 */
public final class Trace {

    private final String questionId;
    private final List<TraceEvent> events;

    /**
     * Creates a trace from its events; the agent builds traces, hosts rarely need to.
     *
     * @param questionId the question's id, not null
     * @param events the events in order; copied
     * @throws NullPointerException if the id, the list or an event is null
     */
    public Trace(String questionId, List<TraceEvent> events) {
        this.questionId = Objects.requireNonNull(questionId, "questionId");
        this.events = List.copyOf(events);
    }

    /** {@return the question's id, unique per {@code ask}} */
    public String questionId() {
        return questionId;
    }

    /** {@return every event, in order} */
    public List<TraceEvent> events() {
        return events;
    }

    /** {@return the stages entered, in order, starting with {@link Stage#RECEIVED}} */
    public List<Stage> stages() {
        List<Stage> out = new ArrayList<>();
        out.add(Stage.RECEIVED);
        for (TraceEvent e : events) {
            if (e instanceof TraceEvent.StageEntered) {
                out.add(((TraceEvent.StageEntered) e).transition().to());
            }
        }
        return out;
    }

    /** {@return the stage the question ended in} */
    public Stage finalStage() {
        List<Stage> s = stages();
        return s.get(s.size() - 1);
    }

    /** {@return the model calls, in order} */
    public List<TraceEvent.ModelCall> modelCalls() {
        return ofType(TraceEvent.ModelCall.class);
    }

    /** {@return how many model calls were made} */
    public int modelCallCount() {
        return modelCalls().size();
    }

    /** {@return the tokens of all model calls} */
    public TokenUsage tokens() {
        TokenUsage sum = TokenUsage.NONE;
        for (TraceEvent.ModelCall c : modelCalls()) {
            sum = sum.plus(c.usage());
        }
        return sum;
    }

    /** {@return the tokens per role} */
    public Map<String, TokenUsage> tokensByRole() {
        Map<String, TokenUsage> out = new java.util.LinkedHashMap<>();
        for (TraceEvent.ModelCall c : modelCalls()) {
            out.merge(c.role(), c.usage(), TokenUsage::plus);
        }
        return out;
    }

    /** {@return the guard verdicts, in order} */
    public List<TraceEvent.GuardChecked> guardChecks() {
        return ofType(TraceEvent.GuardChecked.class);
    }

    /** {@return the executions, in order} */
    public List<TraceEvent.Executed> executions() {
        return ofType(TraceEvent.Executed.class);
    }

    /** {@return the correction, if one was made} */
    public Optional<CorrectionRecord> correction() {
        List<TraceEvent.Corrected> c = ofType(TraceEvent.Corrected.class);
        return c.isEmpty() ? Optional.empty() : Optional.of(c.get(0).record());
    }

    /** {@return how many times {@link Stage#CORRECT} was entered (0 or 1)} */
    public int correctionCount() {
        int n = 0;
        for (Stage s : stages()) {
            if (s == Stage.CORRECT) {
                n++;
            }
        }
        return n;
    }

    /** {@return the remarks, in order} */
    public List<TraceEvent.Note> notes() {
        return ofType(TraceEvent.Note.class);
    }

    /**
     * Time spent per stage, from each stage's entry to the next stage's entry.
     *
     * @return durations by stage; terminal stages are absent
     */
    public Map<Stage, Duration> timeByStage() {
        Map<Stage, Duration> out = new EnumMap<>(Stage.class);
        StageTransition prev = null;
        for (TraceEvent e : events) {
            if (e instanceof TraceEvent.StageEntered) {
                StageTransition t = ((TraceEvent.StageEntered) e).transition();
                if (prev != null) {
                    out.merge(prev.to(), Duration.between(prev.at(), t.at()), Duration::plus);
                }
                prev = t;
            }
        }
        return out;
    }

    private <T extends TraceEvent> List<T> ofType(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (TraceEvent e : events) {
            if (type.isInstance(e)) {
                out.add(type.cast(e));
            }
        }
        return out;
    }

    /**
     * Renders the trace as one JSON object on one line: {@code {"question_id": …, "events": [...]}}, each
     * event with a {@code type} ({@code stage}, {@code model_call}, {@code guard}, {@code execution},
     * {@code choice}, {@code judge}, {@code correction}, {@code note}). The same form is kept in every case
     * record. Result rows are never written, only row counts and column names: traces go to logs and case
     * stores, and rows may be personal data. Field names are stable: new ones may be added, none renamed.
     *
     * @return the JSON text
     */
    public String toJson() {
        return dev.sqlagent.internal.TraceJson.toJson(this);
    }

    @Override
    public String toString() {
        return "Trace{" + questionId + ", stages=" + stages() + ", modelCalls=" + modelCallCount() + '}';
    }
}
