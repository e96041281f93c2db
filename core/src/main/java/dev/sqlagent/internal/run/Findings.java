package dev.sqlagent.internal.run;

import dev.sqlagent.verify.ResultVerifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Runs the agent's deterministic verifiers on a result. Stateless; one per agent. */
final class Findings {

    private final List<ResultVerifier> verifiers;

    /** @param verifiers the verifiers, in order */
    Findings(List<ResultVerifier> verifiers) {
        this.verifiers = List.copyOf(verifiers);
    }

    /**
     * @param question the question
     * @param ran a candidate that ran without error
     * @return what the verifiers found, empty when nothing
     * @throws IllegalStateException if a verifier broke its contract by returning null
     */
    List<String> of(String question, Ran ran) {
        List<String> findings = new ArrayList<>();
        for (ResultVerifier v : verifiers) {
            Optional<String> f = v.check(question, ran.sql(), ran.table());
            if (f == null) {
                throw new IllegalStateException("ResultVerifier " + v.getClass().getName() + " returned null");
            }
            f.ifPresent(findings::add);
        }
        return findings;
    }
}
