package dev.sqlagent.eval;

import dev.sqlagent.internal.JsonTree;
import java.io.IOException;
import java.util.Map;

/** The evaluator's JSON: one object per line, through {@link JsonTree}. */
final class Json {

    private Json() {
    }

    /**
     * @param text one JSON object
     * @return its fields in order; numbers as Long or Double
     * @throws IOException when the text is not exactly one JSON object
     */
    static Map<String, Object> parseObject(String text) throws IOException {
        return JsonTree.parseObject(text);
    }

    /**
     * @param value a map, list, string, number, boolean or null (nested freely)
     * @return its JSON text on one line
     */
    static String write(Object value) {
        return JsonTree.write(value);
    }

    /** @param v a parsed value  @return it as text, "" for null */
    static String text(Object v) {
        return v == null ? "" : v.toString();
    }
}
