package dev.sqlagent.schema;

import dev.sqlagent.internal.JsonTree;
import dev.sqlagent.testing.SharedData;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Finds and reads the shared Spider dev data (questions, gold SQL, tables.json) for tests. */
final class SpiderData {

    private static final JsonFactory JSON = new JsonFactory();

    private SpiderData() {
    }

    /**
     * The Spider dev folder: {@code sqlagent.projectRoot}/../shared/data/spider-dev, else the first
     * {@code shared/data/spider-dev} found walking up from the working directory.
     *
     * @return the folder, if present
     */
    static Optional<Path> directory() {
        try {
            return Optional.of(SharedData.spiderDir());
        } catch (IllegalStateException absent) {
            return Optional.empty();
        }
    }

    /** A question with its gold SQL. */
    record Question(int id, String dbId, String question, String goldSql) {
    }

    static List<Question> questions(Path dir) throws IOException {
        List<Question> out = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("dev.jsonl"), StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> m = (Map<String, Object>) parse(line);
            out.add(new Question(((Number) m.get("id")).intValue(), (String) m.get("db_id"), (String) m.get("question"),
                    (String) m.get("gold_sql")));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> tablesJson(Path dir) throws IOException {
        return (List<Map<String, Object>>) parse(Files.readString(dir.resolve("tables.json"), StandardCharsets.UTF_8));
    }

    static Object parse(String json) throws IOException {
        try (JsonParser p = JSON.createParser(json)) {
            p.nextToken();
            return JsonTree.readValue(p, JsonTree.MAX_DEPTH);
        }
    }
}
