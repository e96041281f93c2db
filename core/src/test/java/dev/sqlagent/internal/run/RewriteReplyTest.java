package dev.sqlagent.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RewriteReplyTest {

    @Test
    void jsonIsReadFirst() {
        assertThat(RewriteReply.parse("{\"question\": \"How many orders in 2022?\"}", 400))
                .contains("How many orders in 2022?");
        assertThat(RewriteReply.parse("Here you go:\n```json\n{\"question\": \"How many?\"}\n```", 400))
                .contains("How many?");
    }

    @Test
    void preamblesLabelsAndQuotesArePassedOver() {
        assertThat(RewriteReply.parse("Sure! Here is the rewritten question:\n\nHow many orders in 2022?", 400))
                .contains("How many orders in 2022?");
        assertThat(RewriteReply.parse("Sure! Here is the rewritten question: How many orders in 2022?", 400))
                .contains("How many orders in 2022?");
        assertThat(RewriteReply.parse("Rewritten question: \"How many orders in 2022?\"", 400))
                .contains("How many orders in 2022?");
        assertThat(RewriteReply.parse("好的，改写后的问题：\n2022 年有多少订单？", 400)).contains("2022 年有多少订单？");
    }

    @Test
    void aReplyThatIsNotAQuestionReadsAsNone() {
        assertThat(RewriteReply.parse("", 400)).isEmpty();
        assertThat(RewriteReply.parse("SELECT COUNT(*) FROM orders", 400)).isEmpty();
        assertThat(RewriteReply.parse("I'm sorry, I cannot help with that.", 400)).isEmpty();
        assertThat(RewriteReply.parse("{\"question\": null}", 400)).isEmpty();
        assertThat(RewriteReply.parse("x".repeat(500), 400)).isEmpty();
    }
}
