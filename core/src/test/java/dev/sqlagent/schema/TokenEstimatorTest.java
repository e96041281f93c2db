package dev.sqlagent.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TokenEstimatorTest {

    private final TokenEstimator estimator = TokenEstimator.heuristic();

    @Test
    void emptyAndBlankTextCostNothing() {
        assertThat(estimator.estimate("")).isZero();
        assertThat(estimator.estimate("  \n\t ")).isZero();
    }

    @Test
    void englishCostsAboutOneTokenPerFourCharactersOfEachWord() {
        // real GPT-4 tokenizer: How / many / singers / do / we / have / ? = 7
        assertThat(estimator.estimate("How many singers do we have?")).isEqualTo(8);
        assertThat(estimator.estimate("department")).isEqualTo(3);
        assertThat(estimator.estimate("a b c")).isEqualTo(3);
    }

    @Test
    void eachChineseCharacterCostsOneToken() {
        assertThat(estimator.estimate("每个部门的销售额")).isEqualTo(8);
        assertThat(estimator.estimate("华东区，")).isEqualTo(4);
    }

    @Test
    void mixedTextAddsTheScriptsUp() {
        // 销 售 额 (3) + "orders" (2) + . (1) + "amount" (2) + ： (1)
        assertThat(estimator.estimate("销售额 orders.amount：")).isEqualTo(9);
    }

    @Test
    void punctuationCountsOneTokenEach() {
        assertThat(estimator.estimate("(a, b);")).isEqualTo(6);
    }

    @Test
    void theEstimateIsNeverBelowAThirdOfTheCharactersOfDenseSchemaText() {
        String ddl = "CREATE TABLE orders (id INT, employee_id INT, amount DECIMAL(12,2), PRIMARY KEY (id));";
        assertThat(estimator.estimate(ddl)).isGreaterThan(ddl.length() / 4);
    }
}
