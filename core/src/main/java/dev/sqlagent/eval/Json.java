package dev.sqlagent.eval;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the evaluator needs, on jackson-core's streaming API: one object per line, read into
 * an ordered map of scalars, nested maps and lists; written from the same shapes.
 */
final class Json {

    private static final JsonFactory FACTORY = new JsonFactory();

    private Json() {
    }

    /**
     * @param text one JSON object
     * @return its fields in order; numbers as Long or Double
     * @throws IOException when the text is not exactly one JSON object
     */
    static Map<String, Object> parseObject(String text) throws IOException {
        try (JsonParser p = FACTORY.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("expected a JSON object");
            }
            Map<String, Object> out = readObject(p);
            if (p.nextToken() != null) {
                throw new IOException("unexpected content after the JSON object");
            }
            return out;
        }
    }

    private static Map<String, Object> readObject(JsonParser p) throws IOException {
        Map<String, Object> out = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            out.put(name, readValue(p));
        }
        if (p.currentToken() != JsonToken.END_OBJECT) {
            throw new IOException("unterminated JSON object");
        }
        return out;
    }

    private static Object readValue(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == null) {
            throw new IOException("unexpected end of JSON");
        }
        switch (t) {
            case START_OBJECT:
                return readObject(p);
            case START_ARRAY:
                List<Object> list = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    list.add(readValue(p));
                }
                return list;
            case VALUE_STRING:
                return p.getText();
            case VALUE_NUMBER_INT:
                return p.getLongValue();
            case VALUE_NUMBER_FLOAT:
                return p.getDoubleValue();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return null;
            default:
                throw new IOException("unexpected JSON token " + t);
        }
    }

    /**
     * @param value a map, list, string, number, boolean or null (nested freely)
     * @return its JSON text on one line
     */
    static String write(Object value) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(w)) {
            writeValue(g, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    private static void writeValue(JsonGenerator g, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
        } else if (v instanceof Map) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                g.writeFieldName(String.valueOf(e.getKey()));
                writeValue(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof List) {
            g.writeStartArray();
            for (Object o : (List<?>) v) {
                writeValue(g, o);
            }
            g.writeEndArray();
        } else if (v instanceof Boolean) {
            g.writeBoolean((Boolean) v);
        } else if (v instanceof Long || v instanceof Integer) {
            g.writeNumber(((Number) v).longValue());
        } else if (v instanceof Double) {
            double d = (Double) v;
            if (Double.isFinite(d)) {
                g.writeNumber(d);
            } else {
                g.writeNull();
            }
        } else if (v instanceof Number) {
            g.writeNumber(v.toString());
        } else {
            g.writeString(v.toString());
        }
    }

    /** @param v a parsed value  @return it as text, "" for null; integral numbers without a fraction */
    static String text(Object v) {
        if (v == null) {
            return "";
        }
        return v.toString();
    }
}
