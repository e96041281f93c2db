package dev.sqlagent.eval;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Three prediction files for {@link SqliteFixture#questions()}: right, wrong and failing SQL mixed. */
final class Replays {

    private Replays() {
    }

    static List<PredictionFile> files() {
        String[][] sql = {
            {"SELECT count(*) FROM singer", "SELECT count(*) FROM singer", "SELECT count(*) FROM singers"},
            {"SELECT name FROM singer WHERE country = 'Spain'", "SELECT name FROM singer WHERE country = 'France'",
                "SELECT name FROM singer WHERE country = 'France'"},
            {"SELECT name FROM singer ORDER BY age", "SELECT name FROM singer ORDER BY age",
                "SELECT name FROM singer ORDER BY age ASC"},
            {"SELECT avg(agee) FROM singer", "SELECT avg(years) FROM singer", "SELECT avg(birth) FROM singer"},
            {"SELECT name FROM singer WHERE age > 50", "SELECT name FROM singer WHERE age > 40",
                "SELECT name FROM singer WHERE age >= 30"},
            {"SELECT count(*) FROM animal", "SELECT count(id) FROM animal", "SELECT count(*) FROM animal"},
            {"SELECT name FROM animal WHERE legs = 2", "SELECT name FROM animal WHERE legs = 6",
                "SELECT name FROM animal WHERE legs = 4"},
            {"SELECT max(legs) FROM animal", "SELECT max(legs) FROM animal", "SELECT max(legs) FROM animal"},
            {"SELECT * FROM animal", "SELECT id, name, legs FROM animal", "SELECT * FROM animal"},
            {"SELECT name FROM animal ORDER BY name", "SELECT name FROM animal ORDER BY name",
                "SELECT name FROM animal ORDER BY 1"},
        };
        List<PredictionFile> files = new java.util.ArrayList<>();
        for (int f = 0; f < 3; f++) {
            Map<String, PredictionFile.Prediction> byId = new LinkedHashMap<>();
            for (int q = 0; q < sql.length; q++) {
                byId.put("q" + q, new PredictionFile.Prediction(q < 5 ? "music" : "zoo", sql[q][f]));
            }
            files.add(PredictionFile.of("file" + (char) ('a' + f), byId));
        }
        return files;
    }
}
