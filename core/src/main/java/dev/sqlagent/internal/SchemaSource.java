package dev.sqlagent.internal;

import dev.sqlagent.schema.SchemaCatalog;
import java.sql.SQLException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Supplies the schema catalog, reading it once on first use and keeping it; a failed read is not kept,
 * so the next question tries again. One read at a time: the questions that arrive while it runs wait for
 * it and share its result or its failure, so that a database that stops answering holds each of them for
 * one read, not one read per question ahead of it. Thread-safe.
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
    private CompletableFuture<SchemaCatalog> loading;

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
     * @throws SQLException when it cannot be read, by this call or by the read under way it waited for
     */
    public SchemaCatalog get() throws SQLException {
        SchemaCatalog c = catalog;
        if (c != null) {
            return c;
        }
        CompletableFuture<SchemaCatalog> mine;
        CompletableFuture<SchemaCatalog> theirs;
        synchronized (this) {
            if (catalog != null) {
                return catalog;
            }
            theirs = loading;
            mine = theirs == null ? new CompletableFuture<>() : null;
            if (mine != null) {
                loading = mine;
            }
        }
        if (theirs != null) {
            return await(theirs);
        }
        try {
            SchemaCatalog read = loader.load();
            catalog = read;
            mine.complete(read);
            return read;
        } catch (SQLException | RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            synchronized (this) {
                loading = null;
            }
        }
    }

    private static SchemaCatalog await(CompletableFuture<SchemaCatalog> f) throws SQLException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while the schema was read", "08000", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SQLException s) {
                SQLException copy = new SQLException(s.getMessage(), s.getSQLState(), s.getErrorCode(), s);
                throw copy;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new SQLException(String.valueOf(cause), cause);
        }
    }
}
