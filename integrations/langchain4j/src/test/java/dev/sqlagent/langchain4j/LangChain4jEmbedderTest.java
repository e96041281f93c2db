package dev.sqlagent.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.sqlagent.vector.HashingEmbedder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LangChain4jEmbedderTest {

    /** An embedding model that hashes words, as sqlagent's HashingEmbedder does, and counts its calls. */
    private static final class HashingModel implements EmbeddingModel {
        final HashingEmbedder hashing = HashingEmbedder.withDimension(32);
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
            calls.incrementAndGet();
            List<Embedding> out = new ArrayList<>();
            for (TextSegment s : segments) {
                out.add(Embedding.from(hashing.embed(s.text())));
            }
            return Response.from(out);
        }
    }

    @Test
    void embedsThroughTheModelWithItsDimension() {
        HashingModel model = new HashingModel();
        LangChain4jEmbedder embedder = LangChain4jEmbedder.of(model);

        float[] v = embedder.embed("orders per customer");

        assertThat(v).containsExactly(model.hashing.embed("orders per customer"));
        assertThat(embedder.dimension()).isEqualTo(v.length);
        assertThat(model.calls).hasValue(1);
    }

    @Test
    void blankTextIsTheZeroVectorWithoutAskingTheModelAgain() {
        HashingModel model = new HashingModel();
        LangChain4jEmbedder embedder = LangChain4jEmbedder.of(model);
        int dim = embedder.embed("x").length;
        float[] blank = embedder.embed("   ");
        assertThat(blank).hasSize(dim).containsOnly(0f);
        assertThat(model.calls).hasValue(1);
    }

    @Test
    void aVectorOfAnotherDimensionIsAnErrorNamingTheModel() {
        AtomicInteger call = new AtomicInteger();
        EmbeddingModel shifting = new EmbeddingModel() {
            @Override
            public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
                return Response.from(List.of(Embedding.from(new float[call.incrementAndGet() == 1 ? 4 : 5])));
            }
        };
        LangChain4jEmbedder embedder = LangChain4jEmbedder.of(shifting);
        embedder.embed("first");
        assertThatThrownBy(() -> embedder.embed("second")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("5 dimensions after vectors of 4")
                .hasMessageContaining(shifting.getClass().getName());
    }
}
