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

        sb.append("\n### Disagreements with the schema\n\n");
        for (PredictionReplay.Result r : results) {
            for (PredictionReplay.Failure f : r.failures()) {
                if (f.trueCause().isPresent() && f.trueCause().get() != f.error().category()) {
                    sb.append("- ").append(r.engine()).append(", ").append(f.prediction().model()).append(" #")
                            .append(f.prediction().id()).append(": schema says ").append(f.trueCause().get())
                            .append(", engine said `").append(f.error().message().replaceAll("\\s+", " ")
                                    .replace("`", "'")).append("`\n    `").append(f.prediction().sql()
                                    .replace("`", "'")).append("`\n");
                }
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
        sb.append("\nWhy: a scalar subquery that returns several rows (PostgreSQL `21000`, H2 `90053`, MariaDB `1242`)\n"
                + "is the model's fault, but no `ErrorCategory` names it and stretching TYPE_MISMATCH to cover it would\n"
                + "blur that category, so it stays UNKNOWN and is not corrected. A CARDINALITY category (correctable)\n"
                + "would recover these; that is an API decision for the owners of `ErrorCategory`.\n");
        sb.append("\n## Notes\n\n"
                + "- PostgreSQL's `42883` covers both an unknown function and an operator applied to the wrong types;\n"
                + "  `operator does not exist: bigint = text` is TYPE_MISMATCH, `function avg(text) does not exist` stays\n"
                + "  FUNCTION_NOT_FOUND (\"a function that ... takes other arguments\"). Most PostgreSQL-only failures are\n"
                + "  of this dialect kind: SQLite compares text with numbers silently.\n"
                + "- The SQLite count differs from the README's 218: sqlite-jdbc bundles a newer SQLite than the one the\n"
                + "  README was counted with (Python's SQLite 3.40.1 also gives 218), and it accepts a few of those queries.\n"
                + "- Disagreements with the schema oracle are ordering, not misreadings: the query has a wrong\n"
                + "  `alias.column` and also a misused aggregate or a type clash, and the engine reported the other one first.\n"
                + "- On PostgreSQL a role without `USAGE` on a schema does not see it in its `search_path`, so an\n"
                + "  unqualified name fails as `42P01` (TABLE_NOT_FOUND), not as permission denied; qualified names give\n"
                + "  `42501`. Nothing in the error lets a classifier tell these apart.\n"
                + "- Environment errors are tested separately per engine (`*EngineTest`): a role without grant, a 1 s\n"
                + "  timeout on a slow query, an unreachable port and a killed session all come out environmental.\n");
        return sb.toString();
    }
}
