package dev.sqlagent.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.execution.ResultColumn;
import dev.sqlagent.execution.ResultTable;
import java.sql.Types;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class GoldComparisonTest {

    @Test
    void onlyATopLevelOrderByMakesOrderMatter() {
        assertThat(GoldComparison.hasTopLevelOrderBy("SELECT name FROM singer ORDER BY age DESC")).isTrue();
        assertThat(GoldComparison.hasTopLevelOrderBy(
                "SELECT name FROM singer WHERE id IN (SELECT id FROM singer ORDER BY age LIMIT 3)")).isFalse();
        assertThat(GoldComparison.hasTopLevelOrderBy("SELECT name FROM singer WHERE note = 'order by'")).isFalse();
        assertThat(GoldComparison.hasTopLevelOrderBy("SELECT a FROM t UNION SELECT b FROM u ORDER BY 1")).isTrue();
    }

    @Test
    void unparseableGoldIsJudgedTextually() {
        assertThat(GoldComparison.hasTopLevelOrderBy("SELECT name FROM singer ORDER BY age ~~~ ")).isTrue();
        assertThat(GoldComparison.hasTopLevelOrderBy("SELECT ~~~ (SELECT 1 ORDER BY 1)")).isFalse();
    }

    @Test
    void rowOrderCountsOnlyWhenAsked() {
        ResultTable ab = table(List.of("a"), List.of("b"));
        ResultTable ba = table(List.of("b"), List.of("a"));

        assertThat(GoldComparison.matches(ab, ba, false)).isTrue();
        assertThat(GoldComparison.matches(ab, ba, true)).isFalse();
    }

    @SafeVarargs
    private static ResultTable table(List<Object>... rows) {
        return new ResultTable(List.of(new ResultColumn("name", "TEXT", Types.VARCHAR)), List.of(rows), false,
                Duration.ZERO);
    }
}
