package dev.sqlagent.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.execution.ResultColumn;
import dev.sqlagent.execution.ResultTable;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultGroupsTest {

    private static ResultTable t(Object... values) {
        List<List<Object>> rows = new ArrayList<>();
        for (Object v : values) {
            rows.add(Arrays.asList(v));
        }
        return new ResultTable(List.of(new ResultColumn("v", "INT", Types.INTEGER)), rows, false, Duration.ZERO);
    }

    @Test
    void equalResultsShareAGroupInOrderOfFirstMemberAndFailuresBelongToNone() {
        List<ResultTable> results = Arrays.asList(t(1L, 2L), null, t(3L), t(2L, 1L), t(3.0));
        assertThat(ResultGroups.of(results, ResultEquivalence.standard())).containsExactly(List.of(0, 3), List.of(2, 4));
        assertThat(ResultGroups.majority(results, ResultEquivalence.standard())).isZero();
        assertThat(ResultGroups.majority(Arrays.asList(null, t(1L), t(2L), t(2L)), ResultEquivalence.standard()))
                .isEqualTo(2);
        assertThat(ResultGroups.majority(Arrays.asList((ResultTable) null), ResultEquivalence.standard())).isEqualTo(-1);
    }

    @Test
    void thePositionalComparisonDoesNotPermuteColumns() {
        ResultTable ab = new ResultTable(List.of(new ResultColumn("a", "INT", 4), new ResultColumn("b", "INT", 4)),
                List.of(List.of(1L, 2L)), false, Duration.ZERO);
        ResultTable ba = new ResultTable(List.of(new ResultColumn("b", "INT", 4), new ResultColumn("a", "INT", 4)),
                List.of(List.of(2L, 1L)), false, Duration.ZERO);
        assertThat(ResultEquivalence.standard().equivalent(ab, ba, false)).isTrue();
        assertThat(ResultEquivalence.positional().equivalent(ab, ba, false)).isFalse();
        assertThat(ResultEquivalence.positional().equivalent(ab, ab, true)).isTrue();
    }
}
