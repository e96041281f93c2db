package dev.sqlagent.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.vector.VectorFilter;
import dev.sqlagent.vector.VectorMatch;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.ai.vectorstore.SimpleVectorStore;

/** {@link SpringAiCaseStore} over a SimpleVectorStore that embeds texts with a bag-of-words model. */
class SpringAiCaseStoreTest {

    private final SimpleVectorStore springAi = SimpleVectorStore.builder(
            new WordsEmbeddingModel()).build();
    private final SpringAiCaseStore store = SpringAiCaseStore.over(springAi);

    private float[] text(String t) {
        return store.embedder().embed(t);
    }

    @Test
    void theStoreEmbedsTheTextsAndRanksByItsOwnModel() {
        store.add("a", text("red apples in baskets"), Map.of("kind", "fruit"));
        store.add("b", text("blue cars on roads"), Map.of("kind", "car"));
        List<VectorMatch> hits = store.search(text("apples red"), 2, m -> true);
        assertThat(hits).extracting(VectorMatch::id).containsExactly("a", "b");
        assertThat(hits.get(0).score()).isGreaterThan(0.5);
        assertThat(hits.get(0).metadata()).containsExactly(Map.entry("kind", "fruit"));
        assertThat(store.search(text("apples red"), 5, VectorFilter.eq("kind", "car")))
                .extracting(VectorMatch::id).containsExactly("b");
        assertThat(store.search(text("apples red"), 5, m -> "car".equals(m.get("kind"))))
                .extracting(VectorMatch::id).containsExactly("b");
        assertThat(store.size()).isEqualTo(2);
        assertThat(store.remove("a")).isTrue();
        assertThat(store.remove("a")).isFalse();
        assertThat(store.search(text("apples red"), 5, m -> true)).extracting(VectorMatch::id).containsExactly("b");
    }

    @Test
    void aSameTextGetsTheSameHandleAndAForeignVectorIsRefused() {
        assertThat(text("one question")).containsExactly(text("one question"));
        assertThat(text("one question")).isNotEqualTo(text("another question"));
        assertThatThrownBy(() -> store.search(new float[] {0.25f}, 1, m -> true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("its own embedder()");
        assertThatThrownBy(() -> store.add("x", new float[] {123456}, Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.add("x", text("t"), Map.of(SpringAiCaseStore.NAMESPACE_KEY, "n")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
    }

    @Test
    void namespacesAndTheApplicationsDocumentsStayApart() {
        SpringAiCaseStore other = SpringAiCaseStore.over(springAi, "other-agent");
        springAi.add(List.of(new org.springframework.ai.document.Document("red apples everywhere")));
        store.add("a", text("red apples"), Map.of());
        other.add("a", other.embedder().embed("red apples"), Map.of("mine", "yes"));
        assertThat(store.search(text("red apples"), 5, m -> true)).singleElement()
                .satisfies(m -> assertThat(m.metadata()).isEmpty());
        assertThat(other.search(other.embedder().embed("red apples"), 5, m -> true)).singleElement()
                .satisfies(m -> assertThat(m.metadata()).containsEntry("mine", "yes"));
        assertThatThrownBy(() -> SpringAiCaseStore.over(springAi, "bad' OR 1==1"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
