package dev.sqlagent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuestionRunTest {

    @Test
    void topLevelOrderByIsToldApartFromOneInASubqueryOrAString() {
        assertThat(QuestionRun.ordersAtTopLevel("SELECT a FROM t ORDER BY a")).isTrue();
        assertThat(QuestionRun.ordersAtTopLevel("select a from t order\n  by a desc")).isTrue();
        assertThat(QuestionRun.ordersAtTopLevel("SELECT a FROM (SELECT a FROM t ORDER BY a) x")).isFalse();
        assertThat(QuestionRun.ordersAtTopLevel("SELECT 'order by' FROM t")).isFalse();
        assertThat(QuestionRun.ordersAtTopLevel("SELECT reorder FROM t")).isFalse();
    }
}
