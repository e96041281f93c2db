package dev.sqlagent.engine;

import dev.sqlagent.guard.DatabaseObjects.Kind;
import dev.sqlagent.guard.DatabaseObjects.Routine;
import dev.sqlagent.guard.DatabaseObjects;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;

/** How every engine's catalog reading turns rows into the database's own objects ({@link DatabaseObjects}). */
public final class ObjectRows {

    private ObjectRows() {
    }

    /**
     * Reads routines from a query whose columns are: schema, name, routine type (containing {@code AGGREGATE},
     * {@code PROCEDURE}, or else a function), whether the schema is on the path, argument types joined by
     * commas.
     *
     * @param s a statement
     * @param out where the routines go
     * @param sql the query
     * @throws SQLException if it fails
     */
    public static void routinesOf(Statement s, List<Routine> out, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                String type = String.valueOf(rs.getString(3)).toUpperCase(Locale.ROOT);
                Kind kind = type.contains("AGGREGATE") ? Kind.AGGREGATE
                        : type.contains("PROCEDURE") ? Kind.PROCEDURE : Kind.FUNCTION;
                String args = rs.getString(5);
                out.add(routine(kind, rs.getString(1), rs.getString(2), args == null ? "" : args, rs.getBoolean(4)));
            }
        }
    }

    /**
     * @param kind its kind
     * @param schema its schema
     * @param name its name
     * @param args its argument types joined by commas
     * @return a routine on the path
     */
    public static Routine routine(Kind kind, String schema, String name, String args) {
        return routine(kind, schema, name, args, true);
    }

    /**
     * @param kind its kind
     * @param schema its schema
     * @param name its name
     * @param args its argument types joined by commas
     * @param onPath whether an unqualified name resolves in its schema
     * @return the routine, names lower case, its signature normalised
     */
    public static Routine routine(Kind kind, String schema, String name, String args, boolean onPath) {
        String sc = schema.toLowerCase(Locale.ROOT);
        String n = name.toLowerCase(Locale.ROOT);
        return new Routine(kind, sc, n, DatabaseObjects.signature(sc + "." + n + "(" + args + ")"), onPath);
    }
}
