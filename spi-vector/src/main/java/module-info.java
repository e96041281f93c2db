/**
 * The vector SPI of sqlagent: {@link dev.sqlagent.vector.VectorStore} and
 * {@link dev.sqlagent.vector.Embedder}, with an exact in-memory store and a hashing embedder that needs
 * no model. It has no dependency; the other stores and embedders are in the integration modules.
 */
module dev.sqlagent.spi.vector {
    exports dev.sqlagent.vector;
}
