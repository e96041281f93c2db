package dev.sqlagent.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.execution.ResultTable;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class QuestionNumbersVerifierTest {

    private static final ResultTable ANY = new ResultTable(List.of(), List.of(), false, Duration.ZERO);
    private final ResultVerifier verifier = Verifiers.questionNumbersInSql();

    @Test
    void aNumberOfTheQuestionMissingFromTheSqlIsFlagged() {
        assertThat(verifier.check("Singers older than 40?", "SELECT name FROM singer WHERE age > 50", ANY))
                .hasValueSatisfying(f -> assertThat(f).contains("states 40"));
    }

    @Test
    void numbersInsideLiteralsAndLimitsCount() {
        assertThat(verifier.check("Orders placed in 2010?", "SELECT * FROM o WHERE d LIKE '2010-%'", ANY)).isEmpty();
        assertThat(verifier.check("The top 3 singers", "SELECT name FROM singer ORDER BY sales DESC LIMIT 3", ANY))
                .isEmpty();
    }

    @Test
    void aNumberIsNotFoundInsideALargerOne() {
        assertThat(verifier.check("Cars with 4 cylinders", "SELECT * FROM cars WHERE cylinders = 40", ANY)).isPresent();
    }

    @Test
    void atLeastNWrittenAsGreaterThanNMinusOneIsAccepted() {
        assertThat(verifier.check("Grades with 4 or more students?",
                "SELECT grade FROM s GROUP BY grade HAVING count(*) > 3", ANY)).isEmpty();
    }

    @Test
    void numbersGluedToLettersAreNotTakenFromTheQuestion() {
        assertThat(verifier.check("Flights of the A380 on the 3rd day", "SELECT * FROM f", ANY)).isEmpty();
    }
}
