package dev.sqlagent.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sqlagent.Dialect;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.llm.ChatMessage;
import dev.sqlagent.verify.JudgeVerdict;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The judge's prompt and the lenient reading of its JSON verdict. */
public final class JudgeReply {

    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
            .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_TRAILING_COMMA)
            .build();
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
     * @return the verdict, empty when the reply holds no readable verdict
     */
    public static Optional<JudgeVerdict> parse(String reply) {
        if (reply == null) {
            return Optional.empty();
        }
        for (int from = reply.indexOf('{'); from >= 0; from = reply.indexOf('{', from + 1)) {
            Optional<JudgeVerdict> v = parseAt(reply.substring(from));
            if (v.isPresent()) {
                return v;
            }
        }
        return Optional.empty();
    }

    private static Optional<JudgeVerdict> parseAt(String text) {
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            Boolean correct = null;
            int score = -1;
            List<JudgeVerdict.Tag> tags = new ArrayList<>();
            String repair = "";
            String comment = "";
            String advice = "";
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName().toLowerCase(Locale.ROOT);
                JsonToken t = p.nextToken();
                switch (name) {
                    case "is_correct":
                        correct = t == JsonToken.VALUE_TRUE || (t == JsonToken.VALUE_STRING
                                && p.getText().trim().equalsIgnoreCase("true"));
                        break;
                    case "score":
                        if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
                            score = (int) Math.round(p.getDoubleValue());
                        } else if (t == JsonToken.VALUE_STRING) {
                            try {
                                score = (int) Math.round(Double.parseDouble(p.getText().trim()));
                            } catch (NumberFormatException e) {
                                score = -1;
                            }
                        }
                        break;
                    case "error_tags":
                        if (t == JsonToken.START_ARRAY) {
                            while (p.nextToken() != JsonToken.END_ARRAY) {
                                if (p.currentToken() == JsonToken.VALUE_STRING) {
                                    tags.add(JudgeVerdict.Tag.parse(p.getText()));
                                } else {
                                    p.skipChildren();
                                }
                            }
                        } else {
                            p.skipChildren();
                        }
                        break;
                    case "repair_task":
                        repair = text(p, t);
                        break;
                    case "comment":
                        comment = text(p, t);
                        break;
                    case "advice":
                        advice = text(p, t);
                        break;
                    default:
                        p.skipChildren();
                }
            }
            if (correct == null) {
                return Optional.empty();
            }
            int s = score < 0 ? (correct ? 80 : 20) : Math.max(0, Math.min(100, score));
            return Optional.of(new JudgeVerdict(correct, s, tags, repair, comment, advice));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static String text(JsonParser p, JsonToken t) throws IOException {
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            p.skipChildren();
            return "";
        }
        return t == JsonToken.VALUE_NULL ? "" : p.getText();
    }
}
