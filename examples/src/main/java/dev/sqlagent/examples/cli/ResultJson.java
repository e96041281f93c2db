package dev.sqlagent.examples.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.sqlagent.AgentResult;
import java.io.IOException;

/**
 * The fields of one question's JSON object, shared by {@code demo --json} and {@code ask --json} so
 * that both spell them alike: {@code question}, {@code status}, {@code corrections}, {@code llm_calls},
 * {@code sql}, {@code error_category}, then (after the caller's own fields) {@code failure_kind} when
 * failed, {@code rows} when answered, {@code violations} when rejected, {@code tokens}, and
 * {@code hand_off} (the {@code HandOff} JSON) when rejected or failed.
 */
final class ResultJson {

    private ResultJson() {
    }

    /**
     * Writes the fields; the caller's {@code middle} fields come after {@code error_category}, where
     * {@code demo} has always written {@code scenario}.
     */
    static void write(JsonGenerator g, AgentResult r, JsonLines.Body middle) throws IOException {
        g.writeStringField("question", r.question());
        g.writeStringField("status", r.status().name());
        g.writeNumberField("corrections", r.trace().correctionCount());
        g.writeNumberField("llm_calls", r.trace().modelCallCount());
        if (r.sql().isPresent()) {
            g.writeStringField("sql", r.sql().get());
        } else {
            g.writeNullField("sql");
        }
        String category = r instanceof AgentResult.Failed
                ? ((AgentResult.Failed) r).errorCategory().map(Enum::name).orElse(null)
                : r.trace().correction().map(c -> c.errorCategory()).orElse(null);
        if (category == null) {
            g.writeNullField("error_category");
        } else {
            g.writeStringField("error_category", category);
        }
        middle.write(g);
        if (r instanceof AgentResult.Failed) {
            g.writeStringField("failure_kind", ((AgentResult.Failed) r).kind().name());
        }
        if (r instanceof AgentResult.Answered) {
            g.writeNumberField("rows", ((AgentResult.Answered) r).table().rowCount());
        }
        if (r instanceof AgentResult.Rejected) {
            g.writeArrayFieldStart("violations");
            for (var v : ((AgentResult.Rejected) r).violations()) {
                g.writeString(v.type() + ":" + v.fragment());
            }
            g.writeEndArray();
        }
        g.writeNumberField("tokens", r.trace().tokens().totalTokens());
        if (r.handOff().isPresent()) {
            // everything a person needs to take over, in the library's own stable form (HandOff.toJson)
            g.writeFieldName("hand_off");
            g.writeRawValue(r.handOff().get().toJson());
        }
    }
}
