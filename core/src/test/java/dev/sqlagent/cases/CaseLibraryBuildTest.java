package dev.sqlagent.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.vector.Embedder;
import dev.sqlagent.vector.HashingEmbedder;
import dev.sqlagent.vector.InMemoryVectorStore;
import org.junit.jupiter.api.Test;

/** The case library refuses, when built, a store and an embedder that disagree on the dimension. */
class CaseLibraryBuildTest {

    @Test
    void aStoreOfAnotherDimensionThanTheEmbedderIsRefusedNamingBoth() {
        CaseLibrary.Builder b = CaseLibrary.builder().store(new InMemoryVectorStore(768))
                .embedder(HashingEmbedder.create());

        assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class)
                .hasMessage("store dimension 768 does not match embedder dimension 384 (caseLibrary.store "
                        + "InMemoryVectorStore vs caseLibrary.embedder HashingEmbedder)");
    }

    @Test
    void theDefaultEmbedderAndAStoreOfItsDimensionBuild() {
        CaseLibrary library = CaseLibrary.builder()
                .store(new InMemoryVectorStore(HashingEmbedder.DEFAULT_DIMENSION)).build();

        assertThat(library.store().dimension()).isEqualTo(HashingEmbedder.DEFAULT_DIMENSION);
    }

    @Test
    void anEmbedderThatDoesNotSayItsDimensionIsProbed() {
        Embedder eight = text -> new float[8];

        assertThat(CaseLibrary.builder().embedder(eight).build().store().dimension()).isEqualTo(8);
        assertThatThrownBy(() -> CaseLibrary.builder().embedder(eight).store(new InMemoryVectorStore(16)).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("store dimension 16 does not match embedder dimension 8");
    }

    @Test
    void anEmbedderReportingNoDimensionIsRefused() {
        Embedder none = text -> new float[0];

        assertThatThrownBy(() -> CaseLibrary.builder().embedder(none).build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("reports dimension 0 (caseLibrary.embedder)");
    }
}
