package dev.sqlagent.internal;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.llm.ChatMessage;
import dev.sqlagent.verify.JudgeVerdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The judge's prompt and the lenient reading of its JSON verdict. */
public final class JudgeReply {

    private static final int ROWS_SHOWN = 5;

    private JudgeReply() {
    }

    /**
     * @param question the question
     * @param sql the SQL judged
     * @param table its result
     * @param schemaDdl the schema the SQL was written against
     * @param dialect the database's dialect
     * @return the judge's messages
     */
    public static List<ChatMessage> prompt(String question, String sql, ResultTable table, String schemaDdl,
            Dialect dialect) {
        StringBuilder summary = new StringBuilder("success, ").append(table.rowCount()).append(" row(s)")
                .append(table.truncated() ? " (truncated)" : "").append("; columns ")
                .append(table.columnNames()).append('\n');
        for (int i = 0; i < Math.min(ROWS_SHOWN, table.rowCount()); i++) {
            summary.append(table.rows().get(i)).append('\n');
        }
        String system = "You review SQL written for a " + Prompts.dialectName(dialect) + " database. Decide whether"
                + " the SQL answers the question exactly.\nReply with one JSON object: {\"is_correct\": true|false,"
                + " \"score\": 0-100, \"error_tags\": [zero or more of COLUMN_NAME_FIX, TABLE_NAME_FIX,"
                + " SYNTAX_FIX_KEYWORD_TYPO, FILTER_CONDITION_FIX, AGGREGATION_FIX, JOIN_FIX, OTHER],"
                + " \"repair_task\": \"...\", \"comment\": \"...\", \"advice\": \"...\"}\n\nSchema:\n" + schemaDdl;
        String user = "Question: " + question + "\nSQL:\n" + sql + "\nExecution: " + summary;
        return List.of(ChatMessage.system(system), ChatMessage.user(user));
    }

    /**
     * @param reply the judge's reply
     * @return the verdict, empty when the reply holds no readable verdict (no {@code is_correct})
     */
    public static Optional<JudgeVerdict> parse(String reply) {
        Optional<Map<String, Object>> object = LenientJson.firstObject(reply);
        if (object.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Object> o = object.get();
        String correctText = LenientJson.text(o.get("is_correct")).trim();
        if (!correctText.equalsIgnoreCase("true") && !correctText.equalsIgnoreCase("false")) {
            return Optional.empty();
        }
        boolean correct = correctText.equalsIgnoreCase("true");
        int score;
        try {
            score = (int) Math.round(Double.parseDouble(LenientJson.text(o.get("score")).trim()));
        } catch (NumberFormatException e) {
            score = correct ? 80 : 20;
        }
        List<JudgeVerdict.Tag> tags = new ArrayList<>();
        for (String t : LenientJson.strings(o.get("error_tags"))) {
            tags.add(JudgeVerdict.Tag.parse(t));
        }
        return Optional.of(new JudgeVerdict(correct, Math.max(0, Math.min(100, score)), tags,
                LenientJson.text(o.get("repair_task")), LenientJson.text(o.get("comment")),
                LenientJson.text(o.get("advice"))));
    }
}
