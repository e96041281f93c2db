package dev.sqlagent.choose;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.execution.ResultTable;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class FinalistJudgeTest {

    @Test
    void finalistsAreTheGroupsWithinOneVoteOfTheBest() {
        ResultTable a = CandidateChooserTest.table(List.of("n"), new Object[] {1L});
        ResultTable b = CandidateChooserTest.table(List.of("n"), new Object[] {2L});
        ResultTable c = CandidateChooserTest.table(List.of("n"), new Object[] {3L});
        CandidateChooser chooser = CandidateChooser.standard();
        CandidateChooser.Choice tie = chooser.choose("Which n?", null, List.of(ChoiceCandidate.of(0, "SELECT 1", a),
                ChoiceCandidate.of(1, "SELECT 2", b), ChoiceCandidate.of(2, "SELECT 3", c)));
        assertThat(FinalistJudge.finalists(tie)).hasSize(3);

        CandidateChooser.Choice clear = chooser.choose("Which n?", null, List.of(ChoiceCandidate.of(0, "SELECT 1", a),
                ChoiceCandidate.of(1, "SELECT 1 ", a), ChoiceCandidate.of(2, "SELECT 3", c)));
        assertThat(FinalistJudge.finalists(clear)).hasSize(1);
    }

    @Test
    void renderShowsEachAnswerWithItsSqlAndAFewRows() {
        Object[][] rows = new Object[7][];
        for (int i = 0; i < 7; i++) {
            rows[i] = new Object[] {"name" + i, (long) i};
        }
        String text = FinalistJudge.render(List.of(
                new FinalistJudge.Finalist("SELECT name, age FROM p", CandidateChooserTest.table(List.of("name", "age"), rows)),
                new FinalistJudge.Finalist("SELECT name FROM p WHERE 0", CandidateChooserTest.table(List.of("name")))));
        assertThat(text).contains("Answer 1:\nSQL: SELECT name, age FROM p\nResult: 7 rows; columns [name, age]")
                .contains("  name0 | 0").contains("  name4 | 4").doesNotContain("name5").contains("… 2 more")
                .contains("Answer 2:").contains("Result: 0 rows");
    }

    @Test
    void theReplyIsReadLeniently() {
        assertThat(FinalistJudge.parseChoice("{\"choice\": 2, \"is_correct\": true}", 3)).isEqualTo(OptionalInt.of(1));
        assertThat(FinalistJudge.parseChoice("Sure: ```json\n{'choice': 'Answer 3', 'reason': 'x'}\n```", 3))
                .isEqualTo(OptionalInt.of(2));
        assertThat(FinalistJudge.parseChoice("{\"answer\": \"1\"}", 2)).isEqualTo(OptionalInt.of(0));
        assertThat(FinalistJudge.parseChoice("2 - it filters on the right column", 2)).isEqualTo(OptionalInt.of(1));
        assertThat(FinalistJudge.parseChoice("{\"choice\": 4}", 3)).isEmpty();
        assertThat(FinalistJudge.parseChoice("{\"choice\": 0}", 3)).isEmpty();
        assertThat(FinalistJudge.parseChoice("{\"is_correct\": true}", 3)).isEmpty();
        assertThat(FinalistJudge.parseChoice("I cannot tell.", 3)).isEmpty();
        assertThat(FinalistJudge.parseChoice(null, 3)).isEmpty();
    }
}
