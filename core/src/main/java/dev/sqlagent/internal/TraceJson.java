package dev.sqlagent.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.sqlagent.execution.ExecutionError;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.llm.ChatMessage;
import dev.sqlagent.trace.CorrectionRecord;
import dev.sqlagent.trace.Trace;
import dev.sqlagent.trace.TraceEvent;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * Renders a {@link Trace} as one JSON object: {@code {"question_id", "events": [...]}}, each event
 * with a {@code type}. Result rows are never written (only counts and column names): traces go to
 * logs and case stores, rows may be personal data.
 */
public final class TraceJson {

    private static final JsonFactory JSON = new JsonFactory();

    private TraceJson() {
    }

    /** @param trace a trace  @return its JSON text */
    public static String toJson(Trace trace) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("question_id", trace.questionId());
            g.writeArrayFieldStart("events");
            for (TraceEvent e : trace.events()) {
                writeEvent(g, e);
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    private static void writeEvent(JsonGenerator g, TraceEvent e) throws IOException {
        g.writeStartObject();
        if (e instanceof TraceEvent.StageEntered) {
            var t = ((TraceEvent.StageEntered) e).transition();
            g.writeStringField("type", "stage");
            g.writeStringField("from", t.from().name());
            g.writeStringField("to", t.to().name());
            g.writeStringField("at", t.at().toString());
            g.writeStringField("reason", t.reason());
        } else if (e instanceof TraceEvent.ModelCall) {
            var c = (TraceEvent.ModelCall) e;
            g.writeStringField("type", "model_call");
            g.writeStringField("stage", c.stage().name());
            g.writeStringField("role", c.role());
            g.writeStringField("model", c.model());
            g.writeArrayFieldStart("prompt");
            for (ChatMessage m : c.prompt()) {
                g.writeStartObject();
                g.writeStringField("role", m.role().name().toLowerCase(java.util.Locale.ROOT));
                g.writeStringField("content", m.content());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("replies");
            for (String r : c.replies()) {
                g.writeString(r);
            }
            g.writeEndArray();
            g.writeNumberField("input_tokens", c.usage().inputTokens());
            g.writeNumberField("output_tokens", c.usage().outputTokens());
            g.writeNumberField("elapsed_ms", c.elapsed().toMillis());
            if (!c.error().isEmpty()) {
                g.writeStringField("error", c.error());
            }
        } else if (e instanceof TraceEvent.GuardChecked) {
            var gc = (TraceEvent.GuardChecked) e;
            g.writeStringField("type", "guard");
            g.writeNumberField("candidate", gc.candidate());
            g.writeNumberField("round", gc.round());
            writeVerdict(g, gc.verdict());
        } else if (e instanceof TraceEvent.Executed) {
            var x = (TraceEvent.Executed) e;
            g.writeStringField("type", "execution");
            g.writeNumberField("candidate", x.candidate());
            g.writeNumberField("round", x.round());
            g.writeStringField("sql", x.sql());
            writeOutcome(g, x.outcome());
        } else if (e instanceof TraceEvent.Chosen) {
            var ch = (TraceEvent.Chosen) e;
            g.writeStringField("type", "choice");
            g.writeNumberField("candidate", ch.candidate());
            g.writeNumberField("round", ch.round());
            g.writeArrayFieldStart("group_sizes");
            for (int size : ch.groupSizes()) {
                g.writeNumber(size);
            }
            g.writeEndArray();
            g.writeStringField("rule", ch.rule());
        } else if (e instanceof TraceEvent.Judged) {
            var j = (TraceEvent.Judged) e;
            g.writeStringField("type", "judge");
            g.writeNumberField("candidate", j.candidate());
            g.writeNumberField("round", j.round());
            g.writeBooleanField("is_correct", j.verdict().correct());
            g.writeNumberField("score", j.verdict().score());
            g.writeArrayFieldStart("error_tags");
            for (var tag : j.verdict().errorTags()) {
                g.writeString(tag.name());
            }
            g.writeEndArray();
            g.writeStringField("repair_task", j.verdict().repairTask());
            g.writeStringField("comment", j.verdict().comment());
            g.writeStringField("advice", j.verdict().advice());
        } else if (e instanceof TraceEvent.Corrected) {
            CorrectionRecord r = ((TraceEvent.Corrected) e).record();
            g.writeStringField("type", "correction");
            g.writeStringField("original_sql", r.originalSql());
            g.writeStringField("original_error", r.originalError());
            g.writeStringField("error_category", r.errorCategory());
            g.writeStringField("corrected_sql", r.correctedSql());
            g.writeStringField("correction_reason", r.correctionReason());
        } else if (e instanceof TraceEvent.Note) {
            var n = (TraceEvent.Note) e;
            g.writeStringField("type", "note");
            g.writeStringField("stage", n.stage().name());
            g.writeStringField("kind", n.kind());
            g.writeStringField("message", n.message());
        }
        g.writeEndObject();
    }

    static void writeVerdict(JsonGenerator g, GuardVerdict v) throws IOException {
        g.writeStringField("sql", v.sql());
        if (v instanceof GuardVerdict.Accepted) {
            var a = (GuardVerdict.Accepted) v;
            g.writeStringField("verdict", "ACCEPTED");
            g.writeStringField("rewritten_sql", a.statement().sql());
            g.writeNumberField("parameters", a.statement().parameters().size());
        } else if (v instanceof GuardVerdict.Rejected) {
            g.writeStringField("verdict", "REJECTED");
            g.writeArrayFieldStart("violations");
            for (Violation viol : ((GuardVerdict.Rejected) v).violations()) {
                g.writeStartObject();
                g.writeStringField("type", viol.type().name());
                g.writeStringField("fragment", viol.fragment());
                g.writeStringField("message", viol.message());
                g.writeEndObject();
            }
            g.writeEndArray();
        } else {
            g.writeStringField("verdict", "UNPARSEABLE");
            g.writeStringField("message", ((GuardVerdict.Unparseable) v).message());
        }
    }

    static void writeOutcome(JsonGenerator g, ExecutionOutcome o) throws IOException {
        if (o instanceof ExecutionOutcome.Success) {
            ResultTable t = ((ExecutionOutcome.Success) o).table();
            g.writeStringField("outcome", "ok");
            g.writeNumberField("rows", t.rowCount());
            g.writeBooleanField("truncated", t.truncated());
            g.writeArrayFieldStart("columns");
            for (String c : t.columnNames()) {
                g.writeString(c);
            }
            g.writeEndArray();
            g.writeNumberField("elapsed_ms", t.elapsed().toMillis());
        } else {
            ExecutionError err = ((ExecutionOutcome.Failure) o).error();
            g.writeStringField("outcome", "error");
            g.writeStringField("error_category", err.category().name());
            g.writeStringField("sqlstate", err.sqlState());
            g.writeNumberField("vendor_code", err.vendorCode());
            g.writeStringField("message", err.message());
            g.writeNumberField("elapsed_ms", err.elapsed().toMillis());
        }
    }
}
