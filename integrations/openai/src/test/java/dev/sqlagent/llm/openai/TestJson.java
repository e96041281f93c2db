package dev.sqlagent.llm.openai;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads JSON into maps, lists and scalars so that tests can assert on a request's shape. */
final class TestJson {

    private static final JsonFactory FACTORY = new JsonFactory();

    private TestJson() {
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String json) {
        try (JsonParser p = FACTORY.createParser(json)) {
            p.nextToken();
            return (Map<String, Object>) read(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Object read(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT: {
                Map<String, Object> m = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    m.put(name, read(p));
                }
                return m;
            }
            case START_ARRAY: {
                List<Object> l = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    l.add(read(p));
                }
                return l;
            }
            case VALUE_STRING:
                return p.getText();
            case VALUE_NUMBER_INT:
                return p.getLongValue();
            case VALUE_NUMBER_FLOAT:
                return p.getDoubleValue();
            case VALUE_TRUE:
                return true;
            case VALUE_FALSE:
                return false;
            default:
                return null;
        }
    }

    /** A chat completion body with the given texts as choices. */
    static String completion(String model, long promptTokens, long completionTokens, String... texts) {
        StringBuilder sb = new StringBuilder("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"model\":\"")
                .append(model).append("\",\"choices\":[");
        for (int i = 0; i < texts.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append("{\"index\":").append(i).append(",\"message\":{\"role\":\"assistant\",\"content\":\"")
                    .append(texts[i].replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n"))
                    .append("\"},\"finish_reason\":\"stop\"}");
        }
        return sb.append("],\"usage\":{\"prompt_tokens\":").append(promptTokens).append(",\"completion_tokens\":")
                .append(completionTokens).append(",\"total_tokens\":").append(promptTokens + completionTokens)
                .append("}}").toString();
    }
}
