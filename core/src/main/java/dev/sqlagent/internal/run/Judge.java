package dev.sqlagent.internal.run;

import dev.sqlagent.AgentRole;
import dev.sqlagent.choose.CandidateChooser;
import dev.sqlagent.choose.FinalistJudge;
import dev.sqlagent.internal.JudgeReply;
import dev.sqlagent.internal.Prompts;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.TraceEvent;
import dev.sqlagent.verify.JudgeVerdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Asks the judge model about one result, at most once per candidate and round. A failing judge call is
 * noted and counts as no verdict: the judge is advice, not a gate. Stateless; one per agent.
 */
final class Judge {

    private final Models models;
    private final Prompts prompts;

    Judge(Models models, Prompts prompts) {
        this.models = models;
        this.prompts = prompts;
    }

    /**
     * Asks the judge to pick among finalist groups shown side by side; its verdict on the pick is kept for
     * verification, so the pick is not judged again.
     *
     * @param state the question's state
     * @param finalists the finalist groups, best score first
     * @param byIndex the candidates that ran, by index
     * @return the index of the finalist picked, empty when the judge picked none
     */
    OptionalInt pick(RunState state, List<CandidateChooser.GroupScore> finalists, Map<Integer, Ran> byIndex) {
        List<FinalistJudge.Finalist> shown = new ArrayList<>();
        for (CandidateChooser.GroupScore g : finalists) {
            Ran r = byIndex.get(g.preferred());
            shown.add(new FinalistJudge.Finalist(r.sql(), r.table()));
        }
        try {
            String reply = models.call(state, AgentRole.JUDGE, Stage.CHOOSE, prompts.judgeChoice(state.question(),
                    FinalistJudge.render(shown), state.schemaText()), true, 1).get(0);
            OptionalInt pick = FinalistJudge.parseChoice(reply, shown.size());
            if (pick.isEmpty()) {
                state.note(Stage.CHOOSE, "judge", "the judge's reply named none of the " + shown.size() + " finalists");
                return pick;
            }
            Ran ran = byIndex.get(finalists.get(pick.getAsInt()).preferred());
            Optional<JudgeVerdict> verdict = JudgeReply.parse(reply);
            verdict.ifPresent(v -> state.add(new TraceEvent.Judged(ran.candidate(), state.round(), v)));
            state.judged().put(state.round() + ":" + ran.candidate(), verdict);
            return pick;
        } catch (Models.ModelFailure e) {
            state.note(Stage.CHOOSE, "judge", "the judge could not be asked: " + e.getMessage());
            return OptionalInt.empty();
        }
    }

    /**
     * @param state the question's state
     * @param ran a candidate that ran without error
     * @param stage the stage asking
     * @return the verdict, empty when the judge gave none
     */
    Optional<JudgeVerdict> verdict(RunState state, Ran ran, Stage stage) {
        String key = state.round() + ":" + ran.candidate();
        Optional<JudgeVerdict> known = state.judged().get(key);
        if (known != null) {
            return known;
        }
        Optional<JudgeVerdict> verdict;
        try {
            List<String> replies = models.call(state, AgentRole.JUDGE, stage,
                    prompts.judge(state.question(), ran.sql(), JudgeReply.summary(ran.table()), state.schemaText()),
                    true, 1);
            verdict = JudgeReply.parse(replies.get(0));
            if (verdict.isEmpty()) {
                state.note(Stage.VERIFY, "judge", "the judge's reply held no readable verdict");
            }
        } catch (Models.ModelFailure e) {
            state.note(Stage.VERIFY, "judge", "the judge could not be asked: " + e.getMessage());
            verdict = Optional.empty();
        }
        verdict.ifPresent(v -> state.add(new TraceEvent.Judged(ran.candidate(), state.round(), v)));
        state.judged().put(key, verdict);
        return verdict;
    }
}
