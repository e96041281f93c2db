package dev.sqlagent.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.execution.ResultColumn;
import dev.sqlagent.execution.ResultTable;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The verifiers read each question once, and never answer one question with another's reading. */
class LastQuestionTest {

    @Test
    void aQuestionIsReadOnceWhileItLasts() {
        List<String> read = new ArrayList<>();
        LastQuestion<Integer> length = new LastQuestion<>(q -> {
            read.add(q);
            return q.length();
        });
        assertThat(length.of("how many?")).isEqualTo(9);
        assertThat(length.of(new String("how many?"))).isEqualTo(9);
        assertThat(length.of("which?")).isEqualTo(6);
        assertThat(length.of("how many?")).isEqualTo(9);
        assertThat(read).containsExactly("how many?", "which?", "how many?");
    }

    @Test
    void theStandardVerifiersAnswerEachQuestionWithItsOwnReading() {
        ResultVerifier numbers = Verifiers.questionNumbersInSql();
        ResultVerifier empty = Verifiers.nonEmptyWhenRowsExpected();
        ResultTable none = new ResultTable(List.of(new ResultColumn("n", "INTEGER", Types.INTEGER)), List.of(), false,
                Duration.ZERO);
        String sql = "SELECT n FROM t WHERE n > 3";
        assertThat(numbers.check("Which are above 3?", sql, none)).isEmpty();
        assertThat(numbers.check("Which are above 5?", sql, none)).contains(
                "the question states 5 but the SQL never uses it");
        assertThat(numbers.check("Which are above 3?", sql, none)).isEmpty();
        assertThat(empty.check("Is there any above 3?", sql, none)).isEmpty();
        assertThat(empty.check("Which are above 3?", sql, none)).isPresent();
        assertThat(empty.check("Is there any above 3?", sql, none)).isEmpty();
    }
}
