package dev.sqlagent;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.trace.Stage;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/**
 * The stable JSON form of an {@link AgentResult} ({@link AgentResult#toJson()}): the one the command
 * line's {@code ask --json} and {@code demo --json} print, and the Spring starter's Jackson module writes.
 */
final class AgentResultJson {

    private static final JsonFactory JSON = new JsonFactory();

    private AgentResultJson() {
    }

    /** @param rowCap the row cap the statement ran under, or 0 when unknown */
    static String toJson(AgentResult r, int rowCap) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            write(g, r, rowCap);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    private static void write(JsonGenerator g, AgentResult r, int rowCap) throws IOException {
        g.writeStringField("question", r.question());
        g.writeStringField("status", r.status().name());
        g.writeNumberField("corrections", r.trace().correctionCount());
        g.writeNumberField("llm_calls", r.trace().modelCallCount());
        g.writeStringField("sql", r.sql().orElse(null));
        String category = r instanceof AgentResult.Failed f ? f.errorCategory().map(Enum::name).orElse(null)
                : r.trace().correction().map(c -> c.errorCategory()).orElse(null);
        g.writeStringField("error_category", category);
        if (r instanceof AgentResult.Failed f) {
            g.writeStringField("failure_kind", f.kind().name());
        }
        if (r instanceof AgentResult.Answered a) {
            g.writeNumberField("rows", a.table().rowCount());
        }
        if (r instanceof AgentResult.Rejected rej) {
            g.writeArrayFieldStart("violations");
            for (Violation v : rej.violations()) {
                g.writeString(v.type() + ":" + v.fragment());
            }
            g.writeEndArray();
        }
        g.writeNumberField("tokens", r.trace().tokens().totalTokens());
        if (r.handOff().isPresent()) {
            g.writeFieldName("hand_off");
            g.writeRawValue(r.handOff().get().toJson());
        }
        g.writeArrayFieldStart("stages");
        for (Stage s : r.trace().stages()) {
            g.writeString(s.name());
        }
        g.writeEndArray();
        if (r instanceof AgentResult.Answered a) {
            ResultTable t = a.table();
            g.writeStringField("executed_sql", a.executedSql());
            g.writeArrayFieldStart("columns");
            for (String c : t.columnNames()) {
                g.writeString(c);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("data");
            for (List<Object> row : t.rows()) {
                g.writeStartArray();
                for (Object v : row) {
                    value(g, v);
                }
                g.writeEndArray();
            }
            g.writeEndArray();
            // the guard caps the statement at the row cap, so an answer at the cap may have been cut
            boolean capReached = rowCap > 0 && t.rowCount() >= rowCap;
            g.writeBooleanField("truncated", t.truncated() || capReached);
            g.writeNumberField("row_count", t.rowCount());
            if (rowCap > 0) {
                g.writeNumberField("row_cap", rowCap);
                g.writeBooleanField("row_cap_reached", t.truncated() || capReached);
            }
        }
        if (r instanceof AgentResult.Failed f) {
            g.writeStringField("message", f.message());
        }
        g.writeStringField("question_id", r.trace().questionId());
    }

    private static void value(JsonGenerator g, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            g.writeNumber(((Number) v).longValue());
        } else if (v instanceof Double || v instanceof Float) {
            g.writeNumber(((Number) v).doubleValue());
        } else if (v instanceof BigDecimal b) {
            g.writeNumber(b);
        } else if (v instanceof BigInteger b) {
            g.writeNumber(b);
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else {
            g.writeString(String.valueOf(v));
        }
    }
}
