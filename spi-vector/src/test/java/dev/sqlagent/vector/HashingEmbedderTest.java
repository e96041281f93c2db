package dev.sqlagent.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class HashingEmbedderTest {

    private final HashingEmbedder embedder = HashingEmbedder.create();

    private double cosine(String a, String b) {
        float[] x = embedder.embed(a);
        float[] y = embedder.embed(b);
        double dot = 0;
        for (int i = 0; i < x.length; i++) {
            dot += x[i] * y[i];
        }
        return dot;
    }

    @Test
    void nearDuplicateEnglishQuestionsScoreHigh() {
        assertThat(cosine("How many orders did each customer place in 2023?",
                "how many orders did each customer place in 2024")).isGreaterThan(0.75);
        assertThat(cosine("List the names of all singers older than 30",
                "List the names of all the singers older than 40")).isGreaterThan(0.7);
    }

    @Test
    void nearDuplicateChineseQuestionsScoreHigh() {
        assertThat(cosine("查询2023年每个客户的订单数量", "查询2023年每位客户的订单数量")).isGreaterThan(0.7);
        assertThat(cosine("统计每个部门的员工人数", "统计各个部门的员工人数是多少")).isGreaterThan(0.6);
    }

    @Test
    void unrelatedQuestionsScoreLow() {
        assertThat(cosine("How many orders did each customer place in 2023?",
                "What is the average salary of engineers hired after March?")).isLessThan(0.25);
        assertThat(cosine("查询2023年每个客户的订单数量", "列出所有员工的姓名和工资")).isLessThan(0.25);
        assertThat(cosine("查询2023年每个客户的订单数量", "List the names of all singers")).isLessThan(0.25);
    }

    @Test
    void nearDuplicateOutranksMerelyRelated() {
        String q = "Show the name of the stadium with the most concerts";
        assertThat(cosine(q, "show the name of the stadium with the most concerts in 2014"))
                .isGreaterThan(cosine(q, "How many concerts are there?"));
    }

    @Test
    void fullWidthAndCaseDoNotMatter() {
        assertThat(cosine("ＳＥＬＥＣＴ ｏｒｄｅｒｓ ２０２３", "select ORDERS 2023")).isCloseTo(1.0, within(1e-6));
    }

    @Test
    void sameTextGivesTheSameVectorEveryTime() {
        String text = "各部门 average salary, 2023";
        assertThat(HashingEmbedder.create().embed(text)).containsExactly(embedder.embed(text));
    }

    @Test
    void hashingIsPinnedSoThatStoredVectorsStayValid() {
        // A change here orphans every case a user has stored: bump a version and say so instead.
        float r = 0.4082483f;
        assertThat(HashingEmbedder.withDimension(16).embed("orders per customer 订单"))
                .containsExactly(0f, 0f, r, r, 0f, 0f, -r, r, 0f, 0f, 0f, r, r, 0f, 0f, 0f);
    }

    @Test
    void vectorsAreUnitLength() {
        float[] v = embedder.embed("Which cities have more than 3 airports?");
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        assertThat(v).hasSize(HashingEmbedder.DEFAULT_DIMENSION);
        assertThat(norm).isCloseTo(1.0, within(1e-5));
    }

    @Test
    void emptyOrPunctuationOnlyTextGivesTheZeroVector() {
        assertThat(embedder.embed("")).containsOnly(0f).hasSize(384);
        assertThat(embedder.embed("  ?!。，")).containsOnly(0f);
        assertThatThrownBy(() -> embedder.embed(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void dimensionBelowSixteenIsRejected() {
        assertThatThrownBy(() -> HashingEmbedder.withDimension(8))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("8");
    }
}
