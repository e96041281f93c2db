package dev.sqlagent.engine;

import dev.sqlagent.execution.SqlStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/** Prepares an {@code EXPLAIN} of a statement with its parameters bound and a time cap. */
public final class Explain {

    private Explain() {
    }

    /**
     * @param c the connection
     * @param prefix the engine's EXPLAIN words, ending in a space
     * @param statement the statement and its parameters
     * @param timeoutSeconds cap on the engine's time for it, 0 for none
     * @return the prepared EXPLAIN, parameters bound; the caller closes it
     * @throws SQLException if the engine refuses it
     */
    public static PreparedStatement prepare(Connection c, String prefix, SqlStatement statement, int timeoutSeconds)
            throws SQLException {
        PreparedStatement ps = c.prepareStatement(prefix + statement.sql());
        try {
            if (timeoutSeconds > 0) {
                ps.setQueryTimeout(timeoutSeconds);
            }
            List<Object> params = statement.parameters();
            for (int i = 0; i < params.size(); i++) {
                ps.setObject(i + 1, params.get(i));
            }
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }
}
