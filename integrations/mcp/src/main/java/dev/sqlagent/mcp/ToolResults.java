package dev.sqlagent.mcp;

import dev.sqlagent.AgentResult;
import dev.sqlagent.HandOff;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.ResultColumn;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.trace.TraceEvent;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns an agent's result into what a tool returns: a text an agent reads (a Markdown table with the row cap
 * stated, or the refusal's violations) and the same facts as structured content. A refusal and a failure are
 * tool errors ({@code isError}).
 */
final class ToolResults {

    private ToolResults() {
    }

    /**
     * The result of the {@code query} tool.
     *
     * @param r the agent's result for the caller's SQL
     * @param rowCap the client's row cap
     * @return the tool result
     */
    static CallToolResult query(AgentResult r, int rowCap, Bounds bounds, McpJsonMapper json) {
        Map<String, Object> s = common(r);
        StringBuilder text = new StringBuilder();
        switch (r.status()) {
            case ANSWERED -> {
                AgentResult.Answered a = (AgentResult.Answered) r;
                s.put("executed_sql", a.executedSql());
                table(s, text, a.table(), rowCap, bounds, json, 0);
            }
            case REJECTED -> refusal(s, text, ((AgentResult.Rejected) r).violations());
            default -> {
                AgentResult.Failed f = (AgentResult.Failed) r;
                List<Violation> unknown = unknownTables(f);
                if (!unknown.isEmpty()) {
                    // a table the database lacks reads exactly like a forbidden one: no oracle of what exists
                    refusal(s, text, unknown);
                } else {
                    failure(s, text, f);
                }
            }
        }
        return CallToolResult.builder().addTextContent(text.toString()).structuredContent(s)
                .isError(r.status() != AgentResult.Status.ANSWERED).build();
    }

    /**
     * The result of the {@code ask} tool.
     *
     * @param r the agent's result for the question
     * @param rowCap the client's row cap
     * @param json reads the hand-off's JSON into the structured content
     * @return the tool result
     */
    static CallToolResult ask(AgentResult r, int rowCap, Bounds bounds, McpJsonMapper json) {
        Map<String, Object> s = common(r);
        StringBuilder text = new StringBuilder();
        if (r instanceof AgentResult.Answered a) {
            text.append("Question: ").append(a.question()).append("\n\n");
            s.put("sql", a.sqlText());
            s.put("executed_sql", a.executedSql());
            s.put("corrected", a.corrected());
            String sql = "\nSQL that ran:\n```sql\n" + a.executedSql() + "\n```\n";
            table(s, text, a.table(), rowCap, bounds, json, bytes(sql));
            text.append(sql);
        } else {
            if (r instanceof AgentResult.Rejected rej) {
                refusal(s, text, rej.violations());
            } else {
                failure(s, text, (AgentResult.Failed) r);
            }
            r.sql().ifPresent(sql -> s.put("sql", sql));
            r.handOff().ifPresent(h -> {
                s.put("hand_off", object(json, h));
                text.append("\nHand-off for a person (JSON):\n").append(h.toJson()).append('\n');
            });
        }
        return CallToolResult.builder().addTextContent(text.toString()).structuredContent(s)
                .isError(r.status() != AgentResult.Status.ANSWERED).build();
    }

    /**
     * The result of the {@code describe} tool, within the byte bound: a schema too large for one message lists
     * the tables that fit, in text and structured content alike, and says so.
     *
     * @param text the schema as Markdown
     * @param structured the same as structured content
     * @param bounds the limits of one result
     * @param json measures the structured content
     * @return the tool result
     */
    @SuppressWarnings("unchecked")
    static CallToolResult describe(String text, Map<String, Object> structured, Bounds bounds, McpJsonMapper json) {
        Map<String, Object> s = new LinkedHashMap<>(structured);
        List<Object> tables = s.get("tables") instanceof List<?> l ? (List<Object>) l : List.of();
        String shown = text;
        List<Map<String, Object>> cuts = new ArrayList<>();
        if (bytes(json(json, text)) + bytes(json(json, s)) > bounds.maxBytes()) {
            long half = (bounds.maxBytes() - 4_096L) / 2;
            shown = cutText(text, half);
            List<Object> kept = new ArrayList<>();
            long used = bytes(json(json, s)) - bytes(json(json, tables));
            for (Object t : tables) {
                long cost = bytes(json(json, t)) + 1;
                if (used + cost > half) {
                    break;
                }
                used += cost;
                kept.add(t);
            }
            s.put("tables", kept);
            String message = "the schema is larger than the server's " + bounds.maxBytes() + "-byte limit per result: "
                    + kept.size() + " of " + tables.size() + " tables are listed in full";
            cuts.add(cut("tables", "max_result_bytes", bounds.maxBytes(), message));
            shown += "\n\nTruncated: " + message + ".\n";
        }
        s.put("tables_total", tables.size());
        s.put("truncated", !cuts.isEmpty());
        s.put("truncation", cuts);
        return CallToolResult.builder().addTextContent(shown).structuredContent(s).build();
    }

    /** The text cut at the last line that fits the bytes (as a JSON string's content), or as it is. */
    static String cutText(String text, long maxBytes) {
        if (bytes(text) + 2 * text.chars().filter(c -> c == '\n' || c == '"' || c == '\\').count() <= maxBytes) {
            return text;
        }
        StringBuilder b = new StringBuilder();
        long used = 0;
        for (String line : text.split("\n", -1)) {
            long cost = bytes(line) + 2 + 2 * line.chars().filter(c -> c == '"' || c == '\\').count();
            if (used + cost > maxBytes) {
                break;
            }
            b.append(line).append('\n');
            used += cost;
        }
        return b.toString();
    }

    /**
     * A tool error for a call the server could not take (a bad argument, a closed agent).
     *
     * @param message what was wrong
     * @return the tool result
     */
    static CallToolResult error(String message) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("status", "ERROR");
        s.put("message", message);
        return CallToolResult.builder().addTextContent(message).structuredContent(s).isError(true).build();
    }

    private static Object object(McpJsonMapper json, HandOff h) {
        try {
            return json.readValue(h.toJson(), Map.class);
        } catch (IOException e) {
            return h.toJson(); // HandOff.toJson writes valid JSON; kept as text should a mapper disagree
        }
    }

    private static Map<String, Object> common(AgentResult r) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("status", r.status().name());
        s.put("question_id", r.trace().questionId());
        s.put("executed", !r.trace().executions().isEmpty());
        return s;
    }

    /**
     * The guard's violations when the caller's SQL named only tables or columns the database lacks (the run
     * then fails as "table not found" or "column not found" without running anything), else empty.
     */
    private static List<Violation> unknownTables(AgentResult.Failed f) {
        ErrorCategory category = f.errorCategory().orElse(null);
        if ((category != ErrorCategory.TABLE_NOT_FOUND && category != ErrorCategory.COLUMN_NOT_FOUND)
                || !f.trace().executions().isEmpty()) {
            return List.of();
        }
        List<Violation> found = List.of();
        for (TraceEvent.GuardChecked g : f.trace().guardChecks()) {
            if (g.verdict() instanceof GuardVerdict.Rejected rejected) {
                found = rejected.violations();
            }
        }
        return found;
    }

    private static void refusal(Map<String, Object> s, StringBuilder text, List<Violation> violations) {
        s.put("status", AgentResult.Status.REJECTED.name());
        List<Map<String, Object>> vs = new ArrayList<>();
        text.append("Refused by the policy; nothing ran. Do not retry the same intent in another form.\n");
        for (Violation v : violations) {
            Map<String, Object> m = new LinkedHashMap<>();
            String type = shownType(v);
            m.put("type", type);
            m.put("fragment", v.fragment());
            m.put("message", message(v));
            vs.add(m);
            text.append("- ").append(type).append(": ").append(message(v)).append('\n');
        }
        s.put("violations", vs);
    }

    /**
     * A table or column outside the policy is named the same way whether the database has it or not, by the
     * name as the caller wrote it: no oracle of what exists beyond the policy.
     */
    private static String message(Violation v) {
        return switch (v.type()) {
            case TABLE_NOT_ALLOWED -> "table is not allowed or does not exist: " + v.fragment();
            case COLUMN_DENIED, UNKNOWN_COLUMN -> "column is not allowed or does not exist: " + v.fragment();
            default -> v.message();
        };
    }

    /** A column the database lacks is refused as a denied one is. */
    private static String shownType(Violation v) {
        return v.type() == ViolationType.UNKNOWN_COLUMN ? ViolationType.COLUMN_DENIED.name() : v.type().name();
    }

    private static void failure(Map<String, Object> s, StringBuilder text, AgentResult.Failed f) {
        s.put("failure_kind", f.kind().name());
        s.put("error_category", f.errorCategory().map(Enum::name).orElse(null));
        s.put("message", f.message());
        text.append("Failed (").append(f.kind()).append(f.errorCategory().map(c -> ", " + c).orElse(""))
                .append("): ").append(f.message()).append('\n');
    }

    /**
     * Fills the table's fields and its Markdown, both within the bounds: at most {@code maxRows} rows, cells
     * of at most {@code maxCellChars} characters, and rows added only while text and structured content stay
     * within {@code maxBytes}. Whatever was cut is flagged: {@code truncated} and, for each cut,
     * {@code truncation} (what, why, the limit).
     */
    private static void table(Map<String, Object> s, StringBuilder text, ResultTable t, int rowCap, Bounds bounds,
            McpJsonMapper json, long reserved) {
        List<String> names = new ArrayList<>();
        for (ResultColumn c : t.columns()) {
            names.add(bounds.cut(c.name()));
        }
        // the guard caps the statement at the row cap, so a result that reaches it may have been cut
        boolean capReached = t.truncated() || t.rowCount() >= rowCap;
        List<Map<String, Object>> cuts = new ArrayList<>();
        if (capReached) {
            cuts.add(cut("rows", "row_cap", rowCap, "the policy's row cap was reached, so more rows may exist"));
        }
        StringBuilder head = new StringBuilder();
        if (!names.isEmpty()) {
            head.append('|');
            for (String n : names) {
                head.append(' ').append(cell(n)).append(" |");
            }
            head.append("\n|");
            for (int i = 0; i < names.size(); i++) {
                head.append(" --- |");
            }
            head.append('\n');
        }
        // what the message holds besides the rows, with room for the closing lines and the envelope
        long used = bytes(text) + bytes(head) + bytes(s.toString()) + bytes(String.join(",", names)) + reserved
                + 2_048;
        List<List<Object>> rows = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        boolean cellsCut = false;
        String stoppedBy = null;
        for (List<Object> row : t.rows()) {
            if (rows.size() >= bounds.maxRows()) {
                stoppedBy = "max_result_rows";
                break;
            }
            List<Object> shown = new ArrayList<>(row.size());
            StringBuilder line = new StringBuilder("|");
            for (Object v : row) {
                Object c = v;
                if (v instanceof String str && str.length() > bounds.maxCellChars()) {
                    c = bounds.cut(str);
                    cellsCut = true;
                }
                shown.add(c);
                line.append(' ').append(c == null ? "NULL" : cell(String.valueOf(c))).append(" |");
            }
            line.append('\n');
            // as the message carries it: the text line as a JSON string's content, the row as JSON
            long cost = bytes(json(json, line.toString())) - 2 + bytes(json(json, shown)) + 1;
            if (used + cost > bounds.maxBytes()) {
                stoppedBy = "max_result_bytes";
                break;
            }
            used += cost;
            rows.add(shown);
            body.append(line);
        }
        if (stoppedBy != null) {
            cuts.add(stoppedBy.equals("max_result_rows")
                    ? cut("rows", stoppedBy, bounds.maxRows(), "only the first " + rows.size() + " of "
                            + t.rowCount() + " rows are shown (the server's row limit per result)")
                    : cut("rows", stoppedBy, bounds.maxBytes(), "only the first " + rows.size() + " of "
                            + t.rowCount() + " rows are shown: more would exceed the server's " + bounds.maxBytes()
                            + "-byte limit per result"));
        }
        if (cellsCut) {
            cuts.add(cut("cells", "max_cell_chars", bounds.maxCellChars(), "values longer than "
                    + bounds.maxCellChars() + " characters are cut and end with …"));
        }
        s.put("columns", names);
        s.put("rows", rows);
        s.put("row_count", rows.size());
        s.put("rows_returned", t.rowCount());
        s.put("truncated", !cuts.isEmpty());
        s.put("truncation", cuts);
        s.put("row_cap", rowCap);
        s.put("row_cap_reached", capReached);
        text.append(head).append(body);
        text.append('\n').append(rows.size()).append(rows.size() == 1 ? " row" : " rows");
        if (rows.size() < t.rowCount()) {
            text.append(" shown of ").append(t.rowCount()).append(" returned");
        }
        if (capReached) {
            text.append(": the row cap of ").append(rowCap).append(" was reached, so more rows may exist; aggregate ")
                    .append("or narrow the query to see the rest.\n");
        } else {
            text.append(" (row cap ").append(rowCap).append(").\n");
        }
        for (Map<String, Object> c : cuts) {
            if (!"row_cap".equals(c.get("why"))) {
                text.append("Truncated: ").append(c.get("message")).append(".\n");
            }
        }
    }

    private static Map<String, Object> cut(String what, String why, int limit, String message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("what", what);
        m.put("why", why);
        m.put("limit", limit);
        m.put("message", message);
        return m;
    }

    private static long bytes(CharSequence c) {
        return c.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    private static String json(McpJsonMapper json, Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (IOException e) {
            return String.valueOf(value);
        }
    }

    private static String cell(String v) {
        return v.replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ');
    }

    /**
     * The limits of one result, the same in the text and in the structured content.
     *
     * @param maxRows rows per result
     * @param maxCellChars characters per value
     * @param maxBytes bytes of text and structured content together
     */
    record Bounds(int maxRows, int maxCellChars, int maxBytes) {
        String cut(String v) {
            return v.length() > maxCellChars ? v.substring(0, maxCellChars) + "…" : v;
        }
    }
}
