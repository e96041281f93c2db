package dev.sqlagent;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.sqlagent.cases.CaseRecord;
import dev.sqlagent.internal.CaseBuilder;
import dev.sqlagent.internal.CaseJson;
import dev.sqlagent.trace.CorrectionRecord;
import dev.sqlagent.trace.TraceEvent;
import dev.sqlagent.verify.JudgeVerdict;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a person needs to take over a question the agent could not answer: it was rejected by the
 * policy or failed. Every {@link AgentResult.Rejected} and {@link AgentResult.Failed} the agent returns
 * carries one ({@link AgentResult#handOff()}); {@link SqlAgent.Builder#onHandOff} passes each to the
 * host, for example to open a ticket. Immutable; {@link #toJson()} gives a stable JSON form.
 *
 * @param questionId the question's id, as in its trace and case
 * @param status {@link AgentResult.Status#REJECTED} or {@link AgentResult.Status#FAILED}
 * @param askedQuestion the question as the user asked it
 * @param question the question as the agent worked on it (a follow-up rewritten into a whole question)
 * @param reason why it ended without an answer: the failure's message, or the violations of the rejected SQL
 * @param failureKind the failure's kind; empty for a rejection
 * @param errorCategory the database error's category when one caused the failure, else empty
 * @param schemaSelection the tables and columns the model was shown, in order; empty when it saw the
 *     whole schema the policy allows
 * @param plan the decomposer's plan, or empty when there was none
 * @param attempts every SQL tried, round by round, with what the guard, the database and the judge made
 *     of it (the same trajectory as the question's case)
 * @param correction the single correction, with the original SQL and error, when one was made
 * @param judgeAdvice what the judge said about the SQLs it reviewed, in order: comment, advice and the
 *     repair it asked for
 */
public record HandOff(String questionId, AgentResult.Status status, String askedQuestion, String question,
        String reason, Optional<FailureKind> failureKind, Optional<String> errorCategory,
        Map<String, List<String>> schemaSelection, String plan, List<CaseRecord.Attempt> attempts,
        Optional<CorrectionRecord> correction, List<String> judgeAdvice) {

    private static final JsonFactory JSON = new JsonFactory();

    /**
     * Checks the parts and copies the collections.
     *
     * @param questionId the question's id
     * @param status rejected or failed
     * @param askedQuestion the question as the user asked it
     * @param question the question as the agent worked on it
     * @param reason why it ended without an answer
     * @param failureKind the failure's kind; empty for a rejection
     * @param errorCategory the database error's category, when one caused the failure
     * @param schemaSelection the tables and columns the model was shown
     * @param plan the decomposer's plan, or empty
     * @param attempts every SQL tried
     * @param correction the single correction, when one was made
     * @param judgeAdvice what the judge said
     * @throws IllegalArgumentException if the status is {@link AgentResult.Status#ANSWERED}
     */
    public HandOff {
        Objects.requireNonNull(questionId, "questionId");
        Objects.requireNonNull(status, "status");
        if (status == AgentResult.Status.ANSWERED) {
            throw new IllegalArgumentException("an answered question needs no hand-off");
        }
        Objects.requireNonNull(askedQuestion, "askedQuestion");
        Objects.requireNonNull(question, "question");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(failureKind, "failureKind");
        Objects.requireNonNull(errorCategory, "errorCategory");
        Map<String, List<String>> sel = new LinkedHashMap<>();
        schemaSelection.forEach((t, cols) -> sel.put(t, List.copyOf(cols)));
        schemaSelection = java.util.Collections.unmodifiableMap(sel);
        Objects.requireNonNull(plan, "plan");
        attempts = List.copyOf(attempts);
        Objects.requireNonNull(correction, "correction");
        judgeAdvice = List.copyOf(judgeAdvice);
    }

    /**
     * Builds the hand-off of a result that is not an answer.
     *
     * @param result a rejected or failed result
     * @param askedQuestion the question as the user asked it
     * @param selection the tables and columns the model was shown, or null when it saw the whole schema
     * @param plan the decomposer's plan, or empty
     * @return the hand-off
     * @throws IllegalArgumentException if the result is an answer
     */
    public static HandOff of(AgentResult result, String askedQuestion,
            Map<String, ? extends Collection<String>> selection, String plan) {
        Objects.requireNonNull(result, "result");
        String reason;
        Optional<FailureKind> kind = Optional.empty();
        Optional<String> category = Optional.empty();
        if (result instanceof AgentResult.Failed f) {
            reason = f.message();
            kind = Optional.of(f.kind());
            category = f.errorCategory().map(Enum::name);
        } else if (result instanceof AgentResult.Rejected r) {
            List<String> messages = new ArrayList<>();
            r.violations().forEach(v -> messages.add(v.message()));
            reason = String.join("; ", messages);
        } else {
            throw new IllegalArgumentException("an answered question needs no hand-off");
        }
        Map<String, List<String>> sel = new LinkedHashMap<>();
        if (selection != null) {
            selection.forEach((t, cols) -> sel.put(t, new ArrayList<>(cols)));
        }
        List<String> advice = new ArrayList<>();
        for (TraceEvent e : result.trace().events()) {
            if (e instanceof TraceEvent.Judged j) {
                JudgeVerdict v = j.verdict();
                String text = String.join(" ", v.comment(), v.advice(), v.repairTask()).strip();
                if (!text.isEmpty()) {
                    advice.add(text);
                }
            }
        }
        return new HandOff(result.trace().questionId(), result.status(), askedQuestion, result.question(), reason,
                kind, category, sel, plan == null ? "" : plan, CaseBuilder.attempts(result.trace()),
                result.trace().correction(), advice);
    }

    /**
     * Renders the hand-off as one JSON object. Its field names are stable (new fields may be added, none
     * renamed): {@code question_id}, {@code status}, {@code asked_question}, {@code question}, {@code reason},
     * {@code failure_kind} and {@code error_category} (null when absent), {@code schema_selection} (table
     * to columns), {@code plan}, {@code attempts} (each with {@code round}, {@code sql}, {@code exec_result},
     * {@code rows}, {@code error}, {@code judge_correct}, {@code judge_comment}, as in a case),
     * {@code correction} (null, or {@code original_sql}, {@code original_error}, {@code error_category},
     * {@code corrected_sql}, {@code correction_reason}) and {@code judge_advice}. Result rows are never
     * included.
     *
     * @return the JSON text, on one line
     */
    public String toJson() {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("question_id", questionId);
            g.writeStringField("status", status.name());
            g.writeStringField("asked_question", askedQuestion);
            g.writeStringField("question", question);
            g.writeStringField("reason", reason);
            g.writeStringField("failure_kind", failureKind.map(Enum::name).orElse(null));
            g.writeStringField("error_category", errorCategory.orElse(null));
            g.writeObjectFieldStart("schema_selection");
            for (Map.Entry<String, List<String>> e : schemaSelection.entrySet()) {
                g.writeArrayFieldStart(e.getKey());
                for (String c : e.getValue()) {
                    g.writeString(c);
                }
                g.writeEndArray();
            }
            g.writeEndObject();
            g.writeStringField("plan", plan);
            CaseJson.writeAttempts(g, attempts);
            if (correction.isPresent()) {
                CorrectionRecord c = correction.get();
                g.writeObjectFieldStart("correction");
                g.writeStringField("original_sql", c.originalSql());
                g.writeStringField("original_error", c.originalError());
                g.writeStringField("error_category", c.errorCategory());
                g.writeStringField("corrected_sql", c.correctedSql());
                g.writeStringField("correction_reason", c.correctionReason());
                g.writeEndObject();
            } else {
                g.writeNullField("correction");
            }
            g.writeArrayFieldStart("judge_advice");
            for (String a : judgeAdvice) {
                g.writeString(a);
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }
}
