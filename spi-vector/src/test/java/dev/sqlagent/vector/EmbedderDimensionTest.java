package dev.sqlagent.vector;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** An embedder says its dimension: the ones that know it without embedding, any other by a probe. */
class EmbedderDimensionTest {

    @Test
    void anEmbedderWithoutItsOwnDimensionIsMeasuredByAProbe() {
        AtomicInteger calls = new AtomicInteger();
        Embedder lambda = text -> {
            calls.incrementAndGet();
            return new float[12];
        };

        assertThat(lambda.dimension()).isEqualTo(12);
        assertThat(calls.get()).isEqualTo(1);
    }

    @Test
    void theHashingEmbedderKnowsItsDimensionAndItIsTheLengthOfItsVectors() {
        assertThat(HashingEmbedder.create().dimension()).isEqualTo(HashingEmbedder.DEFAULT_DIMENSION)
                .isEqualTo(HashingEmbedder.create().embed("orders per region").length);
        assertThat(HashingEmbedder.withDimension(64).dimension()).isEqualTo(64)
                .isEqualTo(HashingEmbedder.withDimension(64).embed("orders").length);
    }
}
