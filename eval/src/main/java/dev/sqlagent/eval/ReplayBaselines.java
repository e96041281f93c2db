package dev.sqlagent.eval;

import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.execution.SqlExecutor;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.verify.ResultEquivalence;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Reference points for a replay, computed by running the predictions directly (no agent, no guard) and
 * comparing with the gold result as the evaluation does: each file alone, the first candidate (in file
 * order) that executes, a plain majority of equal results (ties to the earliest file, as the agent
 * breaks them without verifiers), and the oracle (any candidate right). Questions without gold SQL are
 * skipped.
 */
public final class ReplayBaselines {

    private static final ResultEquivalence EQUIVALENCE = ResultEquivalence.standard();

    private ReplayBaselines() {
    }

    /**
     * @param questions the question set
     * @param predictions the prediction files, in candidate order
     * @param executors an executor per database id (read-only, generous row cap), called once per id
     * @return {@code questions_with_gold}, {@code files} (name to accuracy), {@code first_executable},
     *     {@code majority}, {@code oracle}, each an accuracy over the questions with gold SQL
     */
    public static Map<String, Object> compute(List<EvalQuestion> questions, List<PredictionFile> predictions,
            Function<String, SqlExecutor> executors) {
        Objects.requireNonNull(questions, "questions");
        Objects.requireNonNull(predictions, "predictions");
        Objects.requireNonNull(executors, "executors");
        Map<String, SqlExecutor> cache = new ConcurrentHashMap<>();
        int k = predictions.size();
        long withGold = 0;
        long[] alone = new long[k];
        long first = 0;
        long majority = 0;
        long oracle = 0;
        for (EvalQuestion q : questions) {
            if (!q.hasGold()) {
                continue;
            }
            withGold++;
            SqlExecutor ex = cache.computeIfAbsent(q.dbId(), executors);
            ResultTable gold = table(ex, q.goldSql());
            if (gold == null) {
                continue;
            }
            boolean ordered = GoldComparison.hasTopLevelOrderBy(q.goldSql());
            List<ResultTable> results = new ArrayList<>();
            boolean[] right = new boolean[k];
            boolean any = false;
            for (int i = 0; i < k; i++) {
                String sql = predictions.get(i).get(q.id()).map(PredictionFile.Prediction::sql).orElse("");
                ResultTable t = sql.isBlank() ? null : table(ex, sql);
                results.add(t);
                right[i] = t != null && GoldComparison.matches(gold, t, ordered);
                alone[i] += right[i] ? 1 : 0;
                any |= right[i];
            }
            oracle += any ? 1 : 0;
            for (int i = 0; i < k; i++) {
                if (results.get(i) != null) {
                    first += right[i] ? 1 : 0;
                    break;
                }
            }
            int winner = majorityWinner(results);
            majority += winner >= 0 && right[winner] ? 1 : 0;
        }
        Map<String, Object> files = new LinkedHashMap<>();
        for (int i = 0; i < k; i++) {
            files.put(predictions.get(i).name(), ratio(alone[i], withGold));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("questions_with_gold", withGold);
        out.put("files", files);
        out.put("first_executable", ratio(first, withGold));
        out.put("majority", ratio(majority, withGold));
        out.put("oracle", ratio(oracle, withGold));
        return out;
    }

    /** The earliest candidate of the largest group of equal results, or -1 when none ran. */
    static int majorityWinner(List<ResultTable> results) {
        List<List<Integer>> groups = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            ResultTable t = results.get(i);
            if (t == null) {
                continue;
            }
            List<Integer> home = null;
            for (List<Integer> g : groups) {
                if (EQUIVALENCE.equivalent(results.get(g.get(0)), t, false)) {
                    home = g;
                    break;
                }
            }
            if (home == null) {
                home = new ArrayList<>();
                groups.add(home);
            }
            home.add(i);
        }
        List<Integer> best = null;
        for (List<Integer> g : groups) {
            if (best == null || g.size() > best.size()) {
                best = g;
            }
        }
        return best == null ? -1 : best.get(0);
    }

    private static ResultTable table(SqlExecutor ex, String sql) {
        ExecutionOutcome o = ex.execute(SqlStatement.of(sql));
        return o instanceof ExecutionOutcome.Success ? ((ExecutionOutcome.Success) o).table() : null;
    }

    private static double ratio(long a, long b) {
        return b == 0 ? 0.0 : Math.round((double) a / b * 1e6) / 1e6;
    }
}
