package dev.sqlagent.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.ResultColumn;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.trace.TraceEvent;
import dev.sqlagent.verify.ResultVerifier;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Choosing among synthetic results: no database, no model. */
class ChooseStepTest {

    private static Ran ran(int candidate, String sql, Object... values) {
        List<List<Object>> rows = new ArrayList<>();
        for (Object v : values) {
            rows.add(List.of(v));
        }
        ResultTable t = new ResultTable(List.of(new ResultColumn("v", "INTEGER", Types.INTEGER)), rows, false,
                Duration.ZERO);
        return new Ran(candidate, sql, sql, new ExecutionOutcome.Success(t));
    }

    private static RunState choose(ChooseStep step, Ran... successes) {
        RunState s = new RunState("q", "how many?", null, GuardPolicy.allowingTables("t"), "", "");
        s.last(new Outcome.Executed(List.of(successes), null));
        Outcome o = step.run(s);
        assertThat(o).isInstanceOf(Outcome.Chosen.class);
        return s;
    }

    private static String rule(RunState s) {
        return s.events().stream().filter(TraceEvent.Chosen.class::isInstance).map(TraceEvent.Chosen.class::cast)
                .findFirst().orElseThrow().rule();
    }

    @Test
    void theLargestGroupOfEquivalentResultsWins() {
        RunState s = choose(new ChooseStep(dev.sqlagent.choose.CandidateChooser.standard(), new Findings(List.of()), null),
                ran(0, "SELECT 1", 1), ran(1, "SELECT 2", 2), ran(2, "SELECT 2 AS v", 2));
        assertThat(s.chosen().candidate()).isEqualTo(1);
        assertThat(rule(s)).isEqualTo("majority");
    }

    @Test
    void aTieGoesToTheGroupTheVerifiersDoNotFlag() {
        ResultVerifier noOnes = (q, sql, table) -> table.rows().get(0).get(0).equals(1)
                ? Optional.of("one is suspicious") : Optional.empty();
        RunState s = choose(new ChooseStep(dev.sqlagent.choose.CandidateChooser.standard(), new Findings(List.of(noOnes)), null),
                ran(0, "SELECT 1", 1), ran(1, "SELECT 2", 2));
        assertThat(s.chosen().candidate()).isEqualTo(1);
        assertThat(s.chosenFindings()).isEmpty();
        assertThat(rule(s)).isEqualTo("signals (findings)");
    }

    @Test
    void aTieNobodyBreaksGoesToTheEarliestAndKeepsItsFindings() {
        ResultVerifier all = (q, sql, table) -> Optional.of("flagged");
        RunState s = choose(new ChooseStep(dev.sqlagent.choose.CandidateChooser.standard(), new Findings(List.of(all)), null),
                ran(0, "SELECT 1", 1), ran(1, "SELECT 2", 2));
        assertThat(s.chosen().candidate()).isZero();
        assertThat(s.chosenFindings()).containsExactly("flagged");
        assertThat(rule(s)).isEqualTo("order");
    }

    @Test
    void withinTheWinningGroupACandidateThatOrdersItsRowsIsPreferred() {
        RunState s = choose(new ChooseStep(dev.sqlagent.choose.CandidateChooser.standard(), new Findings(List.of()), null),
                ran(0, "SELECT v FROM t", 2, 1), ran(1, "SELECT v FROM t ORDER BY v DESC", 2, 1));
        assertThat(s.chosen().candidate()).isEqualTo(1);
        assertThat(rule(s)).isEqualTo("unanimous");
    }

    /** A verifier that counts what it was asked and flags every result. */
    private static final class Counting implements ResultVerifier {
        final List<String> asked = new ArrayList<>();

        @Override
        public Optional<String> check(String question, String sql, dev.sqlagent.execution.ResultTable table) {
            asked.add(sql + " -> " + table.rows());
            return Optional.of("seen " + sql);
        }
    }

    @Test
    void oneCandidateIsTakenWithoutScoringAndVerifiedOnce() {
        Counting v = new Counting();
        RunState s = choose(new ChooseStep(dev.sqlagent.choose.CandidateChooser.standard(), new Findings(List.of(v)), null),
                ran(3, "SELECT 1", 1));
        assertThat(s.chosen().candidate()).isEqualTo(3);
        assertThat(rule(s)).isEqualTo("only");
        assertThat(s.chosenFindings()).containsExactly("seen SELECT 1");
        assertThat(v.asked).hasSize(1);
    }

    @Test
    void oneAnswerFromAllVerifiesOnlyTheCandidateTaken() {
        Counting v = new Counting();
        RunState s = choose(new ChooseStep(dev.sqlagent.choose.CandidateChooser.standard(), new Findings(List.of(v)), null),
                ran(0, "SELECT v FROM t", 2, 1), ran(1, "SELECT v FROM t ORDER BY v DESC", 2, 1),
                ran(2, "SELECT v FROM t", 2, 1));
        assertThat(s.chosen().candidate()).isEqualTo(1);
        assertThat(rule(s)).isEqualTo("unanimous");
        assertThat(s.chosenFindings()).containsExactly("seen SELECT v FROM t ORDER BY v DESC");
        assertThat(v.asked).containsExactly("SELECT v FROM t ORDER BY v DESC -> [[2], [1]]");
    }

    @Test
    void contestedCandidatesAreVerifiedOncePerDistinctSqlAndResult() {
        Counting v = new Counting();
        RunState s = choose(new ChooseStep(dev.sqlagent.choose.CandidateChooser.standard(), new Findings(List.of(v)), null),
                ran(0, "SELECT 2", 2), ran(1, "SELECT 1", 1), ran(2, "SELECT 2", 2), ran(3, "SELECT 2 AS v", 2));
        assertThat(s.chosen().candidate()).isZero();
        assertThat(rule(s)).isEqualTo("majority");
        // candidate 2 repeats candidate 0's SQL and answer: its findings are 0's, not asked again
        assertThat(v.asked).containsExactly("SELECT 2 -> [[2]]", "SELECT 1 -> [[1]]", "SELECT 2 AS v -> [[2]]");
        assertThat(s.chosenFindings()).containsExactly("seen SELECT 2");
    }
}
