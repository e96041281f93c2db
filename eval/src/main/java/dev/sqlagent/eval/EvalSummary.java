package dev.sqlagent.eval;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The measures of an evaluation, computed from its results (all of them, resumed ones included):
 *
 * <ul>
 *   <li>{@code execution_accuracy}: answers whose result equals the gold result / questions with gold SQL
 *       (a question whose gold SQL fails counts as wrong and is counted in {@code gold_errors});</li>
 *   <li>{@code success_rate}: answered / questions; {@code rejection_rate}: rejected / questions;</li>
 *   <li>{@code mean_corrections}: corrections / questions; {@code correction_trigger_rate}: corrections
 *       / executions (as the agent's own metrics define it); {@code correction_success_rate}: answered
 *       after a correction / corrections; {@code correction_correct_rate}: right after a correction /
 *       corrections; {@code corrections_by_category}: corrections by what they corrected (an invented
 *       function the guard found is {@code FUNCTION_NOT_FOUND}, an invented column {@code COLUMN_NOT_FOUND});</li>
 *   <li>{@code model_calls_per_question}, {@code tokens_per_question} (input and output);</li>
 *   <li>{@code by_category}, {@code by_database}: questions, correct, accuracy, answered;
 *       {@code by_error_category}: unanswered questions by error category (or failure kind, or
 *       {@code GUARD_REJECTED}); {@code by_failure_kind}; {@code chosen_rules}.</li>
 *   <li>{@code correct_positional}, {@code execution_accuracy_positional}: the same with columns compared
 *       in place ({@link GoldComparison#matchesPositional}) instead of Spider's permutation;</li>
 *   <li>{@code by_chosen_rule}: per rule that chose the answer, questions and right answers under both
 *       comparisons; {@code by_half}: {@code even} and {@code odd}, the databases at even and odd
 *       positions of the set's database ids in alphabetical order (the chooser's held-out split), with
 *       questions and accuracy under both comparisons.</li>
 * </ul>
 *
 * Immutable; keys are snake_case and are added, never renamed.
 */
public final class EvalSummary {

    private final Map<String, Object> fields;

    private EvalSummary(Map<String, Object> fields) {
        this.fields = fields;
    }

    /**
     * Computes the measures of a run from its results.
     *
     * @param records the results, one per question
     * @param complete whether every question of the set is among them
     * @param wallTime the wall time of this run (a resumed run counts only its own time)
     * @param resumed how many of the records came from an earlier run
     * @return the summary
     */
    public static EvalSummary of(List<EvalRecord> records, boolean complete, Duration wallTime, int resumed) {
        Objects.requireNonNull(records, "records");
        Objects.requireNonNull(wallTime, "wallTime");
        long questions = records.size();
        long withGold = 0;
        long correct = 0;
        long answered = 0;
        long rejected = 0;
        long failed = 0;
        long errors = 0;
        long goldErrors = 0;
        long corrections = 0;
        long correctedAnswered = 0;
        long correctedCorrect = 0;
        long executions = 0;
        long calls = 0;
        long in = 0;
        long out = 0;
        Map<String, long[]> byCategory = new TreeMap<>();
        Map<String, Long> correctionsBy = new TreeMap<>();
        Map<String, long[]> byDatabase = new TreeMap<>();
        Map<String, Long> byError = new TreeMap<>();
        Map<String, Long> byKind = new TreeMap<>();
        Map<String, Long> rules = new TreeMap<>();
        long correctPositional = 0;
        Map<String, long[]> byRule = new TreeMap<>();
        java.util.TreeSet<String> dbIds = new java.util.TreeSet<>();
        for (EvalRecord r : records) {
            dbIds.add(r.dbId());
        }
        java.util.Set<String> even = new java.util.HashSet<>();
        int position = 0;
        for (String db : dbIds) {
            if (position++ % 2 == 0) {
                even.add(db);
            }
        }
        Map<String, long[]> byHalf = new TreeMap<>();
        for (EvalRecord r : records) {
            correctPositional += r.isCorrectPositional() ? 1 : 0;
            String ruleKey = r.chosenRule().isEmpty() ? "(none)" : r.chosenRule();
            long[] rr = byRule.computeIfAbsent(ruleKey, k -> new long[3]);
            rr[0]++;
            rr[1] += r.isCorrect() ? 1 : 0;
            rr[2] += r.isCorrectPositional() ? 1 : 0;
            long[] h = byHalf.computeIfAbsent(even.contains(r.dbId()) ? "even" : "odd", k -> new long[4]);
            h[0]++;
            h[1] += r.goldSql().isBlank() ? 0 : 1;
            h[2] += r.isCorrect() ? 1 : 0;
            h[3] += r.isCorrectPositional() ? 1 : 0;
        }
        for (EvalRecord r : records) {
            boolean hasGold = !r.goldSql().isBlank();
            withGold += hasGold ? 1 : 0;
            correct += r.isCorrect() ? 1 : 0;
            goldErrors += r.goldError().isEmpty() ? 0 : 1;
            switch (r.status()) {
                case "ANSWERED":
                    answered++;
                    break;
                case "REJECTED":
                    rejected++;
                    break;
                case "FAILED":
                    failed++;
                    break;
                default:
                    errors++;
            }
            if (!r.answered()) {
                String key = !r.errorCategory().isEmpty() ? r.errorCategory()
                        : "REJECTED".equals(r.status()) ? "GUARD_REJECTED"
                        : !r.failureKind().isEmpty() ? r.failureKind() : r.status();
                byError.merge(key, 1L, Long::sum);
                if (!r.failureKind().isEmpty()) {
                    byKind.merge(r.failureKind(), 1L, Long::sum);
                }
            }
            if (r.corrected()) {
                corrections++;
                correctionsBy.merge(r.correctionCategory().isEmpty() ? "(unknown)" : r.correctionCategory(), 1L,
                        Long::sum);
                correctedAnswered += r.answered() ? 1 : 0;
                correctedCorrect += r.isCorrect() ? 1 : 0;
            }
            if (!r.chosenRule().isEmpty()) {
                rules.merge(r.chosenRule(), 1L, Long::sum);
            }
            executions += r.executions();
            calls += r.modelCalls();
            in += r.inputTokens();
            out += r.outputTokens();
            tally(byCategory, r.category().isEmpty() ? "(none)" : r.category(), r, hasGold);
            tally(byDatabase, r.dbId(), r, hasGold);
        }
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("questions", questions);
        f.put("complete", complete);
        f.put("with_gold", withGold);
        f.put("correct", correct);
        f.put("execution_accuracy", ratio(correct, withGold));
        f.put("answered", answered);
        f.put("rejected", rejected);
        f.put("failed", failed);
        f.put("errors", errors);
        f.put("gold_errors", goldErrors);
        f.put("success_rate", ratio(answered, questions));
        f.put("rejection_rate", ratio(rejected, questions));
        f.put("corrections", corrections);
        f.put("mean_corrections", ratio(corrections, questions));
        f.put("executions", executions);
        f.put("correction_trigger_rate", ratio(corrections, executions));
        f.put("correction_success_rate", ratio(correctedAnswered, corrections));
        f.put("correction_correct_rate", ratio(correctedCorrect, corrections));
        f.put("corrections_by_category", new LinkedHashMap<String, Object>(correctionsBy));
        f.put("model_calls", calls);
        f.put("model_calls_per_question", ratio(calls, questions));
        f.put("tokens_per_question", ratio(in + out, questions));
        f.put("input_tokens_per_question", ratio(in, questions));
        f.put("output_tokens_per_question", ratio(out, questions));
        f.put("wall_time_ms", wallTime.toMillis());
        f.put("resumed", (long) resumed);
        f.put("chosen_rules", new LinkedHashMap<String, Object>(rules));
        f.put("by_error_category", new LinkedHashMap<String, Object>(byError));
        f.put("by_failure_kind", new LinkedHashMap<String, Object>(byKind));
        f.put("by_category", breakdown(byCategory));
        f.put("by_database", breakdown(byDatabase));
        f.put("correct_positional", correctPositional);
        f.put("execution_accuracy_positional", ratio(correctPositional, withGold));
        Map<String, Object> rulesOut = new LinkedHashMap<>();
        byRule.forEach((k, t) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("questions", t[0]);
            m.put("correct", t[1]);
            m.put("correct_positional", t[2]);
            rulesOut.put(k, m);
        });
        f.put("by_chosen_rule", rulesOut);
        Map<String, Object> halves = new LinkedHashMap<>();
        byHalf.forEach((k, t) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("questions", t[0]);
            m.put("execution_accuracy", ratio(t[2], t[1]));
            m.put("execution_accuracy_positional", ratio(t[3], t[1]));
            halves.put(k, m);
        });
        f.put("by_half", halves);
        return new EvalSummary(f);
    }

    private static void tally(Map<String, long[]> map, String key, EvalRecord r, boolean hasGold) {
        long[] t = map.computeIfAbsent(key, k -> new long[4]);
        t[0]++;
        t[1] += hasGold ? 1 : 0;
        t[2] += r.isCorrect() ? 1 : 0;
        t[3] += r.answered() ? 1 : 0;
    }

    private static Map<String, Object> breakdown(Map<String, long[]> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        map.forEach((k, t) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("questions", t[0]);
            m.put("correct", t[2]);
            m.put("execution_accuracy", ratio(t[2], t[1]));
            m.put("answered", t[3]);
            out.put(k, m);
        });
        return out;
    }

    private static double ratio(long a, long b) {
        return b == 0 ? 0.0 : Math.round((double) a / b * 1e6) / 1e6;
    }

    /**
     * Returns a copy with one more top-level section, such as the baselines of a replay; this summary is
     * unchanged.
     *
     * @param key a new top-level key, e.g. {@code "baselines"}
     * @param value a number, string, boolean, or nested map/list of those
     * @return a summary with that section added (or replaced)
     */
    public EvalSummary with(String key, Object value) {
        Objects.requireNonNull(key, "key");
        Map<String, Object> f = new LinkedHashMap<>(fields);
        f.put(key, value);
        return new EvalSummary(f);
    }

    /** {@return the fields, in order; nested breakdowns are maps} */
    public Map<String, Object> asMap() {
        return java.util.Collections.unmodifiableMap(fields);
    }

    /** {@return the execution accuracy: correct answers / questions with gold SQL, 0 when none has gold} */
    public double executionAccuracy() {
        return (Double) fields.get("execution_accuracy");
    }

    /** {@return how many questions the summary covers} */
    public long questions() {
        return (Long) fields.get("questions");
    }

    /** {@return the success rate: answered / questions} */
    public double successRate() {
        return (Double) fields.get("success_rate");
    }

    /** {@return the summary as one JSON object on one line} */
    public String toJson() {
        return Json.write(fields);
    }

    /**
     * Writes the summary as {@code summary.json}-style JSON, atomically (a temporary file moved in place).
     *
     * @param file the target
     * @throws IOException when it cannot be written
     */
    public void writeTo(Path file) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, toJson() + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public String toString() {
        return toJson();
    }
}
