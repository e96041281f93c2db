/**
 * An approximate nearest-neighbour {@link dev.sqlagent.vector.VectorStore} for large case libraries
 * ({@link dev.sqlagent.ann.HnswVectorStore}): an HNSW graph from Lucene's core over vectors kept in
 * memory.
 */
module dev.sqlagent.ann {
    requires transitive dev.sqlagent.spi.vector;
    requires org.apache.lucene.core;

    exports dev.sqlagent.ann;
}
