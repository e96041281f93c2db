package dev.sqlagent.verify;

import dev.sqlagent.execution.ResultTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Groups results that are the same answer ({@link ResultEquivalence}, rows compared as multisets): the
 * grouping behind execution consistency, shared by the agent's choice and the evaluator's baselines.
 * Pure and thread-safe.
 */
public final class ResultGroups {

    private ResultGroups() {
    }

    /**
     * Groups results that are the same answer.
     *
     * @param results the results in candidate order; a null entry is a candidate that did not run and
     *     belongs to no group
     * @param equivalence the comparison
     * @return the groups in order of their first member, each the ascending indices of its members
     */
    public static List<List<Integer>> of(List<ResultTable> results, ResultEquivalence equivalence) {
        Objects.requireNonNull(results, "results");
        Objects.requireNonNull(equivalence, "equivalence");
        List<List<Integer>> groups = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            ResultTable t = results.get(i);
            if (t == null) {
                continue;
            }
            List<Integer> home = null;
            for (List<Integer> g : groups) {
                if (equivalence.equivalent(results.get(g.get(0)), t, false)) {
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
        List<List<Integer>> out = new ArrayList<>();
        for (List<Integer> g : groups) {
            out.add(Collections.unmodifiableList(g));
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * Plain execution consistency: the earliest member of the largest group, ties to the group whose first
     * member comes first.
     *
     * @param results the results in candidate order, null for a candidate that did not run
     * @param equivalence the comparison
     * @return the winner's index, or -1 when no candidate ran
     */
    public static int majority(List<ResultTable> results, ResultEquivalence equivalence) {
        List<Integer> best = null;
        for (List<Integer> g : of(results, equivalence)) {
            if (best == null || g.size() > best.size()) {
                best = g;
            }
        }
        return best == null ? -1 : best.get(0);
    }
}
