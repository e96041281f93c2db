package dev.sqlagent.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InMemoryVectorStoreTest extends VectorStoreContract {

    @TempDir
    Path dir;

    @Override
    protected VectorStore newStore(int dimension) {
        return new InMemoryVectorStore(dimension);
    }

    private static InMemoryVectorStore filled(int n) {
        InMemoryVectorStore s = new InMemoryVectorStore(DIM);
        Random rnd = new Random(7);
        for (int i = 0; i < n; i++) {
            s.add("case-" + i, random(rnd), Map.of("status", i % 2 == 0 ? "good" : "bad", "问题", "第" + i + "个"));
        }
        return s;
    }

    @Test
    void savedStoreLoadsWithTheSameEntriesAndAnswers() throws IOException {
        InMemoryVectorStore s = filled(200);
        s.remove("case-3");
        Path file = dir.resolve("cases.sqvs");
        s.save(file);
        InMemoryVectorStore loaded = InMemoryVectorStore.load(file);
        assertThat(loaded.size()).isEqualTo(199);
        assertThat(loaded.dimension()).isEqualTo(DIM);
        float[] q = random(new Random(8));
        assertThat(loaded.search(q, 10, VectorFilter.eq("status", "good")))
                .isEqualTo(s.search(q, 10, VectorFilter.eq("status", "good")));
        assertThat(loaded.search(q, 300, m -> true)).isEqualTo(s.search(q, 300, m -> true));
    }

    @Test
    void savingReplacesAnExistingFile() throws IOException {
        Path file = dir.resolve("cases.sqvs");
        filled(10).save(file);
        filled(3).save(file);
        assertThat(InMemoryVectorStore.load(file).size()).isEqualTo(3);
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
    }

    @Test
    void emptyStoreRoundTrips() throws IOException {
        Path file = dir.resolve("empty.sqvs");
        new InMemoryVectorStore(384).save(file);
        InMemoryVectorStore loaded = InMemoryVectorStore.load(file);
        assertThat(loaded.size()).isZero();
        assertThat(loaded.dimension()).isEqualTo(384);
    }

    @Test
    void truncatedFileIsReportedAsTruncated() throws IOException {
        Path file = dir.resolve("cases.sqvs");
        filled(50).save(file);
        byte[] bytes = Files.readAllBytes(file);
        for (int cut : new int[] {2, 10, bytes.length / 2, bytes.length - 3}) {
            Files.write(file, Arrays.copyOf(bytes, cut));
            assertThatThrownBy(() -> InMemoryVectorStore.load(file))
                    .as("cut at %d of %d bytes", cut, bytes.length)
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(file.toString())
                    .hasMessageContaining("truncated");
        }
    }

    @Test
    void flippedByteIsReportedAsCorrupt() throws IOException {
        Path file = dir.resolve("cases.sqvs");
        filled(50).save(file);
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 100] ^= 0x10;
        Files.write(file, bytes);
        assertThatThrownBy(() -> InMemoryVectorStore.load(file))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("corrupt");
    }

    @Test
    void otherFilesAndNewerVersionsAreRefusedWithAClearMessage() throws IOException {
        Path text = dir.resolve("notes.txt");
        Files.writeString(text, "hello, this is not a vector store");
        assertThatThrownBy(() -> InMemoryVectorStore.load(text))
                .isInstanceOf(IOException.class).hasMessageContaining("not a vector store file");

        Path file = dir.resolve("cases.sqvs");
        filled(2).save(file);
        byte[] bytes = Files.readAllBytes(file);
        bytes[7] = 9;
        Files.write(file, bytes);
        assertThatThrownBy(() -> InMemoryVectorStore.load(file))
                .isInstanceOf(IOException.class).hasMessageContaining("format version 9");
    }

    @Test
    void hugeEntryCountInTheHeaderDoesNotExhaustMemory() throws IOException {
        Path file = dir.resolve("cases.sqvs");
        filled(2).save(file);
        byte[] bytes = Files.readAllBytes(file);
        bytes[12] = 0x7f;
        Files.write(file, bytes);
        assertThatThrownBy(() -> InMemoryVectorStore.load(file))
                .isInstanceOf(IOException.class).hasMessageContaining("cannot fit");
    }

    @Test
    void zeroVectorIsStoredButSimilarToNothing() {
        InMemoryVectorStore s = new InMemoryVectorStore(DIM);
        s.add("empty-question", new float[DIM], Map.of());
        s.add("axis", axis(0), Map.of());
        List<VectorMatch> hits = s.search(axis(0), 2, m -> true);
        assertThat(hits.get(0).id()).isEqualTo("axis");
        assertThat(hits.get(1).score()).isZero();
    }

    @Test
    void nonFiniteComponentsAreRejected() {
        InMemoryVectorStore s = new InMemoryVectorStore(DIM);
        float[] v = axis(0);
        v[3] = Float.NaN;
        assertThatThrownBy(() -> s.add("nan", v, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finite");
        assertThat(s.size()).isZero();
    }

    @Test
    void scanMatchesAPlainLoopOnLargerData() {
        int dim = 384;
        InMemoryVectorStore s = new InMemoryVectorStore(dim);
        Random rnd = new Random(9);
        float[][] plain = new float[3000][];
        for (int i = 0; i < plain.length; i++) {
            float[] v = new float[dim];
            for (int d = 0; d < dim; d++) {
                v[d] = (float) rnd.nextGaussian();
            }
            plain[i] = VectorMath.normalise(v);
            s.add(Integer.toString(i), v, Map.of());
        }
        float[] q = plain[17].clone();
        q[0] += 0.3f;
        float[] qn = VectorMath.normalise(q);
        Integer[] order = new Integer[plain.length];
        double[] scores = new double[plain.length];
        for (int i = 0; i < plain.length; i++) {
            order[i] = i;
            double dot = 0;
            for (int d = 0; d < dim; d++) {
                dot += (double) qn[d] * plain[i][d];
            }
            scores[i] = dot;
        }
        Arrays.sort(order, (a, b) -> Double.compare(scores[b], scores[a]));
        List<VectorMatch> hits = s.search(q, 10, m -> true);
        assertThat(hits.stream().map(VectorMatch::id).toList())
                .containsExactlyElementsOf(Arrays.stream(order).limit(10).map(String::valueOf).toList());
    }
}
