package dev.sqlagent.choose;

import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.verify.ResultEquivalence;
import dev.sqlagent.verify.ResultGroups;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Chooses among the candidates that ran, without a model. Candidates whose results are the same answer
 * ({@link ResultGroups}) form a group; each group gets a score, the sum of weighted signals
 * ({@link ChooserWeights}):
 *
 * <ul>
 *   <li><b>vote</b>: how many candidates the group holds (execution consistency);</li>
 *   <li><b>near</b>: candidates of other groups whose results nearly agree with this one (the same rows
 *       with a column more or less; the rows of one a part of the other's);</li>
 *   <li><b>shape</b>: whether the result's shape fits the question's wording ("how many" and one row,
 *       "the most" and a LIMIT, "how many ... each" and a GROUP BY, "different" and no repeated rows,
 *       "sorted" and an ORDER BY; English and Chinese);</li>
 *   <li><b>columns</b>: the share of result columns the question asks for;</li>
 *   <li><b>link</b>: the share of the tables and columns the question's words point to (names, synonyms,
 *       sample values of the catalog) that the SQL reads;</li>
 *   <li><b>degenerate</b> (against): a result that says nothing, no rows or a single row of zeros and
 *       nulls, unless the question asks whether something exists;</li>
 *   <li><b>findings</b> and <b>flags</b> (against): the verifiers' findings on the result, the guard's
 *       and cleaner's warnings on the candidate.</li>
 * </ul>
 *
 * The SQL-based signals of a group are those of its best-fitting member. The highest score wins, a tie
 * goes to the group whose first member comes first. Within the winning group the member taken is the
 * first one with a top-level ORDER BY (if any sorts, the question asked for an order), then the one whose
 * columns follow the order in which the question names them, then the earliest. The {@link Choice}
 * names the rule that decided ({@code only}, {@code unanimous}, {@code majority}, {@code signals},
 * {@code overturn}, {@code order}) and the signal that made the difference. Pure and thread-safe.
 */
public final class CandidateChooser {

    /** Widest result for which projections are tried. */
    private static final int MAX_PROJECTED_WIDTH = 8;

    private final ChooserWeights weights;
    private final ResultEquivalence equivalence;

    private CandidateChooser(ChooserWeights weights, ResultEquivalence equivalence) {
        this.weights = weights;
        this.equivalence = equivalence;
    }

    /** {@return a chooser with {@link ChooserWeights#DEFAULTS} and {@link ResultEquivalence#standard()}} */
    public static CandidateChooser standard() {
        return new CandidateChooser(ChooserWeights.DEFAULTS, ResultEquivalence.standard());
    }

    /**
     * Creates a chooser with other weights, as a replay tunes them.
     *
     * @param weights the signals' weights
     * @return a chooser with those weights and {@link ResultEquivalence#standard()}
     */
    public static CandidateChooser withWeights(ChooserWeights weights) {
        return new CandidateChooser(Objects.requireNonNull(weights, "weights"), ResultEquivalence.standard());
    }

    /** {@return the weights} */
    public ChooserWeights weights() {
        return weights;
    }

    /**
     * One group's score, signal by signal.
     *
     * @param members the candidates' indices (as given in {@link ChoiceCandidate#index()}), in order
     * @param preferred the member to answer with if this group wins (see the class comment)
     * @param values each signal's raw value
     * @param contributions each signal's weighted contribution to the score
     * @param score the sum of the contributions
     */
    public record GroupScore(List<Integer> members, int preferred, Map<String, Double> values,
            Map<String, Double> contributions, double score) {
        /**
         * Copies the parts.
         *
         * @param members the candidates' indices (as given in {@link ChoiceCandidate#index()}), in order
         * @param preferred the member to answer with if this group wins (see the class comment)
         * @param values each signal's raw value
         * @param contributions each signal's weighted contribution to the score
         * @param score the sum of the contributions
         */
        public GroupScore {
            members = List.copyOf(members);
            values = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
            contributions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(contributions));
        }

        /** {@return the group on one line, e.g. {@code [0, 2] 2.71 = vote 2.00 + link 0.31 - degenerate 0.00}} */
        public String explain() {
            StringBuilder sb = new StringBuilder(members.toString()).append(' ').append(fmt(score)).append(" =");
            boolean first = true;
            for (Map.Entry<String, Double> c : contributions.entrySet()) {
                if (c.getValue() == 0 && !c.getKey().equals("vote")) {
                    continue;
                }
                sb.append(first ? " " : c.getValue() < 0 ? " - " : " + ").append(c.getKey()).append(' ')
                        .append(fmt(first ? c.getValue() : Math.abs(c.getValue())));
                first = false;
            }
            return sb.toString();
        }
    }

    /**
     * The choice.
     *
     * @param chosen the chosen candidate's index ({@link ChoiceCandidate#index()})
     * @param rule what decided: {@code only} (one candidate ran), {@code unanimous} (one group),
     *     {@code majority} (the largest group, the signals agreeing), {@code signals} (the signals broke a
     *     tie of group sizes), {@code overturn} (the signals beat a larger group), {@code order} (a full
     *     tie, the earliest group)
     * @param signal the signal that made the largest difference between the winner and the runner-up,
     *     or empty for {@code only}, {@code unanimous} and {@code order}
     * @param groups the groups' scores, best first
     * @param cues the question's cues and the schema it points to, for the trace
     */
    public record Choice(int chosen, String rule, String signal, List<GroupScore> groups, String cues) {
        /**
         * Copies the parts.
         *
         * @param chosen the chosen candidate's index ({@link ChoiceCandidate#index()})
         * @param rule what decided: {@code only} (one candidate ran), {@code unanimous} (one group),
         *     {@code majority} (the largest group, the signals agreeing), {@code signals} (the signals broke a
         *     tie of group sizes), {@code overturn} (the signals beat a larger group), {@code order} (a full
         *     tie, the earliest group)
         * @param signal the signal that made the largest difference between the winner and the runner-up,
         *     or empty for {@code only}, {@code unanimous} and {@code order}
         * @param groups the groups' scores, best first
         * @param cues the question's cues and the schema it points to, for the trace
         */
        public Choice {
            Objects.requireNonNull(rule, "rule");
            Objects.requireNonNull(signal, "signal");
            groups = List.copyOf(groups);
            Objects.requireNonNull(cues, "cues");
        }

        /** {@return the group sizes, best group first} */
        public List<Integer> groupSizes() {
            List<Integer> out = new ArrayList<>();
            for (GroupScore g : groups) {
                out.add(g.members().size());
            }
            return out;
        }

        /** {@return the rule and signal, e.g. {@code signals (degenerate)} or {@code majority}} */
        public String ruleWithSignal() {
            return signal.isEmpty() ? rule : rule + " (" + signal + ")";
        }

        /** {@return the choice explained for the trace: rule, cues, and each group's score} */
        public String explain() {
            StringBuilder sb = new StringBuilder("chose ").append(chosen).append(" by ").append(ruleWithSignal());
            if (!cues.isEmpty()) {
                sb.append("; ").append(cues);
            }
            for (GroupScore g : groups) {
                sb.append("; group ").append(g.explain());
            }
            return sb.toString();
        }
    }

    /**
     * Chooses among the candidates that ran: groups them by result, scores each group and takes a member of
     * the best.
     *
     * @param question the question
     * @param catalog the schema the candidates were written for, or null when unknown (no linking)
     * @param candidates the candidates that ran, at least one, distinct indices
     * @return the choice
     * @throws IllegalArgumentException if there is no candidate or two share an index
     */
    public Choice choose(String question, SchemaCatalog catalog, List<ChoiceCandidate> candidates) {
        requireCandidates(question, candidates);
        QuestionCues cues = QuestionCues.of(question);
        SchemaLinks links = SchemaLinks.of(cues, catalog);
        List<ResultTable> tables = new ArrayList<>();
        for (ChoiceCandidate c : candidates) {
            tables.add(c.table());
        }
        List<List<Integer>> groups = ResultGroups.of(tables, equivalence);
        List<Scored> scored = new ArrayList<>();
        for (int gi = 0; gi < groups.size(); gi++) {
            scored.add(score(gi, groups, candidates, cues, links));
        }
        List<Scored> ranked = new ArrayList<>(scored);
        ranked.sort((a, b) -> a.score.score() != b.score.score() ? Double.compare(b.score.score(), a.score.score())
                : Integer.compare(a.position, b.position));
        Scored winner = ranked.get(0);
        int largest = 0;
        for (List<Integer> g : groups) {
            largest = Math.max(largest, g.size());
        }
        int size = winner.members.size();
        String rule;
        String signal = "";
        if (groups.size() == 1) {
            rule = candidates.size() == 1 ? "only" : "unanimous";
        } else if (ranked.get(1).score.score() == winner.score.score()) {
            rule = "order";
        } else {
            long sameSize = groups.stream().filter(g -> g.size() == size).count();
            rule = size < largest ? "overturn" : sameSize > 1 ? "signals" : "majority";
            Scored rival = ranked.get(1);
            if (rule.equals("overturn")) {
                for (Scored s : ranked) {
                    if (s.members.size() == largest) {
                        rival = s;
                        break;
                    }
                }
            }
            if (!rule.equals("majority")) {
                double best = 0;
                for (Map.Entry<String, Double> c : winner.score.contributions().entrySet()) {
                    double d = c.getValue() - rival.score.contributions().getOrDefault(c.getKey(), 0.0);
                    if (!c.getKey().equals("vote") && d > best) {
                        best = d;
                        signal = c.getKey();
                    }
                }
            }
        }
        List<GroupScore> out = new ArrayList<>();
        for (Scored s : ranked) {
            out.add(s.score);
        }
        String cueText = String.join(", ", cues.names());
        if (!links.isEmpty()) {
            cueText = (cueText.isEmpty() ? "" : cueText + "; ") + "points to " + links;
        }
        return new Choice(winner.score.preferred(), rule, signal, out, cueText);
    }

    /**
     * The choice when nothing opposes it: one candidate ran, or every candidate's result is the same answer.
     * The groups are not scored then (no signal could change the winner): the one group carries the vote
     * alone, and the question's words are read only when several members leave a member to take (the rule
     * of the class comment). The chosen candidate and the rule are those {@link #choose} gives.
     *
     * @param question the question
     * @param candidates the candidates that ran, at least one, distinct indices
     * @return the choice, {@code only} or {@code unanimous}; empty when the results differ (then
     *     {@link #choose} decides)
     * @throws IllegalArgumentException if there are no candidates or two share an index
     */
    public Optional<Choice> uncontested(String question, List<ChoiceCandidate> candidates) {
        requireCandidates(question, candidates);
        List<Integer> indices = new ArrayList<>();
        List<ResultTable> tables = new ArrayList<>();
        for (ChoiceCandidate c : candidates) {
            indices.add(c.index());
            tables.add(c.table());
        }
        if (candidates.size() > 1 && ResultGroups.of(tables, equivalence).size() > 1) {
            return Optional.empty();
        }
        int preferred = pick(candidates, () -> QuestionCues.wordsOf(question));
        double vote = weights.vote() * candidates.size();
        GroupScore only = new GroupScore(indices, preferred, Map.of("vote", (double) candidates.size()),
                Map.of("vote", vote), vote);
        return Optional.of(new Choice(preferred, candidates.size() == 1 ? "only" : "unanimous", "", List.of(only), ""));
    }

    /** What {@link #choose} and {@link #uncontested} refuse: no question, no candidates, or two sharing an index. */
    private static void requireCandidates(String question, List<ChoiceCandidate> candidates) {
        Objects.requireNonNull(question, "question");
        Objects.requireNonNull(candidates, "candidates");
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException("at least one candidate is needed to choose");
        }
        if (candidates.stream().map(ChoiceCandidate::index).distinct().count() != candidates.size()) {
            throw new IllegalArgumentException("candidate indices must be distinct");
        }
    }

    private record Scored(int position, List<ChoiceCandidate> members, GroupScore score) {
    }

    private Scored score(int gi, List<List<Integer>> groups, List<ChoiceCandidate> all, QuestionCues cues,
            SchemaLinks links) {
        List<ChoiceCandidate> members = new ArrayList<>();
        List<Integer> indices = new ArrayList<>();
        for (int i : groups.get(gi)) {
            members.add(all.get(i));
            indices.add(all.get(i).index());
        }
        ResultTable t = members.get(0).table();
        double near = 0;
        for (int gj = 0; gj < groups.size(); gj++) {
            if (gj != gi && nearlyEqual(t, all.get(groups.get(gj).get(0)).table())) {
                near += groups.get(gj).size();
            }
        }
        double shape = Double.NEGATIVE_INFINITY;
        double columns = 0;
        double link = 0;
        double findings = Double.POSITIVE_INFINITY;
        double flags = Double.POSITIVE_INFINITY;
        for (ChoiceCandidate c : members) {
            SqlShape sql = SqlShape.of(c.sql());
            shape = Math.max(shape, shapeFit(cues, sql, c.table()));
            columns = Math.max(columns, columnShare(cues, c.table()));
            link = Math.max(link, links.coverage(sql));
            findings = Math.min(findings, c.findings().size());
            flags = Math.min(flags, c.flags().size());
        }
        double degenerate = !cues.existence() && degenerate(t) ? 1 : 0;
        Map<String, Double> values = new LinkedHashMap<>();
        values.put("vote", (double) members.size());
        values.put("near", near);
        values.put("shape", shape);
        values.put("columns", columns);
        values.put("link", link);
        values.put("degenerate", degenerate);
        values.put("findings", findings);
        values.put("flags", flags);
        Map<String, Double> contributions = new LinkedHashMap<>();
        contributions.put("vote", weights.vote() * members.size());
        contributions.put("near", weights.near() * near);
        contributions.put("shape", weights.shape() * shape);
        contributions.put("columns", weights.columns() * columns);
        contributions.put("link", weights.link() * link);
        contributions.put("degenerate", -weights.degenerate() * degenerate);
        contributions.put("findings", -weights.findings() * findings);
        contributions.put("flags", -weights.flags() * flags);
        double total = 0;
        for (double v : contributions.values()) {
            total += v;
        }
        total = Math.round(total * 1e9) / 1e9;
        return new Scored(gi, members, new GroupScore(indices, pick(members, cues::wordsInOrder), values, contributions, total));
    }

    /** The sum of the question's cues met (+1) and broken (-1) by one candidate. */
    static double shapeFit(QuestionCues cues, SqlShape sql, ResultTable t) {
        double fit = 0;
        int rows = t.rowCount();
        if (cues.count() && !cues.grouping()) {
            fit += rows == 1 ? 1 : -1;
        }
        if (cues.count() && cues.grouping()) {
            fit += sql.groupBy() ? 1 : -1;
        }
        if (cues.superlative() && !cues.grouping()) {
            fit += sql.limit() ? 1 : sql.extremum() ? 0 : -1;
        }
        if (cues.distinct()) {
            fit += hasRepeatedRows(t) ? -1 : sql.distinct() || sql.groupBy() ? 1 : 0;
        }
        if (cues.ordered()) {
            fit += sql.topOrderBy() ? 1 : -1;
        }
        return fit;
    }

    /** The share of a result's columns the question asks for. */
    static double columnShare(QuestionCues cues, ResultTable t) {
        if (t.columns().isEmpty()) {
            return 0;
        }
        int asked = 0;
        for (String label : t.columnNames()) {
            asked += asked(cues, label) ? 1 : 0;
        }
        return (double) asked / t.columns().size();
    }

    private static boolean asked(QuestionCues cues, String label) {
        String l = label.toLowerCase(Locale.ROOT).strip();
        if (l.contains("(")) {
            if (l.startsWith("count")) {
                return cues.count();
            }
            if (l.startsWith("avg")) {
                return cues.average();
            }
            if (l.startsWith("sum")) {
                return cues.total() || cues.count();
            }
            if (l.startsWith("max") || l.startsWith("min")) {
                return cues.superlative();
            }
            return false;
        }
        int dot = l.lastIndexOf('.');
        for (String p : SchemaLinks.parts(dot >= 0 ? l.substring(dot + 1) : l)) {
            if (SchemaLinks.mentions(cues, p)) {
                return true;
            }
        }
        return false;
    }

    /** No rows, or one row whose every value is null or zero. */
    static boolean degenerate(ResultTable t) {
        if (t.rowCount() == 0) {
            return true;
        }
        if (t.rowCount() > 1) {
            return false;
        }
        for (Object v : t.rows().get(0)) {
            if (v == null) {
                continue;
            }
            if (v instanceof Number && new BigDecimal(v.toString()).signum() == 0) {
                continue;
            }
            return false;
        }
        return true;
    }

    private static boolean hasRepeatedRows(ResultTable t) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (List<Object> row : t.rows()) {
            StringBuilder sb = new StringBuilder();
            for (Object v : row) {
                sb.append(ResultEquivalence.valueKey(v)).append('\u0001');
            }
            if (!seen.add(sb.toString())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether two different results nearly agree: both have rows, and either they have the same number
     * of rows and the narrower one's columns are among the wider one's, or they have the same width and
     * one's rows are a part of the other's.
     */
    boolean nearlyEqual(ResultTable a, ResultTable b) {
        if (a.rowCount() == 0 || b.rowCount() == 0) {
            return false;
        }
        int wa = a.columns().size();
        int wb = b.columns().size();
        if (a.rowCount() == b.rowCount() && wa != wb) {
            ResultTable narrow = wa < wb ? a : b;
            ResultTable wide = wa < wb ? b : a;
            return wide.columns().size() <= MAX_PROJECTED_WIDTH && projects(narrow, wide);
        }
        if (wa == wb && a.rowCount() != b.rowCount()) {
            ResultTable small = a.rowCount() < b.rowCount() ? a : b;
            ResultTable big = small == a ? b : a;
            return contains(big, small);
        }
        return false;
    }

    private boolean projects(ResultTable narrow, ResultTable wide) {
        int k = narrow.columns().size();
        int n = wide.columns().size();
        int[] pick = new int[k];
        for (int i = 0; i < k; i++) {
            pick[i] = i;
        }
        while (true) {
            List<List<Object>> rows = new ArrayList<>();
            for (List<Object> r : wide.rows()) {
                List<Object> p = new ArrayList<>(k);
                for (int c : pick) {
                    p.add(r.get(c));
                }
                rows.add(p);
            }
            if (equivalence.equivalent(narrow.rows(), rows, false)) {
                return true;
            }
            int i = k - 1;
            while (i >= 0 && pick[i] == n - k + i) {
                i--;
            }
            if (i < 0) {
                return false;
            }
            pick[i]++;
            for (int j = i + 1; j < k; j++) {
                pick[j] = pick[j - 1] + 1;
            }
        }
    }

    private static boolean contains(ResultTable big, ResultTable small) {
        Map<String, Integer> counts = new HashMap<>();
        for (List<Object> r : big.rows()) {
            counts.merge(rowKey(r), 1, Integer::sum);
        }
        for (List<Object> r : small.rows()) {
            Integer c = counts.get(rowKey(r));
            if (c == null || c == 0) {
                return false;
            }
            counts.put(rowKey(r), c - 1);
        }
        return true;
    }

    private static String rowKey(List<Object> row) {
        StringBuilder sb = new StringBuilder();
        for (Object v : row) {
            sb.append(ResultEquivalence.valueKey(v)).append('\u0001');
        }
        return sb.toString();
    }

    /** The member of the winning group to answer with. */
    private static int pick(List<ChoiceCandidate> members, java.util.function.Supplier<List<String>> questionWords) {
        if (members.size() == 1) {
            return members.get(0).index();
        }
        List<ChoiceCandidate> pool = new ArrayList<>();
        for (ChoiceCandidate c : members) {
            if (SqlShape.topOrderBy(c.sql())) {
                pool.add(c);
            }
        }
        if (pool.isEmpty()) {
            pool = members;
        }
        boolean sameLabels = true;
        for (ChoiceCandidate c : pool) {
            sameLabels &= c.table().columnNames().equals(pool.get(0).table().columnNames());
        }
        if (sameLabels) { // the same columns in the same order: no member follows the question better
            return pool.get(0).index();
        }
        List<String> words = questionWords.get();
        ChoiceCandidate best = pool.get(0);
        int fewest = inversions(words, best.table());
        for (ChoiceCandidate c : pool) {
            int inv = inversions(words, c.table());
            if (inv < fewest) {
                fewest = inv;
                best = c;
            }
        }
        return best.index();
    }

    /** Pairs of columns that appear in the opposite order of the question's first mention of them. */
    static int inversions(List<String> words, ResultTable t) {
        List<Integer> at = new ArrayList<>();
        for (String label : t.columnNames()) {
            int pos = mention(words, label);
            if (pos >= 0) {
                at.add(pos);
            }
        }
        int inv = 0;
        for (int i = 0; i < at.size(); i++) {
            for (int j = i + 1; j < at.size(); j++) {
                inv += at.get(i) > at.get(j) ? 1 : 0;
            }
        }
        return inv;
    }

    private static int mention(List<String> words, String label) {
        String l = label.toLowerCase(Locale.ROOT).strip();
        List<String> parts;
        if (l.startsWith("count(") || l.startsWith("count (")) {
            parts = List.of("many", "number", "count");
        } else if (l.contains("(")) {
            return -1;
        } else {
            int dot = l.lastIndexOf('.');
            parts = SchemaLinks.parts(dot >= 0 ? l.substring(dot + 1) : l);
        }
        for (int i = 0; i < words.size(); i++) {
            for (String p : parts) {
                if (p.length() > 1 && QuestionCues.forms(p).contains(words.get(i))) {
                    return i;
                }
            }
        }
        return -1;
    }

    /** {@code v} with two decimals, as {@code %.2f} prints it (half up), without a formatter per number. */
    static String fmt(double v) {
        if (!Double.isFinite(v) || Math.abs(v) >= 1e15) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        long cents = Math.round(Math.abs(v) * 100);
        long fraction = cents % 100;
        return (v < 0 || (v == 0 && 1 / v < 0) ? "-" : "") + cents / 100 + (fraction < 10 ? ".0" : ".") + fraction;
    }
}
