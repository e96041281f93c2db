package dev.sqlagent.internal.run;

import dev.sqlagent.AgentRole;
import dev.sqlagent.internal.JudgeReply;
import dev.sqlagent.internal.Prompts;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.TraceEvent;
import dev.sqlagent.verify.JudgeVerdict;
import java.util.List;
import java.util.Optional;

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
