package dev.sqlagent.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.sqlagent.cases.CaseRecord;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A case as one line of JSON, and back. The trace is embedded as a string so that a reader can take
 * the case without parsing the trace. Field names are snake_case and stable: fields are added, never
 * renamed.
 */
public final class CaseJson {

    private static final JsonFactory JSON = new JsonFactory();

    private CaseJson() {
    }

    /** @param c a case  @return one line of JSON, no line breaks */
    public static String write(CaseRecord c) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("id", c.id());
            g.writeStringField("question", c.question());
            g.writeStringField("table", c.table());
            g.writeStringField("category", c.category());
            g.writeStringField("sql", c.sql());
            g.writeStringField("status", c.status() == CaseRecord.Status.GOOD ? "good" : "bad");
            g.writeStringField("outcome", c.outcome());
            g.writeStringField("error", c.error());
            g.writeStringField("error_category", c.errorCategory());
            g.writeArrayFieldStart("error_tags");
            for (String t : c.errorTags()) {
                g.writeString(t);
            }
            g.writeEndArray();
            g.writeBooleanField("verified", c.verified());
            if (c.judgeScore().isPresent()) {
                g.writeNumberField("judge_score", c.judgeScore().getAsInt());
            } else {
                g.writeNullField("judge_score");
            }
            g.writeNumberField("corrections", c.corrections());
            g.writeNumberField("rounds", c.rounds());
            writeAttempts(g, c.attempts());
            g.writeArrayFieldStart("tables_read");
            for (String t : c.tablesRead()) {
                g.writeString(t);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("model_names");
            for (String m : c.modelNames()) {
                g.writeString(m);
            }
            g.writeEndArray();
            g.writeStringField("created_at", c.createdAt().toString());
            g.writeStringField("trace", c.traceJson());
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    /** @param attempts a trajectory  @return it as a JSON array */
    public static String writeAttempts(List<CaseRecord.Attempt> attempts) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            writeAttempts(g, attempts);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String s = w.toString();
        return s.substring("{\"attempts\":".length(), s.length() - 1);
    }

    /**
     * Writes a trajectory as the field {@code attempts}.
     *
     * @param g the generator, inside an object
     * @param attempts the trajectory
     * @throws IOException if the generator fails
     */
    public static void writeAttempts(JsonGenerator g, List<CaseRecord.Attempt> attempts) throws IOException {
        g.writeArrayFieldStart("attempts");
        for (CaseRecord.Attempt a : attempts) {
            g.writeStartObject();
            g.writeNumberField("round", a.round());
            g.writeStringField("sql", a.sql());
            g.writeStringField("exec_result", a.execResult());
            g.writeNumberField("rows", a.rows());
            g.writeStringField("error", a.error());
            if (a.judgeCorrect().isPresent()) {
                g.writeBooleanField("judge_correct", a.judgeCorrect().get());
            } else {
                g.writeNullField("judge_correct");
            }
            g.writeStringField("judge_comment", a.judgeComment());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /**
     * Reads a case written by {@link #write}.
     *
     * @param line one line
     * @return the case, empty when the line is not a complete case (a torn last line after a crash)
     */
    public static Optional<CaseRecord> read(String line) {
        Optional<Map<String, Object>> o = LenientJson.firstObject(line);
        if (o.isEmpty() || !o.get().containsKey("id") || !o.get().containsKey("trace")) {
            return Optional.empty();
        }
        Map<String, Object> m = o.get();
        try {
            List<CaseRecord.Attempt> attempts = new ArrayList<>();
            if (m.get("attempts") instanceof List) {
                for (Object a : (List<?>) m.get("attempts")) {
                    if (a instanceof Map) {
                        Map<?, ?> am = (Map<?, ?>) a;
                        Object jc = am.get("judge_correct");
                        attempts.add(new CaseRecord.Attempt(toInt(am.get("round")), text(am.get("sql")),
                                text(am.get("exec_result")), toInt(am.get("rows")), text(am.get("error")),
                                jc instanceof Boolean ? Optional.of((Boolean) jc) : Optional.empty(),
                                text(am.get("judge_comment"))));
                    }
                }
            }
            Object score = m.get("judge_score");
            return Optional.of(new CaseRecord(text(m.get("id")), text(m.get("question")), text(m.get("table")),
                    text(m.get("category")), text(m.get("sql")),
                    "good".equals(m.get("status")) ? CaseRecord.Status.GOOD : CaseRecord.Status.BAD,
                    text(m.get("outcome")), text(m.get("error")), text(m.get("error_category")),
                    LenientJson.strings(m.get("error_tags")), Boolean.TRUE.equals(m.get("verified")),
                    score instanceof Number ? OptionalInt.of(((Number) score).intValue()) : OptionalInt.empty(),
                    toInt(m.get("corrections")), attempts, LenientJson.strings(m.get("tables_read")),
                    LenientJson.strings(m.get("model_names")), Instant.parse(text(m.get("created_at"))),
                    text(m.get("trace"))));
        } catch (DateTimeParseException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String text(Object v) {
        return v == null ? "" : LenientJson.text(v);
    }

    private static int toInt(Object v) {
        return v instanceof Number ? ((Number) v).intValue() : 0;
    }
}
