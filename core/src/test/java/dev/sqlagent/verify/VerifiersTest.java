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

class VerifiersTest {

    private static ResultTable table(List<String> columns, Object[]... rows) {
        List<ResultColumn> cols = new ArrayList<>();
        for (String c : columns) {
            cols.add(new ResultColumn(c, "VARCHAR", Types.VARCHAR));
        }
        List<List<Object>> rs = new ArrayList<>();
        for (Object[] r : rows) {
            rs.add(Arrays.asList(r));
        }
        return new ResultTable(cols, rs, false, Duration.ZERO);
    }

    @Test
    void emptyResultIsFlaggedUnlessTheQuestionAsksWhetherSomethingExists() {
        ResultVerifier v = Verifiers.nonEmptyWhenRowsExpected();
        ResultTable empty = table(List.of("name"));
        assertThat(v.check("Which singers are French?", "SELECT name FROM singer WHERE country = 'France'", empty))
                .isPresent();
        assertThat(v.check("Is there any singer from France?", "SELECT 1 FROM singer WHERE country = 'France'", empty))
                .isEmpty();
        assertThat(v.check("是否有来自法国的歌手？", "SELECT 1", empty)).isEmpty();
    }

    @Test
    void yearOrThresholdMissingFromTheSqlIsFlagged() {
        ResultVerifier v = Verifiers.questionNumbersInSql();
        ResultTable any = table(List.of("n"), new Object[] {"1"});
        assertThat(v.check("How many orders in 2023?", "SELECT COUNT(*) FROM orders", any)).get().asString()
                .contains("2023");
        assertThat(v.check("How many orders in 2023?",
                "SELECT COUNT(*) FROM orders WHERE order_date >= '2023-01-01'", any)).isEmpty();
        assertThat(v.check("Customers with more than three orders",
                "SELECT c FROM o GROUP BY c HAVING COUNT(*) > 3", any)).isEmpty();
        assertThat(v.check("Customers with more than three orders", "SELECT c FROM o GROUP BY c", any)).isPresent();
        assertThat(v.check("销售额超过500万的部门", "SELECT d FROM s WHERE amount > 5000000", any)).isEmpty();
        assertThat(v.check("销售额超过500万的部门", "SELECT d FROM s WHERE amount > 500", any)).isEmpty();
        assertThat(v.check("销售额超过500万的部门", "SELECT d FROM s", any)).get().asString().contains("500万");
        assertThat(v.check("countries that speak at least 3 languages",
                "SELECT name FROM c GROUP BY name HAVING COUNT(*) > 2", any)).isEmpty();
    }

    @Test
    void columnNullInEveryRowIsFlagged() {
        ResultVerifier v = Verifiers.allNullColumns();
        assertThat(v.check("q", "s", table(List.of("a", "b"), new Object[] {"x", null}, new Object[] {"y", null})))
                .get().asString().contains("b");
        assertThat(v.check("q", "s", table(List.of("a", "b"), new Object[] {"x", null}, new Object[] {"y", "z"})))
                .isEmpty();
    }

    @Test
    void topOnePerGroupMustNotRepeatTheGroup() {
        ResultVerifier v = Verifiers.onePerGroup();
        String sql = "SELECT dept_name, name FROM (SELECT d.dept_name, e.name, ROW_NUMBER() OVER (PARTITION BY"
                + " d.dept_name ORDER BY s DESC) rn FROM e JOIN d ON d.id = e.d) x";
        ResultTable repeated = table(List.of("dept_name", "name"), new Object[] {"Sales", "a"},
                new Object[] {"Sales", "b"}, new Object[] {"Support", "c"});
        ResultTable unique = table(List.of("dept_name", "name"), new Object[] {"Sales", "a"},
                new Object[] {"Support", "c"});
        assertThat(v.check("每个部门中销售额最高的员工是谁", sql, repeated)).get().asString().contains("3 rows for 2");
        assertThat(v.check("Who sold the most in each department?", sql, unique)).isEmpty();
        assertThat(v.check("List employees by department", sql, repeated)).isEmpty();
    }
}
