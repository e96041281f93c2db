package dev.sqlagent.internal;

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
 * JSON as plain Java values on jackson-core's streaming API (the only JSON library core may use):
 * objects as ordered maps, arrays as lists, numbers as {@link Long} or {@link Double}. The one reader
 * and writer behind the evaluator's files, the case files and the lenient reading of model replies.
 */
public final class JsonTree {

    /** Nesting deeper than this is refused. */
    public static final int MAX_DEPTH = 64;

    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonTree() {
    }

    /**
     * @param text exactly one JSON object
     * @return its fields in order
     * @throws IOException when the text is not exactly one JSON object
     */
    public static Map<String, Object> parseObject(String text) throws IOException {
        try (JsonParser p = FACTORY.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("expected a JSON object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> out = (Map<String, Object>) readValue(p, MAX_DEPTH);
            if (p.nextToken() != null) {
                throw new IOException("unexpected content after the JSON object");
            }
            return out;
        }
    }

    /**
     * Reads the value at the parser's current token, leaving the parser on its last token.
     *
     * @param p a parser positioned on a value's first token
     * @param depth how much deeper nesting may go
     * @return the value
     * @throws IOException when the JSON is malformed, truncated or too deep
     */
    public static Object readValue(JsonParser p, int depth) throws IOException {
        if (depth < 0) {
            throw new IOException("JSON nested too deeply");
        }
        JsonToken t = p.currentToken();
        if (t == null) {
            throw new IOException("unexpected end of JSON");
        }
        switch (t) {
            case START_OBJECT: {
                Map<String, Object> out = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    out.put(name, readValue(p, depth - 1));
                }
                if (p.currentToken() != JsonToken.END_OBJECT) {
                    throw new IOException("unterminated JSON object");
                }
                return out;
            }
            case START_ARRAY: {
                List<Object> list = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    if (p.currentToken() == null) {
                        throw new IOException("unterminated JSON array");
                    }
                    list.add(readValue(p, depth - 1));
                }
                return list;
            }
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
    public static String write(Object value) {
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
}
