package dev.sqlagent.testing;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Reads the model predictions of {@code spider-dev/predictions/*.jsonl}. */
public final class SpiderPredictions {

    private static final JsonFactory JSON = new JsonFactory();

    private SpiderPredictions() {
    }

    /**
     * One predicted SQL.
     *
     * @param model the file it came from, without {@code .jsonl} (e.g. {@code gpt4-few-shot})
     * @param id the question's index in Spider's dev set
     * @param dbId the database
     * @param sql the predicted SQL
     */
    public record Prediction(String model, int id, String dbId, String sql) {
    }

    /** @return the model names, i.e. the prediction files without extension, sorted */
    public static List<String> models() {
        try (Stream<Path> files = Files.list(SharedData.spiderDir().resolve("predictions"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jsonl"))
                    .map(n -> n.substring(0, n.length() - ".jsonl".length())).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param model a model name from {@link #models()}
     * @return its predictions in file order
     */
    public static List<Prediction> of(String model) {
        Path file = SharedData.spiderDir().resolve("predictions").resolve(model + ".jsonl");
        List<Prediction> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.isBlank()) {
                    Map<String, String> f = fields(line);
                    out.add(new Prediction(model, Integer.parseInt(f.get("id")), f.get("db_id"), f.get("predicted_sql")));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
        return out;
    }

    /** @return the predictions of every model, model by model */
    public static List<Prediction> all() {
        List<Prediction> out = new ArrayList<>();
        for (String m : models()) {
            out.addAll(of(m));
        }
        return out;
    }

    private static Map<String, String> fields(String line) throws IOException {
        Map<String, String> f = new HashMap<>();
        try (JsonParser p = JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object: " + line);
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if (t.isStructStart()) {
                    p.skipChildren();
                } else {
                    f.put(name, t == JsonToken.VALUE_NULL ? null : p.getText());
                }
            }
        }
        return f;
    }
}
