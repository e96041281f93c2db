package dev.sqlagent.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the first JSON object found in a model's reply into plain Java values ({@link Map},
 * {@link List}, {@link String}, {@link Double}/{@link Long}, {@link Boolean}, null), leniently: fences,
 * chatter before and after, single quotes, unquoted names and trailing commas are tolerated. Depth and
 * size are bounded; it never throws.
 */
public final class LenientJson {

    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
            .enable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();
    private static final int MAX_DEPTH = 16;
    private static final int MAX_STARTS = 64;

    private LenientJson() {
    }

    /**
     * @param reply a model reply, may be null
     * @return the first object that parses whole, empty if none does
     */
    public static Optional<Map<String, Object>> firstObject(String reply) {
        if (reply == null) {
            return Optional.empty();
        }
        int tries = 0;
        for (int from = reply.indexOf('{'); from >= 0 && tries < MAX_STARTS; from = reply.indexOf('{', from + 1)) {
            tries++;
            try (JsonParser p = JSON.createParser(reply.substring(from))) {
                if (p.nextToken() == JsonToken.START_OBJECT) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> value = (Map<String, Object>) JsonTree.readValue(p, MAX_DEPTH);
                    return Optional.of(value);
                }
            } catch (IOException | RuntimeException e) {
                // not an object starting here; try the next brace
            }
        }
        return Optional.empty();
    }

    /** @param v a value  @return it as text: strings as they are, numbers and booleans printed, else empty */
    public static String text(Object v) {
        if (v instanceof String) {
            return (String) v;
        }
        if (v instanceof Long || v instanceof Boolean) {
            return v.toString();
        }
        if (v instanceof Double) {
            double d = (Double) v;
            return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
        }
        return "";
    }

    /** @param v a value  @return the strings of a list (or a single string as a list), else empty */
    public static List<String> strings(Object v) {
        List<String> out = new ArrayList<>();
        if (v instanceof List) {
            for (Object o : (List<?>) v) {
                String s = text(o);
                if (!s.isBlank()) {
                    out.add(s.trim());
                }
            }
        } else if (v instanceof String && !((String) v).isBlank()) {
            for (String s : ((String) v).split(",")) {
                if (!s.isBlank()) {
                    out.add(s.trim());
                }
            }
        }
        return out;
    }
}
