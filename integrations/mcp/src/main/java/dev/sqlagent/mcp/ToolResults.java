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

    /** Longest cell shown in the text table; the structured content has the whole value. */
    static final int MAX_CELL = 200;

    private ToolResults() {
    }

    /**
     * The result of the {@code query} tool.
     *
     * @param r the agent's result for the caller's SQL
     * @param rowCap the client's row cap
     * @return the tool result
     */
    static CallToolResult query(AgentResult r, int rowCap) {
        Map<String, Object> s = common(r);
        StringBuilder text = new StringBuilder();
        switch (r.status()) {
            case ANSWERED -> {
                AgentResult.Answered a = (AgentResult.Answered) r;
                table(s, text, a.table(), rowCap);
                s.put("executed_sql", a.executedSql());
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
    static CallToolResult ask(AgentResult r, int rowCap, McpJsonMapper json) {
        Map<String, Object> s = common(r);
        StringBuilder text = new StringBuilder();
        if (r instanceof AgentResult.Answered a) {
            text.append("Question: ").append(a.question()).append("\n\n");
            table(s, text, a.table(), rowCap);
            text.append("\nSQL that ran:\n```sql\n").append(a.executedSql()).append("\n```\n");
            s.put("sql", a.sqlText());
            s.put("executed_sql", a.executedSql());
            s.put("corrected", a.corrected());
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
     * The guard's violations when the caller's SQL named only tables the database lacks (the run then fails
     * as "table not found" without running anything), else empty.
     */
    private static List<Violation> unknownTables(AgentResult.Failed f) {
        if (f.errorCategory().orElse(null) != ErrorCategory.TABLE_NOT_FOUND || !f.trace().executions().isEmpty()) {
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
            m.put("type", v.type().name());
            m.put("fragment", v.fragment());
            m.put("message", message(v));
            vs.add(m);
            text.append("- ").append(v.type()).append(": ").append(message(v)).append('\n');
        }
        s.put("violations", vs);
    }

    /** A table outside the policy is named the same way whether the database has it or not. */
    private static String message(Violation v) {
        return v.type() == ViolationType.TABLE_NOT_ALLOWED
                ? "table is not allowed or does not exist: " + v.fragment() : v.message();
    }

    private static void failure(Map<String, Object> s, StringBuilder text, AgentResult.Failed f) {
        s.put("failure_kind", f.kind().name());
        s.put("error_category", f.errorCategory().map(Enum::name).orElse(null));
        s.put("message", f.message());
        text.append("Failed (").append(f.kind()).append(f.errorCategory().map(c -> ", " + c).orElse(""))
                .append("): ").append(f.message()).append('\n');
    }

    private static void table(Map<String, Object> s, StringBuilder text, ResultTable t, int rowCap) {
        List<String> names = new ArrayList<>();
        for (ResultColumn c : t.columns()) {
            names.add(c.name());
        }
        s.put("columns", names);
        s.put("rows", t.rows());
        s.put("row_count", t.rowCount());
        // the guard caps the statement at the row cap, so a result that reaches it may have been cut
        boolean capReached = t.truncated() || t.rowCount() >= rowCap;
        s.put("truncated", t.truncated());
        s.put("row_cap", rowCap);
        s.put("row_cap_reached", capReached);
        if (!names.isEmpty()) {
            text.append('|');
            for (String n : names) {
                text.append(' ').append(cell(n)).append(" |");
            }
            text.append("\n|");
            for (int i = 0; i < names.size(); i++) {
                text.append(" --- |");
            }
            text.append('\n');
            for (List<Object> row : t.rows()) {
                text.append('|');
                for (Object v : row) {
                    text.append(' ').append(v == null ? "NULL" : cell(String.valueOf(v))).append(" |");
                }
                text.append('\n');
            }
        }
        text.append('\n').append(t.rowCount()).append(t.rowCount() == 1 ? " row" : " rows");
        if (capReached) {
            text.append(": the row cap of ").append(rowCap).append(" was reached, so more rows may exist; aggregate ")
                    .append("or narrow the query to see the rest.\n");
        } else {
            text.append(" (row cap ").append(rowCap).append(").\n");
        }
    }

    private static String cell(String v) {
        String c = v.replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ');
        return c.length() > MAX_CELL ? c.substring(0, MAX_CELL) + "…" : c;
    }
}
