package dev.sqlagent.vector;

import java.util.Map;
import java.util.Objects;

/**
 * One search hit.
 *
 * @param id the stored entry's id
 * @param score cosine similarity to the query, -1 to 1
 * @param metadata the metadata stored with the entry, unmodifiable
 */
public record VectorMatch(String id, double score, Map<String, String> metadata) {

    /**
     * Copies and checks the parts.
     *
     * @param id the stored entry's id, not null
     * @param score cosine similarity to the query, -1 to 1
     * @param metadata the metadata stored with the entry, not null; copied into an unmodifiable map
     * @throws NullPointerException if the id, the metadata or one of its keys or values is null
     */
    public VectorMatch {
        Objects.requireNonNull(id, "id");
        metadata = Map.copyOf(Objects.requireNonNull(metadata, "metadata"));
    }
}
