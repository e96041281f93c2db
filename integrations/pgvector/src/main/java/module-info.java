/**
 * A {@link dev.sqlagent.vector.VectorStore} in a PostgreSQL table with pgvector's vector column
 * ({@link dev.sqlagent.pgvector.PgVectorStore}). It reaches PostgreSQL only through the host's
 * {@code javax.sql.DataSource}, so it requires no driver module; the PostgreSQL driver it brings at run
 * time provides {@code java.sql.Driver} (automatic module {@code org.postgresql.jdbc}, named in its
 * manifest).
 */
module dev.sqlagent.pgvector {
    requires transitive dev.sqlagent.spi.vector;
    requires transitive java.sql;

    exports dev.sqlagent.pgvector;
}
