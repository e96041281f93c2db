package dev.sqlagent.springai;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

/**
 * A Spring AI embedding model for tests: a bag of words hashed into 64 dimensions, so it is deterministic and
 * texts sharing words are similar. Records every text it embeds.
 */
final class WordsEmbeddingModel implements EmbeddingModel {

    final List<String> embedded = new CopyOnWriteArrayList<>();

    @Override
    public EmbeddingResponse call(EmbeddingRequest request) {
        List<Embedding> out = new ArrayList<>();
        for (String t : request.getInstructions()) {
            embedded.add(t);
            float[] v = new float[64];
            for (String w : t.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
                if (!w.isEmpty()) {
                    v[Math.floorMod(w.hashCode(), 64)] += 1;
                }
            }
            out.add(new Embedding(v, out.size()));
        }
        return new EmbeddingResponse(out);
    }

    @Override
    public float[] embed(Document document) {
        return embed(document.getText());
    }

    @Override
    public int dimensions() {
        return 64;
    }
}
