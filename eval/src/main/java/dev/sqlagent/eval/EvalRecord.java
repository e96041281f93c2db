package dev.sqlagent.eval;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The outcome of one evaluated question: one line of the results file. Written once per question and
 * never rewritten; on resume the file is read back into these.
 *
 * @param id the question's id
 * @param dbId its database
 * @param question the question
 * @param table its table, or empty
 * @param category its category, or empty
 * @param status {@code ANSWERED}, {@code REJECTED}, {@code FAILED}, or {@code ERROR} when the agent could
 *     not be built or threw
 * @param failureKind the {@link dev.sqlagent.FailureKind} name of a failed question, else empty
 * @param errorCategory the {@link dev.sqlagent.execution.ErrorCategory} name behind a failure, else empty
 * @param message the final error or the rejection's violations, else empty
 * @param sql the SQL answered, rejected or last failing, or empty
 * @param goldSql the gold SQL, or empty
 * @param goldOrdered whether row order was compared
 * @param goldError why the gold SQL did not run, else empty
 * @param correct whether the answer matches the gold result; null when there is no gold SQL
 * @param corrected whether the single correction was made
 * @param modelCalls model calls made
 * @param inputTokens prompt tokens
 * @param outputTokens reply tokens
 * @param executions SQL executions
 * @param chosenRule what chose the answer among the candidates ({@code majority}, {@code order}, …), or
 *     empty when nothing was chosen
 * @param elapsedMillis wall time of the question, gold included
 * @param correctPositional whether the answer matches the gold result with columns compared in place
 * @param correctionCategory what the single correction corrected ({@code COLUMN_NOT_FOUND},
 *     {@code FUNCTION_NOT_FOUND}, {@code TYPE_MISMATCH}, {@code RESULT_ANOMALY}, …), or empty when none was made
 *     ({@link GoldComparison#matchesPositional}); null when there is no gold SQL or it was not measured
 *     (a results file written before the field existed)
 */
public record EvalRecord(String id, String dbId, String question, String table, String category, String status,
        String failureKind, String errorCategory, String message, String sql, String goldSql, boolean goldOrdered,
        String goldError, Boolean correct, boolean corrected, int modelCalls, long inputTokens, long outputTokens,
        int executions, String chosenRule, long elapsedMillis, Boolean correctPositional, String correctionCategory) {

    /**
     * A record without the positional comparison (as written before it was measured).
     *
     * @param id the question's id
     * @param dbId its database
     * @param question the question
     * @param table its table, or empty
     * @param category its category, or empty
     * @param status the status
     * @param failureKind the failure kind, or empty
     * @param errorCategory the error category, or empty
     * @param message the final error, or empty
     * @param sql the SQL, or empty
     * @param goldSql the gold SQL, or empty
     * @param goldOrdered whether row order was compared
     * @param goldError why the gold SQL did not run, else empty
     * @param correct whether the answer matches the gold result
     * @param corrected whether the single correction was made
     * @param modelCalls model calls made
     * @param inputTokens prompt tokens
     * @param outputTokens reply tokens
     * @param executions SQL executions
     * @param chosenRule what chose the answer, or empty
     * @param elapsedMillis wall time of the question
     */
    public EvalRecord(String id, String dbId, String question, String table, String category, String status,
            String failureKind, String errorCategory, String message, String sql, String goldSql, boolean goldOrdered,
            String goldError, Boolean correct, boolean corrected, int modelCalls, long inputTokens, long outputTokens,
            int executions, String chosenRule, long elapsedMillis) {
        this(id, dbId, question, table, category, status, failureKind, errorCategory, message, sql, goldSql,
                goldOrdered, goldError, correct, corrected, modelCalls, inputTokens, outputTokens, executions,
                chosenRule, elapsedMillis, null, "");
    }

    /**
     * A record without the correction's category (as written before it was recorded).
     *
     * @param id the question's id
     * @param dbId its database
     * @param question the question
     * @param table its table, or empty
     * @param category its category, or empty
     * @param status the status
     * @param failureKind the failure kind, or empty
     * @param errorCategory the error category, or empty
     * @param message the final error, or empty
     * @param sql the SQL, or empty
     * @param goldSql the gold SQL, or empty
     * @param goldOrdered whether row order was compared
     * @param goldError why the gold SQL did not run, else empty
     * @param correct whether the answer matches the gold result
     * @param corrected whether the single correction was made
     * @param modelCalls model calls made
     * @param inputTokens prompt tokens
     * @param outputTokens reply tokens
     * @param executions SQL executions
     * @param chosenRule what chose the answer, or empty
     * @param elapsedMillis wall time of the question
     * @param correctPositional whether the answer matches column for column, or null
     */
    public EvalRecord(String id, String dbId, String question, String table, String category, String status,
            String failureKind, String errorCategory, String message, String sql, String goldSql, boolean goldOrdered,
            String goldError, Boolean correct, boolean corrected, int modelCalls, long inputTokens, long outputTokens,
            int executions, String chosenRule, long elapsedMillis, Boolean correctPositional) {
        this(id, dbId, question, table, category, status, failureKind, errorCategory, message, sql, goldSql,
                goldOrdered, goldError, correct, corrected, modelCalls, inputTokens, outputTokens, executions,
                chosenRule, elapsedMillis, correctPositional, "");
    }

    /**
     * Checks the text parts: none may be null (empty stands for "none").
     *
     * @param id the question's id
     * @param dbId its database
     * @param question the question
     * @param table its table, or empty
     * @param category its category, or empty
     * @param status {@code ANSWERED}, {@code REJECTED}, {@code FAILED} or {@code ERROR}
     * @param failureKind the failure kind of a failed question, or empty
     * @param errorCategory the error category behind a failure, or empty
     * @param message the final error or the rejection's violations, or empty
     * @param sql the SQL answered, rejected or last failing, or empty
     * @param goldSql the gold SQL, or empty
     * @param goldOrdered whether row order was compared
     * @param goldError why the gold SQL did not run, or empty
     * @param correct whether the answer matches the gold result; null when there is no gold SQL
     * @param corrected whether the single correction was made
     * @param modelCalls model calls made
     * @param inputTokens prompt tokens
     * @param outputTokens reply tokens
     * @param executions SQL executions
     * @param chosenRule what chose the answer among the candidates, or empty
     * @param elapsedMillis wall time of the question in milliseconds, gold included
     * @param correctPositional whether the answer matches the gold result with columns compared in
     *     place; null when there is no gold SQL or it was not measured
     * @param correctionCategory what the single correction corrected, or empty
     * @throws NullPointerException if a text part is null
     */
    public EvalRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(dbId, "dbId");
        Objects.requireNonNull(question, "question");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(failureKind, "failureKind");
        Objects.requireNonNull(errorCategory, "errorCategory");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(goldSql, "goldSql");
        Objects.requireNonNull(goldError, "goldError");
        Objects.requireNonNull(chosenRule, "chosenRule");
        Objects.requireNonNull(correctionCategory, "correctionCategory");
    }

    /** {@return whether the question was answered} */
    public boolean answered() {
        return "ANSWERED".equals(status);
    }

    /** {@return whether the answer matches the gold result (false when there is no gold)} */
    public boolean isCorrect() {
        return Boolean.TRUE.equals(correct);
    }

    /** {@return whether the answer matches the gold result column for column (false when unknown)} */
    public boolean isCorrectPositional() {
        return Boolean.TRUE.equals(correctPositional);
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("db_id", dbId);
        m.put("question", question);
        m.put("table", table);
        m.put("category", category);
        m.put("status", status);
        m.put("failure_kind", failureKind);
        m.put("error_category", errorCategory);
        m.put("message", message);
        m.put("sql", sql);
        m.put("gold_sql", goldSql);
        m.put("gold_ordered", goldOrdered);
        m.put("gold_error", goldError);
        m.put("correct", correct);
        m.put("corrected", corrected);
        m.put("model_calls", (long) modelCalls);
        m.put("input_tokens", inputTokens);
        m.put("output_tokens", outputTokens);
        m.put("executions", (long) executions);
        m.put("chosen_rule", chosenRule);
        m.put("elapsed_ms", elapsedMillis);
        m.put("correct_positional", correctPositional);
        m.put("correction_category", correctionCategory);
        return m;
    }

    static EvalRecord fromMap(Map<String, Object> m) {
        Object c = m.get("correct");
        return new EvalRecord(req(m, "id"), Json.text(m.get("db_id")), Json.text(m.get("question")),
                Json.text(m.get("table")), Json.text(m.get("category")), req(m, "status"),
                Json.text(m.get("failure_kind")), Json.text(m.get("error_category")), Json.text(m.get("message")),
                Json.text(m.get("sql")), Json.text(m.get("gold_sql")), Boolean.TRUE.equals(m.get("gold_ordered")),
                Json.text(m.get("gold_error")), c instanceof Boolean ? (Boolean) c : null,
                Boolean.TRUE.equals(m.get("corrected")), (int) num(m, "model_calls"), num(m, "input_tokens"),
                num(m, "output_tokens"), (int) num(m, "executions"), Json.text(m.get("chosen_rule")),
                num(m, "elapsed_ms"), m.get("correct_positional") instanceof Boolean
                        ? (Boolean) m.get("correct_positional") : null, Json.text(m.get("correction_category")));
    }

    private static String req(Map<String, Object> m, String key) {
        Object v = m.get(key);
        if (v == null || Json.text(v).isBlank()) {
            throw new IllegalArgumentException("field '" + key + "' is missing");
        }
        return Json.text(v);
    }

    private static long num(Map<String, Object> m, String key) {
        Object v = m.get(key);
        return v instanceof Number ? ((Number) v).longValue() : 0;
    }
}
