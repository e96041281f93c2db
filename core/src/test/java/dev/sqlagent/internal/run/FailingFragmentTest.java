package dev.sqlagent.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FailingFragmentTest {

    @Test
    void locatesTheNamesRealEnginesReport() {
        assertThat(FailingFragment.locate("Column \"USER_NAME\" not found; SQL statement: SELECT user_name FROM users"
                + " [42122-252]", "SELECT user_name FROM users")).contains("user_name");
        assertThat(FailingFragment.locate("[SQLITE_ERROR] SQL error or missing database (no such column: T2.nme)",
                "SELECT T2.nme FROM singer AS T2")).contains("T2.nme");
        assertThat(FailingFragment.locate("ERROR: column \"nme\" does not exist\n  Position: 8", "SELECT nme FROM t"))
                .contains("nme");
        assertThat(FailingFragment.locate("Unknown column 'segment' in 'field list'", "SELECT segment FROM orders"))
                .contains("segment");
        assertThat(FailingFragment.locate("table does not exist: order", "SELECT COUNT(*) FROM order")).contains("order");
    }

    @Test
    void returnsNothingWhenTheNameIsNotInTheSql() {
        assertThat(FailingFragment.locate("Column \"X\" not found", "SELECT a FROM t")).isEmpty();
        assertThat(FailingFragment.locate("something odd happened", "SELECT a FROM t")).isEmpty();
    }
}
