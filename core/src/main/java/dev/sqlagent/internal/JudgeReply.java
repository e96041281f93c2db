package dev.sqlagent.internal;

import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.verify.JudgeVerdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The judge's execution summary and the lenient reading of its JSON verdict. */
public final class JudgeReply {

    private static final int ROWS_SHOWN = 5;

    private JudgeReply() {
    }

    /**
     * @param table a result
     * @return the execution summary the judge sees: row count, columns, a few rows
     */
    public static String summary(ResultTable table) {
        StringBuilder summary = new StringBuilder("success, ").append(table.rowCount()).append(" row(s)")
                .append(table.truncated() ? " (truncated)" : "").append("; columns ")
                .append(table.columnNames()).append('\n');
        for (int i = 0; i < Math.min(ROWS_SHOWN, table.rowCount()); i++) {
            summary.append(table.rows().get(i)).append('\n');
        }
        return summary.toString();
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
