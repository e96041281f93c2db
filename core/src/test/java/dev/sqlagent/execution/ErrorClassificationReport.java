package dev.sqlagent.execution;

import dev.sqlagent.Dialect;
import dev.sqlagent.testing.DatabaseServer;
import dev.sqlagent.testing.SharedData;
import dev.sqlagent.testing.SpiderPredictions;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Builds the confusion tables of {@code docs/error-classification.md} from replays of the Spider
 * predictions. {@link ErrorClassificationReportTest} runs it on SQLite and PostgreSQL and writes the file.
 */
final class ErrorClassificationReport {

    static final String COMMAND = "mvn -B -q -pl core -am test -Dtest=ErrorClassificationReportTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dsqlagent.report=docs/error-classification.md";

    private ErrorClassificationReport() {
    }

    static PredictionReplay.Result sqlite(TrueCauseOracle oracle) {
        return PredictionReplay.replay("SQLite", Dialect.SQLITE, SharedData::sqlite, oracle);
    }

    static PredictionReplay.Result postgres(TrueCauseOracle oracle) {
        DatabaseServer pg = DatabaseServer.postgres().require();
        pg.load(SharedData.spiderDbIds().toArray(new String[0]));
        return PredictionReplay.replay("PostgreSQL", Dialect.POSTGRESQL, pg::spider, oracle);
    }

    static Map<ErrorCategory, Integer> byCategory(PredictionReplay.Result r) {
        Map<ErrorCategory, Integer> counts = new EnumMap<>(ErrorCategory.class);
        for (PredictionReplay.Failure f : r.failures()) {
            counts.merge(f.error().category(), 1, Integer::sum);
        }
        return counts;
    }

    static String markdown(List<PredictionReplay.Result> results) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Error classification on real model SQL\n\n");
        sb.append("Every prediction of the three files in `spider-dev/predictions` (")
                .append(String.join(", ", SpiderPredictions.models()))
                .append(") was run through `JdbcSqlExecutor` on each engine; the tables count those that failed, by the\n"
                        + "category `ErrorClassifier` gave them. Regenerate with\n\n```\n")
                .append(COMMAND).append("\n```\n\n(PostgreSQL must be running; see `scripts/start-servers.sh`.)\n\n");

        sb.append("## Headline\n\n| engine | predictions run | failed | correctable | environmental | UNKNOWN |\n"
                + "|---|---:|---:|---:|---:|---:|\n");
        for (PredictionReplay.Result r : results) {
            int correctable = 0;
            int environmental = 0;
            int unknown = 0;
            for (PredictionReplay.Failure f : r.failures()) {
                ErrorCategory c = f.error().category();
                correctable += c.correctable() ? 1 : 0;
                environmental += c.environmental() ? 1 : 0;
                unknown += c == ErrorCategory.UNKNOWN ? 1 : 0;
            }
            sb.append("| ").append(r.engine()).append(" | ").append(r.executed()).append(" | ")
                    .append(r.failures().size()).append(" | ").append(correctable).append(" | ").append(environmental)
                    .append(" | ").append(unknown).append(" |\n");
        }

        sb.append("\n## Predicted category × engine\n\n| category |");
        for (PredictionReplay.Result r : results) {
            sb.append(' ').append(r.engine()).append(" |");
        }
        sb.append("\n|---|");
        results.forEach(r -> sb.append("---:|"));
        sb.append('\n');
        List<Map<ErrorCategory, Integer>> counts = new ArrayList<>();
        results.forEach(r -> counts.add(byCategory(r)));
        for (ErrorCategory c : ErrorCategory.values()) {
            sb.append("| ").append(c).append(" |");
            for (Map<ErrorCategory, Integer> m : counts) {
                sb.append(' ').append(m.getOrDefault(c, 0)).append(" |");
            }
            sb.append('\n');
        }

        sb.append("\n## True cause × predicted category\n\n"
                + "The true cause is read from the schema, not from any error message (`TrueCauseOracle`): a `FROM`/`JOIN`\n"
                + "name that is no table of the database, or an `alias.column` that the aliased table lacks. Other\n"
                + "failures (misused aggregates, dialect differences such as `text = integer`) are not determinable\n"
                + "this way and are counted as such.\n");
        for (PredictionReplay.Result r : results) {
            Map<String, Map<ErrorCategory, Integer>> matrix = new TreeMap<>();
            int agree = 0;
            int determined = 0;
            for (PredictionReplay.Failure f : r.failures()) {
                Optional<ErrorCategory> t = f.trueCause();
                String row = t.map(Enum::name).orElse("(not determinable)");
                matrix.computeIfAbsent(row, k -> new EnumMap<>(ErrorCategory.class))
                        .merge(f.error().category(), 1, Integer::sum);
                if (t.isPresent()) {
                    determined++;
                    agree += t.get() == f.error().category() ? 1 : 0;
                }
            }
            List<ErrorCategory> cols = new ArrayList<>();
            for (ErrorCategory c : ErrorCategory.values()) {
                if (matrix.values().stream().anyMatch(m -> m.containsKey(c))) {
                    cols.add(c);
                }
            }
            sb.append("\n### ").append(r.engine()).append(": ").append(agree).append(" of ").append(determined)
                    .append(" determinable failures classified as their true cause\n\n| true \\ predicted |");
            cols.forEach(c -> sb.append(' ').append(c).append(" |"));
            sb.append("\n|---|");
            cols.forEach(c -> sb.append("---:|"));
            sb.append('\n');
            for (Map.Entry<String, Map<ErrorCategory, Integer>> e : matrix.entrySet()) {
                sb.append("| ").append(e.getKey()).append(" |");
                cols.forEach(c -> sb.append(' ').append(e.getValue().getOrDefault(c, 0)).append(" |"));
                sb.append('\n');
            }
        }

        sb.append("\n## What fell to UNKNOWN\n\n");
        for (PredictionReplay.Result r : results) {
            Map<String, Integer> messages = new LinkedHashMap<>();
            for (PredictionReplay.Failure f : r.failures()) {
                if (f.error().category() == ErrorCategory.UNKNOWN) {
                    String m = f.error().message().replaceAll("\\s+", " ");
                    messages.merge("`" + f.error().sqlState() + "` / " + f.error().vendorCode() + ": "
                            + (m.length() > 110 ? m.substring(0, 110) + "…" : m), 1, Integer::sum);
                }
            }
            sb.append("- ").append(r.engine()).append(": ").append(messages.values().stream().mapToInt(i -> i).sum())
                    .append(messages.isEmpty() ? "\n" : "\n");
            messages.forEach((m, n) -> sb.append("  - ").append(n).append(" × ").append(m).append('\n'));
        }
        return sb.toString();
    }
}
