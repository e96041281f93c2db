package dev.sqlagent.internal.run;

import dev.sqlagent.internal.SchemaText;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.schema.SchemaCompletion;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/** Completes a selector's choice deterministically (bridge and dimension tables) before the refiner sees it. */
final class SchemaSelections {

    private SchemaSelections() {
    }

    /**
     * @param catalog the whole (allowed) catalog
     * @param question the question
     * @param chosen the selector's tables and columns, names checked (an empty set: every column)
     * @param notes receives what the completion added and why
     * @return the completed selection
     */
    static Map<String, Set<String>> complete(SchemaCatalog catalog, String question, Map<String, Set<String>> chosen,
            Consumer<String> notes) {
        Map<String, Set<String>> withColumns = SchemaText.allColumnsWhereEmpty(catalog, chosen);
        SchemaCompletion.CompletedSelection done = SchemaCompletion.of(catalog).complete(question, withColumns);
        if (!done.notes().isEmpty()) {
            notes.accept(String.join("; ", done.notes()));
        }
        return done.selection();
    }
}
