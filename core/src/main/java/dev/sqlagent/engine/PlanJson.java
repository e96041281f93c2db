package dev.sqlagent.engine;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An engine's JSON (a PostgreSQL plan, a MariaDB optimizer trace) as maps, lists and strings. Numbers stay
 * text: a plan's row estimates can pass any Java number type, and no reader compares them.
 */
public final class PlanJson {

    private static final JsonFactory JSON = new JsonFactory();

    private PlanJson() {
    }

    /**
     * @param text one JSON value
     * @param maxDepth deepest nesting accepted
     * @return the value: maps, lists, strings (numbers as their text), booleans, null
     * @throws IOException when the text is not one JSON value or nests deeper than {@code maxDepth}
     */
    public static Object read(String text, int maxDepth) throws IOException {
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() == null) {
                throw new IOException("no JSON value");
            }
            Object value = value(p, maxDepth);
            if (p.nextToken() != null) {
                throw new IOException("text after the JSON value");
            }
            return value;
        }
    }

    private static Object value(JsonParser p, int depth) throws IOException {
        if (depth < 0) {
            throw new IOException("JSON nested too deeply");
        }
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT) {
            Map<String, Object> out = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                out.put(name, value(p, depth - 1));
            }
            if (p.currentToken() != JsonToken.END_OBJECT) {
                throw new IOException("unterminated JSON object");
            }
            return out;
        }
        if (t == JsonToken.START_ARRAY) {
            List<Object> out = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                if (p.currentToken() == null) {
                    throw new IOException("unterminated JSON array");
                }
                out.add(value(p, depth - 1));
            }
            return out;
        }
        if (t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE) {
            return t == JsonToken.VALUE_TRUE;
        }
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t == JsonToken.VALUE_STRING || t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
            return p.getText();
        }
        throw new IOException("unexpected JSON token " + t);
    }
}
