package dev.sqlagent.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.vector.VectorFilter;
import dev.sqlagent.vector.VectorMatch;
import dev.sqlagent.vector.VectorStore;
import dev.sqlagent.vector.VectorStoreContract;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;
import org.springframework.ai.vectorstore.SearchRequest;
import org.springframework.ai.vectorstore.SimpleVectorStore;
import org.springframework.ai.vectorstore.filter.Filter;

/** The vector store contract, run against Spring AI's own SimpleVectorStore built with a VectorCodec. */
class SpringAiVectorStoreTest extends VectorStoreContract {

    @Override
    protected VectorStore newStore(int dimension) {
        return SpringAiVectorStore.create(dimension, codec -> SimpleVectorStore.builder(codec).build());
    }

    @Test
    void vectorFiltersRunInsideTheSpringAiStore() {
        SimpleVectorStore inner = SimpleVectorStore.builder(VectorCodec.of(DIM)).build();
        SpringAiVectorStore store = SpringAiVectorStore.of(inner, DIM);
        store.add("a", axis(0), Map.of("status", "good", "table", "orders"));
        store.add("b", axis(0), Map.of("status", "bad", "table", "orders"));

        Filter.Expression expression = SpringAiVectorStore.translate(VectorFilter.allOf(
                VectorFilter.eq("table", "orders"), VectorFilter.in("status", "good", "fine")));
        List<Document> hits = inner.similaritySearch(SearchRequest.builder().query(VectorCodec.encode(axis(0)))
                .topK(5).filterExpression(expression).build());
        assertThat(hits).extracting(d -> d.getMetadata().get(SpringAiVectorStore.ID_KEY)).containsExactly("a");
        assertThat(expression.type()).isEqualTo(Filter.ExpressionType.AND);
        assertThat(SpringAiVectorStore.translate(VectorFilter.everything())).isNull();
        assertThat(SpringAiVectorStore.translate(VectorFilter.allOf())).isNull();
    }

    @Test
    void aValueTheStoresCannotQuoteIsFilteredHereInstead() {
        SpringAiVectorStore store = SpringAiVectorStore.create(DIM, codec -> SimpleVectorStore.builder(codec).build());
        store.add("quote", axis(0), Map.of("name", "O'Brien"));
        store.add("other", axis(0), Map.of("name", "Smith"));
        store.add("odd-key", axis(1), Map.of("my-key", "x"));

        assertThat(SpringAiVectorStore.pushable(VectorFilter.eq("name", "O'Brien"))).isFalse();
        assertThat(SpringAiVectorStore.pushable(VectorFilter.eq("my-key", "x"))).isFalse();
        assertThat(SpringAiVectorStore.pushable(VectorFilter.eq("name", "Smith"))).isTrue();
        // a quote pasted into the SimpleVectorStore's SpEL filter would break it (or worse); run here, it selects
        assertThat(store.search(axis(0), 5, VectorFilter.eq("name", "O'Brien"))).extracting(VectorMatch::id)
                .containsExactly("quote");
        assertThat(store.search(axis(0), 5, VectorFilter.eq("name", "x' || true || '"))).isEmpty();
        assertThat(store.search(axis(0), 5, VectorFilter.eq("my-key", "x"))).extracting(VectorMatch::id)
                .containsExactly("odd-key");
    }

    @Test
    void reservedMetadataKeysAreRefused() {
        VectorStore store = newStore(DIM);
        assertThatThrownBy(() -> store.add("a", axis(0), Map.of(SpringAiVectorStore.ID_KEY, "b")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
    }

    @Test
    void documentsOfTheHostShareAStoreBuiltOverItsOwnModel() {
        EmbeddingModel words = new EmbeddingModel() {
            @Override
            public EmbeddingResponse call(EmbeddingRequest request) {
                return new EmbeddingResponse(request.getInstructions().stream()
                        .map(t -> new org.springframework.ai.embedding.Embedding(axis(t.length() % DIM), 0)).toList());
            }

            @Override
            public float[] embed(Document document) {
                return axis(document.getText().length() % DIM);
            }
        };
        SimpleVectorStore shared = SimpleVectorStore.builder(VectorCodec.over(words)).build();
        shared.add(List.of(new Document("abc", Map.of("source", "host"))));
        SpringAiVectorStore cases = SpringAiVectorStore.of(shared, DIM);
        cases.add("case-1", axis(3), Map.of("kind", "good"));

        // the host's document lies on the same axis but is no case: the adapter skips it
        assertThat(cases.search(axis(3), 5, m -> true)).extracting(VectorMatch::id).containsExactly("case-1");
        assertThat(shared.similaritySearch(SearchRequest.builder().query("xyz").topK(5).build()))
                .extracting(Document::getText).contains("abc");
    }

    @Test
    void theCodecRoundTripsVectorsAndRefusesOtherTextsWithoutADelegate() {
        float[] v = {1.5f, -0.25f, Float.MIN_VALUE, 0f};
        assertThat(VectorCodec.decode(VectorCodec.encode(v))).containsExactly(v);
        assertThat(VectorCodec.decode("plain text")).isNull();
        assertThat(VectorCodec.of(4).dimensions()).isEqualTo(4);
        assertThatThrownBy(() -> VectorCodec.of(4).embed("plain text")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("VectorCodec.over");
    }
}
