package dev.sqlagent.internal;

import dev.sqlagent.schema.SchemaCatalog;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/** Completes a selector's choice deterministically before the refiner sees it. */
final class SchemaSelections {

    private SchemaSelections() {
    }

    /**
     * @param catalog the whole (allowed) catalog
     * @param question the question
     * @param chosen the selector's tables and columns, names checked
     * @param notes receives a sentence per addition
     * @return the completed selection
     */
    static Map<String, Set<String>> complete(SchemaCatalog catalog, String question, Map<String, Set<String>> chosen,
            Consumer<String> notes) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        chosen.forEach((t, cs) -> out.put(t, new LinkedHashSet<>(cs)));
        return out;
    }
}
