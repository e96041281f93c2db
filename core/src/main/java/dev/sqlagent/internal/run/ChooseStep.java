package dev.sqlagent.internal.run;

import dev.sqlagent.choose.CandidateChooser;
import dev.sqlagent.choose.ChoiceCandidate;
import dev.sqlagent.choose.FinalistJudge;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.TraceEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * CHOOSE: {@link CandidateChooser} scores the groups of equal results (vote, near agreement, fit to the
 * question, schema links, verifier findings); with a judge, the finalist groups go to it side by side and
 * its pick wins. The scores are noted in the trace, signal by signal.
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
        Map<Integer, List<String>> found = new HashMap<>();
        for (Ran r : successes) {
            List<String> f = state.callerSql() ? List.of() : findings.of(state.question(), r);
            found.put(r.candidate(), f);
            in.add(new ChoiceCandidate(r.candidate(), r.sql(), r.table(), f, List.of()));
            byIndex.put(r.candidate(), r);
        }
        CandidateChooser.Choice c = chooser.choose(state.question(), state.catalog(), in);
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
}
