package dev.sqlagent.engine;

import dev.sqlagent.guard.GuardPolicy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/** What every engine's privilege audit reads the same way. */
public final class AuditSupport {

    private AuditSupport() {
    }

    /**
     * @param policy the policy
     * @param schema a table's schema
     * @param table its name
     * @param resolvesBare whether the bare name resolves to it (its schema is the login's default)
     * @return whether the policy allows the table
     */
    public static boolean allowed(GuardPolicy policy, String schema, String table, boolean resolvesBare) {
        String s = schema.toLowerCase(Locale.ROOT);
        String t = table.toLowerCase(Locale.ROOT);
        return policy.allowedTables().contains(s + "." + t) || resolvesBare && policy.allowedTables().contains(t);
    }

    /** {@return whether the engine prepares the statement (it checks rights then); it is never run} */
    public static boolean prepares(Connection c, String sql) {
        try {
            c.prepareStatement(sql).close();
            return true;
        } catch (SQLException refused) {
            return false;
        }
    }

    /**
     * @param c a connection
     * @param sql a query of one value
     * @return its first row's first column, or null without a row
     * @throws SQLException if it fails
     */
    public static String scalar(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
