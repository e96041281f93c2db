package dev.sqlagent.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
        String root = System.getProperty("sqlagent.projectRoot");
        if (root != null && !root.isBlank()) {
            Path p = Path.of(root).resolve("../shared/data/spider-dev").normalize();
            if (Files.isDirectory(p)) {
                return Optional.of(p);
            }
        }
        for (Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path p = dir.resolve("shared/data/spider-dev");
            if (Files.isDirectory(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
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
            return value(p);
        }
    }

    private static Object value(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT: {
                Map<String, Object> m = new LinkedHashMap<>();
                while (p.nextToken() != JsonToken.END_OBJECT) {
                    String name = p.currentName();
                    p.nextToken();
                    m.put(name, value(p));
                }
                return m;
            }
            case START_ARRAY: {
                List<Object> l = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    l.add(value(p));
                }
                return l;
            }
            case VALUE_STRING:
                return p.getText();
            case VALUE_NUMBER_INT:
                return p.getLongValue();
            case VALUE_NUMBER_FLOAT:
                return p.getDoubleValue();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            default:
                return null;
        }
    }
}
