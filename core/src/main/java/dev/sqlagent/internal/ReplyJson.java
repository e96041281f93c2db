package dev.sqlagent.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the top-level scalar fields of the first JSON object in a model reply, as text (see
 * {@link LenientJson} for what is tolerated). Never throws.
 */
public final class ReplyJson {

    private ReplyJson() {
    }

    /**
     * @param reply a model reply
     * @return the string (and number/boolean, as text) fields of its first JSON object, empty if none parses
     */
    public static Optional<Map<String, String>> firstObject(String reply) {
        return LenientJson.firstObject(reply).map(object -> {
            Map<String, String> out = new HashMap<>();
            object.forEach((k, v) -> {
                if (v != null && !(v instanceof Map) && !(v instanceof java.util.List)) {
                    out.put(k, LenientJson.text(v));
                }
            });
            return out;
        });
    }
}
