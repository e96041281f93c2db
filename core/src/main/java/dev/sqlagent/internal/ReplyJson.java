package dev.sqlagent.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the top-level string fields of the first JSON object in a model reply, leniently: fences,
 * chatter before and after, and single-quoted or unquoted names are tolerated. Never throws.
 */
public final class ReplyJson {

    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
            .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
            .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_TRAILING_COMMA)
            .build();

    private ReplyJson() {
    }

    /**
     * @param reply a model reply
     * @return the string (and number/boolean, as text) fields of its first JSON object, empty if none parses
     */
    public static Optional<Map<String, String>> firstObject(String reply) {
        if (reply == null) {
            return Optional.empty();
        }
        int from = reply.indexOf('{');
        while (from >= 0) {
            Optional<Map<String, String>> parsed = parseAt(reply, from);
            if (parsed.isPresent()) {
                return parsed;
            }
            from = reply.indexOf('{', from + 1);
        }
        return Optional.empty();
    }

    private static Optional<Map<String, String>> parseAt(String text, int from) {
        try (JsonParser p = JSON.createParser(text.substring(from))) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            Map<String, String> out = new HashMap<>();
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
                    p.skipChildren();
                } else if (v != JsonToken.VALUE_NULL) {
                    out.put(name, p.getText());
                }
            }
            return t == JsonToken.END_OBJECT ? Optional.of(out) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
