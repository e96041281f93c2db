package dev.sqlagent.internal.run;

import dev.sqlagent.AgentResult;
import dev.sqlagent.internal.AgentConfig;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.verify.JudgeVerdict;
import java.util.List;
import java.util.Optional;

/**
 * VERIFY: the verifiers' findings on the chosen result, and, when they found nothing and the judge is
 * configured, the judge's review. A flagged result is kept as the answer that may stand if the
 * correction cannot improve on it.
 */
final class VerifyStep implements Step {

    private final AgentConfig config;
    private final Judge judge;
    private final boolean verifiers;

    VerifyStep(AgentConfig config, Judge judge) {
        this.verifiers = !config.verifiers().isEmpty();
        this.config = config;
        this.judge = judge;
    }

    @Override
    public Outcome run(RunState state) {
        Ran chosen = state.chosen();
        if (state.callerSql()) {
            // no question to hold the result to: the caller's SQL is neither verified nor judged
            return new Outcome.Verified(List.of(), false);
        }
        List<String> findings = state.chosenFindings();
        boolean checked = verifiers;
        for (String f : findings) {
            state.note(Stage.VERIFY, "verifier", f);
        }
        if (findings.isEmpty() && config.judgeEnabled()) {
            Optional<JudgeVerdict> verdict = judge.verdict(state, chosen, Stage.VERIFY);
            checked |= verdict.isPresent();
            if (verdict.isPresent() && !verdict.get().correct()) {
                findings = List.of(verdict.get().feedback());
            }
        }
        if (!findings.isEmpty()) {
            state.flag(new AgentResult.Answered(state.question(), chosen.sql(), chosen.executedSql(), chosen.table(),
                    state.trace()));
        }
        return new Outcome.Verified(findings, checked);
    }
}
