package dev.sqlagent.examples.cli;

import dev.sqlagent.choose.CandidateChooser;
import dev.sqlagent.choose.ChooserWeights;
import dev.sqlagent.eval.ChoiceReplay;
import dev.sqlagent.eval.EvalQuestion;
import dev.sqlagent.eval.EvalQuestions;
import dev.sqlagent.eval.PredictionFile;
import dev.sqlagent.execution.JdbcSqlExecutor;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.verify.Verifiers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * Not a test: the weight search of the chooser, run by hand (see docs/evaluation.md). Loads the
 * predictions once, then scores a grid of weights on the even half of the databases and prints the best
 * ones with their figures on both halves.
 * Arguments: questions.jsonl sqlite-dir prediction files...
 */
public final class ChooserSweep {

    private ChooserSweep() {
    }

    public static void main(String[] args) throws Exception {
        List<EvalQuestion> questions = EvalQuestions.load(Path.of(args[0]));
        Path dir = Path.of(args[1]);
        List<PredictionFile> files = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            files.add(PredictionFile.load(Path.of(args[i])));
        }
        List<ChoiceReplay.Item> items = ChoiceReplay.load(questions, files,
                db -> JdbcSqlExecutor.builder(ds(dir, db)).maxRows(100_000).build(), db -> {
                    try {
                        return SchemaCatalog.introspect(ds(dir, db), GuardPolicy.builder().allowSelectStar(true)
                                .allowTables(tables(ds(dir, db))).build());
                    } catch (java.sql.SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }, Boolean.getBoolean("verifiers") ? Verifiers.standard() : List.of());
        List<String> ids = new ArrayList<>();
        questions.forEach(q -> ids.add(q.dbId()));
        Predicate<String> even = ChoiceReplay.evenHalf(ids);
        String only = System.getProperty("weights");
        if (only != null) {
            String[] w = only.split(",");
            ChooserWeights cw = new ChooserWeights(d(w[0]), d(w[1]), d(w[2]), d(w[3]), d(w[4]), d(w[5]), d(w[6]), d(w[7]));
            report(items, cw, even);
            return;
        }
        // the raw signal values do not depend on the weights: compute them once, then score any weights
        // as a weighted sum (exactly what CandidateChooser does)
        List<List<CandidateChooser.GroupScore>> cached = new ArrayList<>();
        List<ChoiceReplay.Item> fitItems = new ArrayList<>();
        for (ChoiceReplay.Item it : items) {
            if (!even.test(it.question().dbId()) || it.candidates().isEmpty()) {
                continue;
            }
            fitItems.add(it);
            cached.add(CandidateChooser.standard().choose(it.question().question(), it.catalog(), it.candidates()).groups());
        }
        double[][] grid = {{0, 0.25, 0.5, 0.75}, {0, 0.15, 0.3, 0.5}, {0, 0.2, 0.4, 0.6}, {0, 0.2, 0.4, 0.6},
            {0, 0.5, 1.0, 1.5}, {0, 0.3, 0.6}};
        String[] names = {"near", "shape", "columns", "link", "degenerate", "findings"};
        int dims = grid.length;
        int[] size = new int[dims];
        int total = 1;
        for (int d = 0; d < dims; d++) {
            size[d] = grid[d].length;
            total *= size[d];
        }
        double[] acc = new double[total];
        for (int cell = 0; cell < total; cell++) {
            double[] w = weightsOf(cell, grid, size);
            long right = 0;
            for (int q = 0; q < cached.size(); q++) {
                List<CandidateChooser.GroupScore> gs = cached.get(q);
                CandidateChooser.GroupScore best = null;
                double bestScore = Double.NEGATIVE_INFINITY;
                for (CandidateChooser.GroupScore g : gs) {
                    Map<String, Double> v = g.values();
                    double sc = v.get("vote") + w[0] * v.get("near") + w[1] * v.get("shape") + w[2] * v.get("columns")
                            + w[3] * v.get("link") - w[4] * v.get("degenerate") - w[5] * v.get("findings")
                            - 0.1 * v.get("flags");
                    sc = Math.round(sc * 1e9) / 1e9;
                    if (sc > bestScore || (sc == bestScore && g.members().get(0) < best.members().get(0))) {
                        bestScore = sc;
                        best = g;
                    }
                }
                ChoiceReplay.Item it = fitItems.get(q);
                right += (it.right()[best.preferred()] ? 1 : 0) + (it.rightPositional()[best.preferred()] ? 1 : 0);
            }
            acc[cell] = right;
        }
        // the rule: the best mean over a cell and its neighbours (one step in one weight), so that a lucky
        // isolated cell does not win
        int bestCell = 0;
        double bestSmooth = -1;
        for (int cell = 0; cell < total; cell++) {
            double sum = acc[cell];
            int n = 1;
            int rest = cell;
            int stride = 1;
            for (int d = 0; d < dims; d++) {
                int i = rest % size[d];
                rest /= size[d];
                if (i > 0) {
                    sum += acc[cell - stride];
                    n++;
                }
                if (i < size[d] - 1) {
                    sum += acc[cell + stride];
                    n++;
                }
                stride *= size[d];
            }
            double smooth = sum / n;
            if (smooth > bestSmooth) {
                bestSmooth = smooth;
                bestCell = cell;
            }
        }
        double[] b = weightsOf(bestCell, grid, size);
        System.out.printf("cells %d, fit questions %d, best raw %.0f, chosen cell raw %.0f smoothed %.2f%n", total,
                cached.size(), java.util.Arrays.stream(acc).max().orElse(0), acc[bestCell], bestSmooth);
        for (int d = 0; d < dims; d++) {
            System.out.println("  " + names[d] + " = " + b[d]);
        }
        report(items, new ChooserWeights(1, b[0], b[1], b[2], b[3], b[4], b[5], 0.1), even);
    }

    private static double[] weightsOf(int cell, double[][] grid, int[] size) {
        double[] w = new double[grid.length];
        for (int d = 0; d < grid.length; d++) {
            w[d] = grid[d][cell % size[d]];
            cell /= size[d];
        }
        return w;
    }

    private static void report(List<ChoiceReplay.Item> items, ChooserWeights w, Predicate<String> even) {
        CandidateChooser c = CandidateChooser.withWeights(w);
        System.out.println("weights " + w);
        System.out.println("even (fit) " + String.valueOf(ChoiceReplay.score(items, c, even)));
        System.out.println("odd (held out) " + String.valueOf(ChoiceReplay.score(items, c, even.negate())));
        System.out.println("all " + String.valueOf(ChoiceReplay.score(items, c, x -> true)));
    }

    private static double d(String s) {
        return Double.parseDouble(s);
    }

    private static SQLiteDataSource ds(Path dir, String db) {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        SQLiteDataSource ds = new SQLiteDataSource(config);
        ds.setUrl("jdbc:sqlite:" + dir.resolve(db + ".sqlite").toAbsolutePath());
        return ds;
    }

    private static List<String> tables(SQLiteDataSource ds) {
        List<String> out = new ArrayList<>();
        try (java.sql.Connection c = ds.getConnection(); java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type IN ('table','view')"
                        + " AND name NOT LIKE 'sqlite_%'")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }
}
