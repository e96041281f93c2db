package dev.sqlagent;

import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.guard.Violation;
import java.util.List;

/**
 * Writes an {@link AgentResult} as text for a language model to read, as a tool's reply: the answer's SQL
 * and rows as a Markdown table (at most a given number of rows), or why there is no answer, the refusal
 * telling the model not to obtain the data another way. The LangChain4j and Spring AI tools reply with it.
 */
public final class AnswerText {

    private AnswerText() {
    }

    /**
     * The result as text, without the hand-off.
     *
     * @param result the agent's result
     * @param maxRows the most rows written; the count of the others is said
     * @return the text
     * @throws NullPointerException if {@code result} is null
     */
    public static String of(AgentResult result, int maxRows) {
        return of(result, maxRows, false);
    }

    /**
     * The result as text, followed, when there is no answer, by the SQL that failed and the hand-off (what a
     * person needs to take the question over) when the agent made one.
     *
     * @param result the agent's result
     * @param maxRows the most rows written; the count of the others is said
     * @return the text
     * @throws NullPointerException if {@code result} is null
     */
    public static String withHandOff(AgentResult result, int maxRows) {
        return of(result, maxRows, true);
    }

    private static String of(AgentResult result, int maxRows, boolean handOff) {
        java.util.Objects.requireNonNull(result, "result");
        StringBuilder sb = new StringBuilder();
        switch (result.status()) {
            case ANSWERED:
                AgentResult.Answered a = (AgentResult.Answered) result;
                sb.append("Answer from the database to: ").append(a.question()).append('\n');
                sb.append("SQL: ").append(a.executedSql()).append('\n');
                table(sb, a.table(), maxRows);
                break;
            case REJECTED:
                AgentResult.Rejected r = (AgentResult.Rejected) result;
                sb.append("The database did not answer: the query was refused by the data access policy (");
                List<Violation> violations = r.violations();
                for (int i = 0; i < violations.size(); i++) {
                    sb.append(i == 0 ? "" : "; ").append(violations.get(i).message());
                }
                sb.append("). Do not try to obtain this data another way.");
                if (handOff) {
                    handOff(sb, result);
                }
                break;
            default:
                AgentResult.Failed f = (AgentResult.Failed) result;
                sb.append("The database could not answer (").append(f.kind()).append("): ").append(f.message());
                if (handOff) {
                    handOff(sb, result);
                }
        }
        return sb.toString();
    }

    private static void handOff(StringBuilder sb, AgentResult result) {
        result.sql().ifPresent(sql -> sb.append("\nSQL: ").append(sql));
        result.handOff().ifPresent(h -> sb.append("\nHand-off for a person (JSON): ").append(h.toJson()));
    }

    private static void table(StringBuilder sb, ResultTable t, int maxRows) {
        int shown = Math.min(maxRows, t.rowCount());
        sb.append("Rows: ").append(t.rowCount()).append(t.truncated() ? " (cut at the row cap; more exist)" : "")
                .append('\n');
        List<String> names = t.columnNames();
        sb.append('|');
        for (String n : names) {
            sb.append(' ').append(cell(n)).append(" |");
        }
        sb.append("\n|");
        for (int i = 0; i < names.size(); i++) {
            sb.append(" --- |");
        }
        sb.append('\n');
        for (int r = 0; r < shown; r++) {
            sb.append('|');
            for (Object v : t.rows().get(r)) {
                sb.append(' ').append(v == null ? "NULL" : cell(v.toString())).append(" |");
            }
            sb.append('\n');
        }
        if (shown < t.rowCount()) {
            sb.append("… ").append(t.rowCount() - shown).append(" more rows not shown\n");
        }
    }

    /** A value as one Markdown table cell: backslashes first, so that an escaped pipe cannot be undone by the value. */
    private static String cell(String s) {
        return s.replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ');
    }
}
