package dev.sqlagent.internal.run;

import dev.sqlagent.internal.LenientJson;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads the rewriter's reply: a JSON object {@code {"question": "…"}} (also inside prose or a fence), or
 * prose from which the question is taken robustly: preamble lines ("Sure! Here is the rewritten
 * question:"), labels ("Rewritten question: …"), quotes, bullets and fences are passed over. A reply that
 * holds no question (empty, SQL, too long, a refusal) reads as none, and the question is kept as asked.
 */
final class RewriteReply {

    private static final Pattern PREAMBLE = Pattern.compile(
            "(?i)^(sure|certainly|of course|ok(ay)?|here( is|'s| are)|the (rewritten|self-contained|standalone|full)"
                    + "|rewritten|rewrite|i (have|would|will|'d|'ve)|好的|当然|改写后|重写后|以下是).*");
    private static final Pattern LABEL = Pattern.compile(
            "(?i)^\\s*(\\*\\*)?(rewritten|self-contained|standalone|full|new)?\\s*(question|query|问题)(\\*\\*)?\\s*[:：]\\s*(.+)$");
    private static final Pattern SQL = Pattern.compile("(?is)^\\s*(select|with|insert|update|delete|drop|create)\\b.*");
    /** Other statements (COPY, ATTACH, INSTALL, …), written as statements: the question is kept as asked. */
    private static final Pattern STATEMENT = Pattern.compile("(?s)^\\s*((COPY|ATTACH|DETACH|INSTALL|LOAD|PRAGMA|SET"
            + "|RESET|USE|CALL|EXPORT|IMPORT|VACUUM|EXPLAIN|ALTER|TRUNCATE)\\b|(?i:copy|attach|pragma)\\s*[('\"]).*");
    private static final Pattern REFUSAL = Pattern.compile(
            "(?i)^(i('m| am)? (sorry|unable|cannot|can't)|sorry|unfortunately|as an ai|抱歉|对不起|无法).*");

    private RewriteReply() {
    }

    /**
     * @param reply the rewriter's reply
     * @param maxLength the longest question accepted
     * @return the rewritten question, empty when the reply holds none
     */
    static Optional<String> parse(String reply, int maxLength) {
        if (reply == null || reply.isBlank()) {
            return Optional.empty();
        }
        Optional<Map<String, Object>> json = LenientJson.firstObject(reply);
        if (json.isPresent()) {
            for (String key : List.of("question", "rewritten_question", "rewritten", "rewrite")) {
                String v = LenientJson.text(json.get().get(key)).strip();
                if (!v.isEmpty() && !v.equals("null")) {
                    return accepted(v, maxLength);
                }
            }
        }
        for (String raw : reply.strip().split("\\R")) {
            String line = clean(raw);
            if (line.isEmpty() || line.startsWith("```") || line.startsWith("{")) {
                continue;
            }
            var label = LABEL.matcher(line);
            if (label.matches()) {
                return accepted(clean(label.group(5)), maxLength);
            }
            if (PREAMBLE.matcher(line).matches()) {
                int colon = Math.max(line.lastIndexOf(':'), line.lastIndexOf('：'));
                if (colon == line.length() - 1) {
                    continue;
                }
                if (colon > 0) {
                    return accepted(line.substring(colon + 1), maxLength);
                }
            }
            return accepted(line, maxLength);
        }
        return Optional.empty();
    }

    private static Optional<String> accepted(String question, int maxLength) {
        String q = clean(question);
        if (q.isEmpty() || q.length() > maxLength || SQL.matcher(q).matches() || STATEMENT.matcher(q).matches()
                || REFUSAL.matcher(q).matches() || q.chars().noneMatch(Character::isLetter)) {
            return Optional.empty();
        }
        return Optional.of(q);
    }

    /** Strips bullets, quotes, bold markers and surrounding whitespace. */
    private static String clean(String line) {
        String s = line.strip();
        s = s.replaceFirst("^([-*>•]|\\d+[.)])\\s+", "");
        s = s.replace("**", "").strip();
        while (s.length() >= 2 && "\"'“”「」`".indexOf(s.charAt(0)) >= 0
                && "\"'“”「」`".indexOf(s.charAt(s.length() - 1)) >= 0) {
            s = s.substring(1, s.length() - 1).strip();
        }
        return s.toLowerCase(Locale.ROOT).equals("null") ? "" : s;
    }
}
