package dev.sqlagent.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.sqlagent.vector.VectorFilter;
import dev.sqlagent.vector.VectorStore;
import dev.sqlagent.vector.VectorStoreContract;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The vector store contract, run against LangChain4j's own in-memory embedding store. */
class LangChain4jVectorStoreTest extends VectorStoreContract {

    @Override
    protected VectorStore newStore(int dimension) {
        return LangChain4jVectorStore.of(new InMemoryEmbeddingStore<TextSegment>(), dimension);
    }

    @Test
    void vectorFiltersRunInsideTheLangChain4jStore() {
        InMemoryEmbeddingStore<TextSegment> inner = new InMemoryEmbeddingStore<>();
        LangChain4jVectorStore store = LangChain4jVectorStore.of(inner, DIM);
        store.add("a", axis(0), Map.of("status", "good"));
        store.add("b", axis(0), Map.of("status", "bad"));

        // the store itself, searched with the translated filter, finds only the good entry
        assertThat(inner.search(dev.langchain4j.store.embedding.EmbeddingSearchRequest.builder()
                        .queryEmbedding(dev.langchain4j.data.embedding.Embedding.from(axis(0))).maxResults(5)
                        .filter(LangChain4jVectorStore.translate(VectorFilter.eq("status", "good"))).build())
                .matches()).extracting(m -> m.embeddingId()).containsExactly("a");
        assertThat(LangChain4jVectorStore.translate(VectorFilter.everything())).isNull();
        assertThat(LangChain4jVectorStore.translate(VectorFilter.allOf())).isNull();
    }
}
