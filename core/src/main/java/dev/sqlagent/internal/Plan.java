package dev.sqlagent.internal;

import dev.sqlagent.schema.SchemaCatalog;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The Decomposer's plan: executable steps with dependencies and a join hint.
 *
 * @param steps the steps, in order
 * @param joinHint how the tables join, or empty
 */
public record Plan(List<Step> steps, String joinHint) {

    /** Most steps a plan may have. */
    public static final int MAX_STEPS = 6;

    /**
     * One step.
     *
     * @param id its number
     * @param goal what it computes, verb + object + condition
     * @param dependsOn the steps whose results it uses
     */
    public record Step(int id, String goal, List<Integer> dependsOn) {
        /** Copies the dependencies. */
        public Step {
            dependsOn = List.copyOf(dependsOn);
        }
    }

    /** Copies the steps. */
    public Plan {
        steps = List.copyOf(steps);
    }

    /**
     * Reads {@code {steps: [{step_id, goal, depends_on}], join_hint}}.
     *
     * @param reply the model's reply
     * @return the plan, empty when no steps can be read
     */
    public static Optional<Plan> parse(String reply) {
        Optional<Map<String, Object>> object = LenientJson.firstObject(reply);
        if (object.isEmpty() || !(object.get().get("steps") instanceof List)) {
            return Optional.empty();
        }
        List<Step> steps = new ArrayList<>();
        int n = 0;
        for (Object o : (List<?>) object.get().get("steps")) {
            n++;
            if (!(o instanceof Map)) {
                continue;
            }
            Map<?, ?> m = (Map<?, ?>) o;
            int id = toInt(m.get("step_id"), n);
            List<Integer> deps = new ArrayList<>();
            for (String d : LenientJson.strings(m.get("depends_on"))) {
                deps.add(toInt(d, -1));
            }
            steps.add(new Step(id, LenientJson.text(m.get("goal")).trim(), deps));
        }
        return steps.isEmpty() ? Optional.empty() : Optional.of(new Plan(steps, LenientJson.text(object.get().get("join_hint"))));
    }

    private static int toInt(Object v, int fallback) {
        try {
            return (int) Math.round(Double.parseDouble(LenientJson.text(v).trim()));
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static final Pattern VAGUE = Pattern.compile(
            "(?i)^\\s*(analy[sz]e|understand|look at|review|examine|explore|investigate|check|consider|分析|了解|查看|研究)\\b?");
    private static final Pattern ANY_WORD = Pattern.compile("[\\p{L}\\p{N}_]+");

    /**
     * Checks that the plan can be executed: at most {@link #MAX_STEPS} steps, unique ids, dependencies
     * only on earlier steps, and every goal concrete: it names a table or column of the selected schema
     * (or a value of the question) and does not open with a vague verb ("analyse sales").
     *
     * @param catalog the selected schema
     * @return the problems found, empty when the plan is executable
     */
    public List<String> problems(SchemaCatalog catalog) {
        List<String> out = new ArrayList<>();
        if (steps.size() > MAX_STEPS) {
            out.add("more than " + MAX_STEPS + " steps");
        }
        Set<String> names = new HashSet<>();
        for (SchemaCatalog.Table t : catalog.tables()) {
            names.add(t.name().toLowerCase(Locale.ROOT));
            for (SchemaCatalog.Column c : t.columns()) {
                names.add(c.name().toLowerCase(Locale.ROOT));
            }
        }
        Set<Integer> seen = new HashSet<>();
        for (Step s : steps) {
            if (!seen.add(s.id())) {
                out.add("step " + s.id() + " appears twice");
            }
            for (int d : s.dependsOn()) {
                if (!seen.contains(d) || d == s.id()) {
                    out.add("step " + s.id() + " depends on step " + d + ", which does not come before it");
                }
            }
            if (s.goal().isBlank()) {
                out.add("step " + s.id() + " has no goal");
                continue;
            }
            if (VAGUE.matcher(s.goal()).find()) {
                out.add("step " + s.id() + " is vague: " + s.goal());
                continue;
            }
            if (!namesSchema(s.goal(), names)) {
                out.add("step " + s.id() + " names no table or column: " + s.goal());
            }
        }
        return out;
    }

    private static boolean namesSchema(String goal, Set<String> names) {
        String lower = goal.toLowerCase(Locale.ROOT);
        var m = ANY_WORD.matcher(lower);
        while (m.find()) {
            String w = m.group();
            if (names.contains(w) || names.contains(w.replaceAll("s$", "")) || names.contains(w + "s")) {
                return true;
            }
            int dot = w.indexOf('.');
            if (dot > 0 && names.contains(w.substring(dot + 1))) {
                return true;
            }
        }
        for (String n : names) {
            if (n.length() >= 3 && lower.contains(n)) {
                return true;
            }
        }
        return false;
    }

    /** @return the plan as text for the refiner: one line per step, and the instruction to use CTEs */
    public String render() {
        StringBuilder sb = new StringBuilder("Plan (write one CTE per step, named step1, step2, …, assembled into one"
                + " WITH … SELECT statement):\n");
        for (Step s : steps) {
            sb.append(s.id()).append(". ").append(s.goal());
            if (!s.dependsOn().isEmpty()) {
                sb.append(" (uses step ").append(s.dependsOn().toString().replaceAll("[\\[\\]]", "")).append(')');
            }
            sb.append('\n');
        }
        if (!joinHint.isBlank()) {
            sb.append("Joins: ").append(joinHint).append('\n');
        }
        return sb.toString();
    }
}
