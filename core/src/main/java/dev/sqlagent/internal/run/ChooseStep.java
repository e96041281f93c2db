package dev.sqlagent.internal.run;

import dev.sqlagent.choose.CandidateChooser;
import dev.sqlagent.choose.ChoiceCandidate;
import dev.sqlagent.choose.FinalistJudge;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.TraceEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * CHOOSE: {@link CandidateChooser} scores the groups of equal results (vote, near agreement, fit to the
 * question, schema links, verifier findings); with a judge, the finalist groups go to it side by side and
 * its pick wins. The scores are noted in the trace, signal by signal. When nothing opposes (one candidate
 * ran, or all gave one answer) nothing is scored ({@link CandidateChooser#uncontested}) and only the
 * candidate taken is verified.
 */
final class ChooseStep implements Step {

    private final CandidateChooser chooser;
    private final Findings findings;
    private final Judge judge;

    /**
     * @param chooser scores the groups
     * @param findings the verifiers
     * @param judge the judge, or null when none is configured
     */
    ChooseStep(CandidateChooser chooser, Findings findings, Judge judge) {
        this.chooser = chooser;
        this.findings = findings;
        this.judge = judge;
    }

    @Override
    public Outcome run(RunState state) {
        List<Ran> successes = ((Outcome.Executed) state.last()).successes();
        List<ChoiceCandidate> in = new ArrayList<>();
        Map<Integer, Ran> byIndex = new HashMap<>();
        for (Ran r : successes) {
            in.add(new ChoiceCandidate(r.candidate(), r.sql(), r.table(), List.of(), List.of()));
            byIndex.put(r.candidate(), r);
        }
        // one candidate, or one answer from all: nothing to score, and the verifiers read the one taken
        Optional<CandidateChooser.Choice> uncontested = chooser.uncontested(state.question(), in);
        if (uncontested.isPresent()) {
            CandidateChooser.Choice c = uncontested.get();
            Ran chosen = byIndex.get(c.chosen());
            state.note(Stage.CHOOSE, "choice", c.explain());
            state.add(new TraceEvent.Chosen(c.chosen(), state.round(), c.groupSizes(), c.ruleWithSignal()));
            state.choose(chosen, findingsOf(state, chosen, new HashMap<>()));
            return new Outcome.Chosen(c.ruleWithSignal());
        }
        Map<Integer, List<String>> found = new HashMap<>();
        Map<String, List<Map.Entry<Ran, List<String>>>> seen = new HashMap<>();
        List<ChoiceCandidate> verified = new ArrayList<>();
        for (Ran r : successes) {
            List<String> f = findingsOf(state, r, seen);
            found.put(r.candidate(), f);
            verified.add(new ChoiceCandidate(r.candidate(), r.sql(), r.table(), f, List.of()));
        }
        CandidateChooser.Choice c = chooser.choose(state.question(), state.catalog(), verified);
        int pick = c.chosen();
        String rule = c.ruleWithSignal();
        List<CandidateChooser.GroupScore> finalists = FinalistJudge.finalists(c);
        if (judge != null && finalists.size() > 1) {
            OptionalInt judged = judge.pick(state, finalists, byIndex);
            if (judged.isPresent()) {
                pick = finalists.get(judged.getAsInt()).preferred();
                rule = "judge";
            }
        }
        state.note(Stage.CHOOSE, "choice", c.explain());
        state.add(new TraceEvent.Chosen(pick, state.round(), c.groupSizes(), rule));
        state.choose(byIndex.get(pick), found.get(pick));
        return new Outcome.Chosen(rule);
    }

    /**
     * The verifiers' findings on one candidate, run once per distinct SQL and result of the round: two
     * candidates with the same SQL and the same answer share the findings (the verifiers are deterministic).
     * Caller SQL (an outside agent's) is not verified.
     */
    private List<String> findingsOf(RunState state, Ran r, Map<String, List<Map.Entry<Ran, List<String>>>> seen) {
        if (state.callerSql()) {
            return List.of();
        }
        List<Map.Entry<Ran, List<String>>> bySql = seen.computeIfAbsent(r.sql(), k -> new ArrayList<>());
        for (Map.Entry<Ran, List<String>> e : bySql) {
            if (same(e.getKey().table(), r.table())) {
                return e.getValue();
            }
        }
        List<String> f = findings.of(state.question(), r);
        bySql.add(Map.entry(r, f));
        return f;
    }

    /** Results the verifiers cannot tell apart: the same columns and the same rows, in the same order. */
    private static boolean same(ResultTable a, ResultTable b) {
        return a.truncated() == b.truncated() && a.columns().equals(b.columns()) && a.rows().equals(b.rows());
    }
}
