package dev.sqlagent.internal.run;

import dev.sqlagent.internal.SqlTokens;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.TraceEvent;
import dev.sqlagent.verify.JudgeVerdict;
import dev.sqlagent.verify.ResultEquivalence;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * CHOOSE: execution consistency. Candidates whose results are the same answer form a group; the largest
 * group wins; among equally large groups, one whose result the verifiers do not flag, then the judge's
 * pick when it is configured, then the earliest candidate. Within the winning group a candidate that
 * orders its rows is preferred.
 */
final class ChooseStep implements Step {

    private static final ResultEquivalence EQUIVALENCE = ResultEquivalence.standard();

    private final Findings findings;
    private final Judge judge;

    /**
     * @param findings the verifiers
     * @param judge the judge, or null when none is configured
     */
    ChooseStep(Findings findings, Judge judge) {
        this.findings = findings;
        this.judge = judge;
    }

    @Override
    public Outcome run(RunState state) {
        List<Ran> successes = ((Outcome.Executed) state.last()).successes();
        List<List<Ran>> groups = groups(successes);
        int best = groups.get(0).size();
        List<List<Ran>> tied = new ArrayList<>();
        for (List<Ran> g : groups) {
            if (g.size() == best) {
                tied.add(g);
            }
        }
        String rule = groups.size() == 1 ? (successes.size() == 1 ? "only" : "unanimous")
                : tied.size() == 1 ? "majority" : "order";
        List<Ran> winner = tied.get(0);
        List<String> found = findings.of(state.question(), winner.get(0));
        if (tied.size() > 1 && !found.isEmpty()) {
            for (List<Ran> g : tied.subList(1, tied.size())) {
                List<String> f = findings.of(state.question(), g.get(0));
                if (f.isEmpty()) {
                    winner = g;
                    found = f;
                    rule = "verifiers";
                    break;
                }
            }
        }
        if (tied.size() > 1 && rule.equals("order") && judge != null) {
            int bestScore = -1;
            for (List<Ran> g : tied) {
                Optional<JudgeVerdict> v = judge.verdict(state, g.get(0), Stage.CHOOSE);
                int score = v.map(x -> x.correct() ? 100 + x.score() : x.score()).orElse(-1);
                if (score > bestScore) {
                    bestScore = score;
                    winner = g;
                }
            }
            if (bestScore >= 0) {
                rule = "judge";
                found = findings.of(state.question(), winner.get(0));
            }
        }
        List<Integer> sizes = new ArrayList<>();
        for (List<Ran> g : groups) {
            sizes.add(g.size());
        }
        // equal as multisets, the members may still differ in order: if any sorted, the question asked for
        // an order, so take the first member that sorts
        Ran pick = winner.get(0);
        for (Ran r : winner) {
            if (SqlTokens.ordersAtTopLevel(r.sql())) {
                pick = r;
                break;
            }
        }
        state.add(new TraceEvent.Chosen(pick.candidate(), state.round(), sizes, rule));
        state.choose(pick, pick == winner.get(0) ? found : findings.of(state.question(), pick));
        return new Outcome.Chosen(rule);
    }

    /** Groups of candidates with equivalent results, largest first, earliest first among equals. */
    private static List<List<Ran>> groups(List<Ran> successes) {
        List<List<Ran>> groups = new ArrayList<>();
        for (Ran r : successes) {
            List<Ran> home = null;
            for (List<Ran> g : groups) {
                if (EQUIVALENCE.equivalent(g.get(0).table(), r.table(), false)) {
                    home = g;
                    break;
                }
            }
            if (home == null) {
                home = new ArrayList<>();
                groups.add(home);
            }
            home.add(r);
        }
        groups.sort((a, b) -> Integer.compare(b.size(), a.size()));
        return groups;
    }
}
