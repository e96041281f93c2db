package dev.sqlagent.eval;

import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.execution.SqlExecutor;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.verify.ResultEquivalence;
import dev.sqlagent.verify.ResultGroups;
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
 * skipped. The top-level figures use Spider's comparison ({@link GoldComparison#matches}, columns
 * permuted); {@code positional} repeats them with columns compared in place
 * ({@link GoldComparison#matchesPositional}).
 */
public final class ReplayBaselines {

    private static final ResultEquivalence EQUIVALENCE = ResultEquivalence.standard();

    private ReplayBaselines() {
    }

    /**
     * Runs every prediction of every question with gold SQL and computes the reference accuracies.
     *
     * @param questions the question set
     * @param predictions the prediction files, in candidate order
     * @param executors an executor per database id (read-only, generous row cap), called once per id
     * @return {@code questions_with_gold}, {@code files} (name to accuracy), {@code first_executable},
     *     {@code majority}, {@code oracle}, each an accuracy over the questions with gold SQL, and
     *     {@code positional}: {@code files}, {@code first_executable}, {@code majority}, {@code oracle}
     *     under the positional comparison
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
        long[] aloneP = new long[k];
        long firstP = 0;
        long majorityP = 0;
        long oracleP = 0;
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
            boolean[] rightP = new boolean[k];
            boolean any = false;
            boolean anyP = false;
            for (int i = 0; i < k; i++) {
                String sql = predictions.get(i).get(q.id()).map(PredictionFile.Prediction::sql).orElse("");
                ResultTable t = sql.isBlank() ? null : table(ex, sql);
                results.add(t);
                right[i] = t != null && GoldComparison.matches(gold, t, ordered);
                rightP[i] = t != null && GoldComparison.matchesPositional(gold, t, ordered);
                alone[i] += right[i] ? 1 : 0;
                aloneP[i] += rightP[i] ? 1 : 0;
                any |= right[i];
                anyP |= rightP[i];
            }
            oracle += any ? 1 : 0;
            oracleP += anyP ? 1 : 0;
            for (int i = 0; i < k; i++) {
                if (results.get(i) != null) {
                    first += right[i] ? 1 : 0;
                    firstP += rightP[i] ? 1 : 0;
                    break;
                }
            }
            int winner = majorityWinner(results);
            majority += winner >= 0 && right[winner] ? 1 : 0;
            majorityP += winner >= 0 && rightP[winner] ? 1 : 0;
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
        Map<String, Object> filesP = new LinkedHashMap<>();
        for (int i = 0; i < k; i++) {
            filesP.put(predictions.get(i).name(), ratio(aloneP[i], withGold));
        }
        Map<String, Object> positional = new LinkedHashMap<>();
        positional.put("files", filesP);
        positional.put("first_executable", ratio(firstP, withGold));
        positional.put("majority", ratio(majorityP, withGold));
        positional.put("oracle", ratio(oracleP, withGold));
        out.put("positional", positional);
        return out;
    }

    /** The earliest candidate of the largest group of equal results, or -1 when none ran. */
    static int majorityWinner(List<ResultTable> results) {
        return ResultGroups.majority(results, EQUIVALENCE);
    }

    private static ResultTable table(SqlExecutor ex, String sql) {
        ExecutionOutcome o = ex.execute(SqlStatement.of(sql));
        return o instanceof ExecutionOutcome.Success ? ((ExecutionOutcome.Success) o).table() : null;
    }

    private static double ratio(long a, long b) {
        return b == 0 ? 0.0 : Math.round((double) a / b * 1e6) / 1e6;
    }
}
