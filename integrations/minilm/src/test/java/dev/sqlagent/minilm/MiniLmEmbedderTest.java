package dev.sqlagent.minilm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.sqlagent.vector.HashingEmbedder;
import dev.sqlagent.vector.InMemoryVectorStore;
import dev.sqlagent.vector.VectorMatch;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class MiniLmEmbedderTest {

    private static MiniLmEmbedder embedder;

    @BeforeAll
    static void loadModel() {
        embedder = MiniLmEmbedder.create();
    }

    private static double cosine(float[] x, float[] y) {
        double dot = 0;
        for (int i = 0; i < x.length; i++) {
            dot += x[i] * y[i];
        }
        return dot;
    }

    private static double cosine(String a, String b) {
        return cosine(embedder.embed(a), embedder.embed(b));
    }

    @Test
    void paraphrasesScoreHigherThanUnrelatedQuestions() {
        String q = "How many employees work in each department?";
        double paraphrase = cosine(q, "What is the number of staff per department?");
        double unrelated = cosine(q, "Which singers released an album after 2010?");
        assertThat(paraphrase).isGreaterThan(0.6);
        assertThat(unrelated).isLessThan(0.3);
        assertThat(paraphrase).isGreaterThan(unrelated + 0.3);
    }

    @Test
    void paraphraseIsFoundWhereHashingFindsLittle() {
        String q = "Show the total revenue for every customer";
        String paraphrase = "What is the sum of sales per client?";
        HashingEmbedder hashing = HashingEmbedder.create();
        assertThat(cosine(embedder.embed(q), embedder.embed(paraphrase)))
                .isGreaterThan(cosine(hashing.embed(q), hashing.embed(paraphrase)) + 0.3);
    }

    @Test
    void nearestCaseInAStoreIsTheParaphrase() {
        InMemoryVectorStore store = new InMemoryVectorStore(embedder.dimension());
        List<String> cases = List.of(
                "What is the number of staff per department?",
                "List all singers older than 30",
                "Which stadium hosted the most concerts?",
                "Show the average price of products by category");
        for (String c : cases) {
            store.add(c, embedder.embed(c), Map.of());
        }
        List<VectorMatch> hits = store.search(embedder.embed("How many employees work in each department?"), 1, m -> true);
        assertThat(hits.get(0).id()).isEqualTo("What is the number of staff per department?");
    }

    @Test
    void vectorsHave384DimensionsUnitLengthAndAreDeterministic() {
        float[] v = embedder.embed("Count the orders of 2023");
        assertThat(v).hasSize(MiniLmEmbedder.DIMENSION);
        assertThat(cosine(v, v)).isCloseTo(1.0, within(1e-5));
        assertThat(embedder.embed("Count the orders of 2023")).containsExactly(v);
    }

    @Test
    void blankTextGivesTheZeroVectorAndNullIsRejected() {
        assertThat(embedder.embed("")).hasSize(MiniLmEmbedder.DIMENSION).containsOnly(0f);
        assertThat(embedder.embed(" \n")).containsOnly(0f);
        assertThatThrownBy(() -> embedder.embed(null)).isInstanceOf(NullPointerException.class);
    }

    /** A model that answers every text with this vector. */
    private static EmbeddingModel answering(float[] vector) {
        return new EmbeddingModel() {
            @Override
            public Response<Embedding> embed(String text) {
                return Response.from(Embedding.from(vector.clone()));
            }
        };
    }

    @Test
    void aModelVectorIsNormalisedAndOneWithANonFiniteComponentIsRefused() {
        float[] raw = new float[MiniLmEmbedder.DIMENSION];
        raw[0] = 3f;
        raw[1] = 4f;
        MiniLmEmbedder fixed = new MiniLmEmbedder(answering(raw.clone()));
        float[] v = fixed.embed("any");
        assertThat(v[0]).isCloseTo(0.6f, within(1e-6f));
        assertThat(v[1]).isCloseTo(0.8f, within(1e-6f));
        assertThat(raw[0]).isEqualTo(3f);

        raw[2] = Float.NaN;
        MiniLmEmbedder broken = new MiniLmEmbedder(answering(raw.clone()));
        assertThatThrownBy(() -> broken.embed("any")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("component 2 must be finite");
    }
}
