/**
 * A {@link dev.sqlagent.vector.VectorStore} in PostgreSQL with the pgvector extension (artifact
 * {@code sqlagent-pgvector}), so that a case library survives restarts and is shared by every instance
 * of an application.
 *
 * <p>{@link dev.sqlagent.pgvector.PgVectorStore} keeps one row per entry and translates
 * {@link dev.sqlagent.vector.VectorFilter}s into SQL; database failures are thrown as
 * {@link dev.sqlagent.pgvector.PgVectorStoreException}, naming the table and the SQLState.
 */
package dev.sqlagent.pgvector;
