package dev.sqlagent.eval;

import dev.sqlagent.choose.CandidateChooser;
import dev.sqlagent.choose.ChoiceCandidate;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.execution.SqlExecutor;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.verify.ResultEquivalence;
import dev.sqlagent.verify.ResultGroups;
import dev.sqlagent.verify.ResultVerifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Measures a {@link CandidateChooser} on recorded predictions without the agent: every prediction runs
 * once ({@link #load}), then any chooser can be scored on the loaded results in milliseconds
 * ({@link #score}), under both comparisons, against the plain vote, per rule that decided and on any
 * subset of databases (for a held-out split, {@link #evenHalf}). Meant for deciding weights on one half
 * of the databases and checking them on the other.
 */
public final class ChoiceReplay {

    private static final ResultEquivalence EQUIVALENCE = ResultEquivalence.standard();

    private ChoiceReplay() {
    }

    /**
     * One question with its candidates run.
     *
     * @param question the question
     * @param catalog its database's catalog
     * @param candidates the candidates that ran, {@link ChoiceCandidate#index()} = file position
     * @param right whether each candidate (by file position) matches the gold result, Spider's comparison
     * @param rightPositional the same with columns compared in place
     */
    public record Item(EvalQuestion question, SchemaCatalog catalog, List<ChoiceCandidate> candidates, boolean[] right,
            boolean[] rightPositional) {
    }

    /**
     * Runs every prediction of the questions with gold SQL (a question whose gold SQL fails is kept, with
     * every candidate wrong).
     *
     * @param questions the questions
     * @param predictions the prediction files, in candidate order
     * @param executors an executor per database id, called once per id
     * @param catalogs the catalog per database id, called once per id
     * @param verifiers verifiers whose findings the candidates carry
     * @return the loaded questions, in order
     */
    public static List<Item> load(List<EvalQuestion> questions, List<PredictionFile> predictions,
            Function<String, SqlExecutor> executors, Function<String, SchemaCatalog> catalogs,
            List<ResultVerifier> verifiers) {
        Map<String, SqlExecutor> ex = new ConcurrentHashMap<>();
        Map<String, SchemaCatalog> cat = new ConcurrentHashMap<>();
        List<Item> out = new ArrayList<>();
        for (EvalQuestion q : questions) {
            if (!q.hasGold()) {
                continue;
            }
            SqlExecutor e = ex.computeIfAbsent(q.dbId(), executors);
            ResultTable gold = table(e, q.goldSql());
            boolean ordered = GoldComparison.hasTopLevelOrderBy(q.goldSql());
            List<ChoiceCandidate> ran = new ArrayList<>();
            boolean[] right = new boolean[predictions.size()];
            boolean[] rightP = new boolean[predictions.size()];
            for (int i = 0; i < predictions.size(); i++) {
                String sql = predictions.get(i).get(q.id()).map(PredictionFile.Prediction::sql).orElse("");
                ResultTable t = sql.isBlank() ? null : table(e, sql);
                if (t == null) {
                    continue;
                }
                List<String> findings = new ArrayList<>();
                for (ResultVerifier v : verifiers) {
                    v.check(q.question(), sql, t).ifPresent(findings::add);
                }
                ran.add(new ChoiceCandidate(i, sql, t, findings, List.of()));
                right[i] = gold != null && GoldComparison.matches(gold, t, ordered);
                rightP[i] = gold != null && GoldComparison.matchesPositional(gold, t, ordered);
            }
            out.add(new Item(q, cat.computeIfAbsent(q.dbId(), catalogs), ran, right, rightP));
        }
        return out;
    }

    /**
     * Scores a chooser on loaded questions of the given databases, against the plain vote and the
     * oracle, under Spider's and the positional comparison.
     *
     * @param items loaded questions
     * @param chooser the chooser to measure
     * @param databases which databases to count
     * @return {@code questions}, {@code chooser} and {@code majority} and {@code oracle} (each
     *     {@code spider} and {@code positional} accuracy), and {@code by_rule}: per rule that decided, the
     *     questions, and the chooser's and the vote's right answers under both comparisons
     */
    public static Map<String, Object> score(List<Item> items, CandidateChooser chooser, Predicate<String> databases) {
        Objects.requireNonNull(chooser, "chooser");
        long n = 0;
        long[] chosen = new long[2];
        long[] vote = new long[2];
        long[] oracle = new long[2];
        Map<String, long[]> byRule = new TreeMap<>();
        for (Item it : items) {
            if (!databases.test(it.question().dbId())) {
                continue;
            }
            n++;
            boolean anyS = false;
            boolean anyP = false;
            for (int i = 0; i < it.right().length; i++) {
                anyS |= it.right()[i];
                anyP |= it.rightPositional()[i];
            }
            oracle[0] += anyS ? 1 : 0;
            oracle[1] += anyP ? 1 : 0;
            if (it.candidates().isEmpty()) {
                byRule.computeIfAbsent("none", k -> new long[5])[0]++;
                continue;
            }
            List<ResultTable> tables = new ArrayList<>();
            for (ChoiceCandidate c : it.candidates()) {
                tables.add(c.table());
            }
            int v = it.candidates().get(ResultGroups.majority(tables, EQUIVALENCE)).index();
            CandidateChooser.Choice choice = chooser.choose(it.question().question(), it.catalog(), it.candidates());
            int c = choice.chosen();
            long[] r = byRule.computeIfAbsent(choice.ruleWithSignal(), k -> new long[5]);
            r[0]++;
            r[1] += it.right()[c] ? 1 : 0;
            r[2] += it.rightPositional()[c] ? 1 : 0;
            r[3] += it.right()[v] ? 1 : 0;
            r[4] += it.rightPositional()[v] ? 1 : 0;
            chosen[0] += it.right()[c] ? 1 : 0;
            chosen[1] += it.rightPositional()[c] ? 1 : 0;
            vote[0] += it.right()[v] ? 1 : 0;
            vote[1] += it.rightPositional()[v] ? 1 : 0;
        }
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        out.put("questions", n);
        out.put("chooser", pair(chosen, n));
        out.put("majority", pair(vote, n));
        out.put("oracle", pair(oracle, n));
        Map<String, Object> rules = new java.util.LinkedHashMap<>();
        byRule.forEach((rule, r) -> {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("questions", r[0]);
            m.put("chooser_right", r[1]);
            m.put("chooser_right_positional", r[2]);
            m.put("majority_right", r[3]);
            m.put("majority_right_positional", r[4]);
            rules.put(rule, m);
        });
        out.put("by_rule", rules);
        return out;
    }

    /**
     * The held-out split used for the chooser's weights: the databases at even positions (0, 2, …) of the
     * set's database ids in alphabetical order.
     *
     * @param dbIds every database id of the set
     * @return a test for the even half; its negation is the odd half
     */
    public static Predicate<String> evenHalf(java.util.Collection<String> dbIds) {
        List<String> sorted = new ArrayList<>(new TreeSet<>(dbIds));
        java.util.Set<String> even = new java.util.HashSet<>();
        for (int i = 0; i < sorted.size(); i += 2) {
            even.add(sorted.get(i));
        }
        return even::contains;
    }

    private static Map<String, Object> pair(long[] right, long n) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("spider", ratio(right[0], n));
        m.put("positional", ratio(right[1], n));
        return m;
    }

    private static ResultTable table(SqlExecutor ex, String sql) {
        ExecutionOutcome o = ex.execute(SqlStatement.of(sql));
        return o instanceof ExecutionOutcome.Success ? ((ExecutionOutcome.Success) o).table() : null;
    }

    private static double ratio(long a, long b) {
        return b == 0 ? 0.0 : Math.round((double) a / b * 1e6) / 1e6;
    }
}
