package dev.sqlagent.eval;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The SQL a model predicted for a question set: a JSONL file of {@code id}, {@code db_id} (optional) and
 * {@code predicted_sql} (or {@code sql}), one question a line. Immutable.
 */
public final class PredictionFile {

    /**
     * One prediction.
     *
     * @param dbId the database the prediction names, or empty
     * @param sql the predicted SQL, possibly blank
     */
    public record Prediction(String dbId, String sql) {
        /**
         * Checks the parts.
         *
         * @param dbId the database the prediction names, or empty; not null
         * @param sql the predicted SQL, possibly blank; not null
         * @throws NullPointerException if a part is null
         */
        public Prediction {
            Objects.requireNonNull(dbId, "dbId");
            Objects.requireNonNull(sql, "sql");
        }
    }

    private final String name;
    private final Map<String, Prediction> byId;

    private PredictionFile(String name, Map<String, Prediction> byId) {
        this.name = name;
        this.byId = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byId));
    }

    /**
     * Creates a prediction set from predictions already read, keyed by question id.
     *
     * @param name a name for reports, e.g. the file name without extension
     * @param byId predictions by question id
     * @return a prediction set
     */
    public static PredictionFile of(String name, Map<String, Prediction> byId) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(byId, "byId");
        return new PredictionFile(name, byId);
    }

    /**
     * Reads a JSONL prediction file; its name is the file name without {@code .jsonl}.
     *
     * @param file the file, UTF-8
     * @return its predictions
     * @throws EvalInputException naming file and line for malformed JSON, a missing id or SQL field, or a
     *     repeated id
     * @throws java.io.UncheckedIOException when the file cannot be read
     */
    public static PredictionFile load(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        Map<String, Prediction> byId = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            Map<String, Object> m;
            try {
                m = Json.parseObject(lines.get(i));
            } catch (IOException e) {
                throw new EvalInputException(file, i + 1, "not a JSON object: " + e.getMessage(), e);
            }
            String id = Json.text(m.get("id")).strip();
            if (id.isEmpty()) {
                throw new EvalInputException(file, i + 1, "field 'id' is missing", null);
            }
            Object sql = m.containsKey("predicted_sql") ? m.get("predicted_sql") : m.get("sql");
            if (sql == null && !m.containsKey("predicted_sql") && !m.containsKey("sql")) {
                throw new EvalInputException(file, i + 1, "field 'predicted_sql' is missing", null);
            }
            if (byId.put(id, new Prediction(Json.text(m.get("db_id")).strip(), Json.text(sql))) != null) {
                throw new EvalInputException(file, i + 1, "id '" + id + "' appears more than once", null);
            }
        }
        String fileName = file.getFileName().toString();
        String name = fileName.endsWith(".jsonl") ? fileName.substring(0, fileName.length() - 6) : fileName;
        return new PredictionFile(name, byId);
    }

    /** {@return the name used in reports} */
    public String name() {
        return name;
    }

    /**
     * Looks up the prediction for a question.
     *
     * @param id a question id
     * @return its prediction, or empty if the file has none for this id
     */
    public Optional<Prediction> get(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** {@return how many predictions the file holds} */
    public int size() {
        return byId.size();
    }
}
