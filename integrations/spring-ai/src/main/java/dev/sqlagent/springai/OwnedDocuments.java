package dev.sqlagent.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.springframework.ai.document.Document;

/**
 * What {@link SpringAiVectorStore} and {@link SpringAiCaseStore} share: the entries they own in a Spring AI
 * store (Spring AI has neither a count nor a replace), and the documents they write for them, whose metadata
 * holds the entry's own keys, its id ({@value SpringAiVectorStore#ID_KEY}) and its metadata as JSON
 * ({@value SpringAiVectorStore#METADATA_KEY}). An id is replaced or removed atomically with respect to the
 * other writers of the same id through this object.
 */
final class OwnedDocuments {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final org.springframework.ai.vectorstore.VectorStore store;
    private final Function<String, String> documentId;
    private final Map<String, Boolean> ids = new ConcurrentHashMap<>();

    /**
     * @param store the Spring AI store
     * @param documentId the Spring AI document id of an entry id
     */
    OwnedDocuments(org.springframework.ai.vectorstore.VectorStore store, Function<String, String> documentId) {
        this.store = Objects.requireNonNull(store, "store");
        this.documentId = documentId;
    }

    /**
     * Checks an entry's id and metadata against the SPI and the reserved keys.
     *
     * @param id the entry id
     * @param metadata its metadata
     * @param reserved the metadata keys the adapter keeps for itself
     * @throws NullPointerException if the id or the metadata is null
     * @throws IllegalArgumentException if the id is blank or the metadata uses a reserved key
     */
    static void check(String id, Map<String, String> metadata, List<String> reserved) {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("id must not be blank");
        }
        Objects.requireNonNull(metadata, "metadata");
        if (reserved.stream().anyMatch(metadata::containsKey)) {
            throw new IllegalArgumentException("metadata keys " + String.join(", ", reserved) + " are reserved");
        }
    }

    /**
     * Writes an entry as a document, replacing the one of the same id.
     *
     * @param id the entry id, checked by {@link #check}
     * @param text the document's text
     * @param metadata the entry's metadata, checked by {@link #check}
     * @param extra more metadata of the adapter's own
     */
    void put(String id, String text, Map<String, String> metadata, Map<String, Object> extra) {
        Map<String, Object> stored = new HashMap<>(metadata);
        stored.putAll(extra);
        stored.put(SpringAiVectorStore.ID_KEY, id);
        try {
            stored.put(SpringAiVectorStore.METADATA_KEY, JSON.writeValueAsString(metadata));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("metadata cannot be written as JSON", e);
        }
        Document document = new Document(documentId.apply(id), text, stored);
        ids.compute(id, (key, present) -> {
            // replaced by deleting first: not every store overwrites a document added again under its id
            store.delete(List.of(document.getId()));
            store.add(List.of(document));
            return Boolean.TRUE;
        });
    }

    /**
     * Removes an entry written through this object.
     *
     * @param id the entry id
     * @return whether it was there
     */
    boolean remove(String id) {
        Objects.requireNonNull(id, "id");
        boolean[] removed = {false};
        ids.computeIfPresent(id, (key, present) -> {
            store.delete(List.of(documentId.apply(key)));
            removed[0] = true;
            return null;
        });
        return removed[0];
    }

    /** {@return how many entries were written through this object and not removed} */
    int size() {
        return ids.size();
    }
}
