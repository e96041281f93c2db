package dev.sqlagent.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link ModelEmbedder}: the dimension fixed once, blank texts as zero vectors, bad vectors named errors. */
class ModelEmbedderTest {

    @Test
    void theFirstVectorFixesTheDimensionAndALaterOneOfAnotherLengthIsAnError() {
        AtomicInteger length = new AtomicInteger(3);
        ModelEmbedder e = ModelEmbedder.of("m", () -> 99, t -> new float[length.get()]);
        assertThat(e.embed("a")).hasSize(3);
        assertThat(e.dimension()).isEqualTo(3); // fixed by the vector: the report is not asked
        length.set(4);
        assertThatThrownBy(() -> e.embed("b")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("embedding model m returned a vector of 4 dimensions after vectors of 3");
    }

    @Test
    void aBlankTextIsTheZeroVectorWithoutCallingTheModel() {
        AtomicInteger calls = new AtomicInteger();
        ModelEmbedder e = ModelEmbedder.of("m", () -> 2, t -> {
            calls.incrementAndGet();
            return new float[] {1, 2};
        });
        assertThat(e.embed("  ")).containsExactly(0f, 0f);
        assertThat(calls).hasValue(0);
    }

    @Test
    void noVectorOrNoDimensionIsAnErrorNamingTheModel() {
        assertThatThrownBy(() -> ModelEmbedder.of("m", () -> 2, t -> null).embed("a"))
                .isInstanceOf(IllegalStateException.class).hasMessage("embedding model m returned no vector");
        assertThatThrownBy(() -> ModelEmbedder.of("m", () -> 0, t -> new float[0]).dimension())
                .isInstanceOf(IllegalStateException.class).hasMessage("embedding model m reports dimension 0");
    }

    @Test
    void theVectorReturnedIsACopy() {
        float[] inner = {1, 2};
        ModelEmbedder e = ModelEmbedder.of("m", () -> 2, t -> inner);
        e.embed("a")[0] = 7;
        assertThat(inner[0]).isEqualTo(1f);
    }
}
