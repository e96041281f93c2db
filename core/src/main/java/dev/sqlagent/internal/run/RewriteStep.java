package dev.sqlagent.internal.run;

import dev.sqlagent.AgentRole;
import dev.sqlagent.internal.AgentConfig;
import dev.sqlagent.internal.Prompts;
import dev.sqlagent.trace.Stage;
import java.util.Optional;

/**
 * REWRITE: a follow-up in a conversation becomes a self-contained question. A failed rewrite keeps the
 * question as asked; it is noted, never fatal.
 */
final class RewriteStep implements Step {

    private final AgentConfig config;
    private final Models models;
    private final Prompts prompts;

    RewriteStep(AgentConfig config, Models models, Prompts prompts) {
        this.config = config;
        this.models = models;
        this.prompts = prompts;
    }

    @Override
    public boolean wanted(RunState state) {
        return state.conversation() != null && !state.conversation().turns().isEmpty();
    }

    @Override
    public Outcome run(RunState state) {
        String question = state.question();
        try {
            String reply = models.call(state, AgentRole.REWRITER, Stage.REWRITE,
                    prompts.rewrite(state.conversation().historyText(), question), true, 1).get(0);
            Optional<String> rewritten = RewriteReply.parse(reply, config.maxQuestionLength());
            if (rewritten.isEmpty()) {
                state.note(Stage.REWRITE, "rewrite", "the rewrite held no question; the question is kept as asked");
            } else {
                state.note(Stage.REWRITE, "rewrite", "\"" + question + "\" -> \"" + rewritten.get() + "\"");
                state.rewriteQuestion(rewritten.get());
            }
        } catch (Models.ModelFailure e) {
            state.note(Stage.REWRITE, "rewrite", "the rewrite failed (" + e.getMessage()
                    + "); the question is kept as asked");
        }
        return new Outcome.Prepared("rewritten");
    }
}
