package dev.sqlagent.internal;

import dev.sqlagent.schema.SchemaCatalog;
import java.sql.SQLException;
import java.util.Objects;

/**
 * Supplies the schema catalog, reading it once on first use and keeping it; a failed read is not kept,
 * so the next question tries again. Thread-safe.
 */
public final class SchemaSource {

    /** Reads a catalog. */
    @FunctionalInterface
    public interface Loader {
        /**
         * @return the catalog
         * @throws SQLException when it cannot be read
         */
        SchemaCatalog load() throws SQLException;
    }

    private final Loader loader;
    private volatile SchemaCatalog catalog;

    private SchemaSource(Loader loader, SchemaCatalog catalog) {
        this.loader = loader;
        this.catalog = catalog;
    }

    /** @param catalog a fixed catalog  @return a source of it */
    public static SchemaSource fixed(SchemaCatalog catalog) {
        return new SchemaSource(null, Objects.requireNonNull(catalog, "catalog"));
    }

    /** @param loader reads the catalog on first use  @return a lazy source */
    public static SchemaSource lazy(Loader loader) {
        return new SchemaSource(Objects.requireNonNull(loader, "loader"), null);
    }

    /**
     * @return the catalog
     * @throws SQLException when it cannot be read
     */
    public SchemaCatalog get() throws SQLException {
        SchemaCatalog c = catalog;
        if (c == null) {
            synchronized (this) {
                c = catalog;
                if (c == null) {
                    c = loader.load();
                    catalog = c;
                }
            }
        }
        return c;
    }
}
