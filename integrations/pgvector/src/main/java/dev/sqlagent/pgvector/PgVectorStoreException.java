package dev.sqlagent.pgvector;

import java.sql.SQLException;

/** A database failure inside {@link PgVectorStore}; the message names the table and the SQLState. */
public final class PgVectorStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed, naming the table
     * @param cause the driver's exception
     */
    public PgVectorStoreException(String message, SQLException cause) {
        super(message, cause);
    }

    /**
     * Returns the driver's exception.
     *
     * @return the cause
     */
    @Override
    public synchronized SQLException getCause() {
        return (SQLException) super.getCause();
    }
}
