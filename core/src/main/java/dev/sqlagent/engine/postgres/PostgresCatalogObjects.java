package dev.sqlagent.engine.postgres;

import dev.sqlagent.engine.ObjectRows;
import dev.sqlagent.guard.DatabaseObjects.Kind;
import dev.sqlagent.guard.DatabaseObjects.Routine;
import dev.sqlagent.guard.DatabaseObjects.Type;
import dev.sqlagent.guard.DatabaseObjects;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The database's own functions, operators, casts and types, from its catalog (extensions' objects left out):
 * what PostgreSQL itself defines is told apart by schema and, within its own schemas, by object identifier.
 */
final class PostgresCatalogObjects {

    private static final String DOMAIN_CHECKS = DatabaseObjects.DOMAIN_CHECKS;

    private PostgresCatalogObjects() {
    }

    private static List<String> checks(String joined) {
        List<String> out = new ArrayList<>();
        if (joined != null) {
            for (String sig : joined.split(";")) {
                if (!sig.isBlank()) {
                    out.add(DatabaseObjects.signature(sig));
                }
            }
        }
        return out;
    }

    /**
     * Whether a schema is one an unqualified name resolves in: the connection's search path, and
     * {@code pg_catalog}, searched first when the path does not name it (a routine or operator of the database's
     * own in it binds a bare name as any other).
     */
    private static final String ON_PATH = "(n.nspname = ANY (pg_catalog.current_schemas(false)) OR n.nspname = "
            + "'pg_catalog')";

    static void read(Statement s, List<Routine> routines, List<Type> types) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT n.nspname, p.proname, p.prokind, " + ON_PATH + ", (SELECT pg_catalog.string_agg("
                + "pg_catalog.format_type(a.t, NULL), ',' ORDER BY a.i) FROM pg_catalog.unnest(p.proargtypes) "
                + "WITH ORDINALITY a(t, i)) FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n "
                + "ON n.oid = p.pronamespace WHERE " + PgObjects.ownObject("p.oid", "p.pronamespace") + " AND "
                + PgObjects.notOfAnExtension("pg_proc", "p.oid"))) {
            while (rs.next()) {
                String k = rs.getString(3);
                Kind kind = "a".equals(k) ? Kind.AGGREGATE : "w".equals(k) ? Kind.WINDOW
                        : "p".equals(k) ? Kind.PROCEDURE : Kind.FUNCTION;
                String args = rs.getString(5);
                routines.add(ObjectRows.routine(kind, rs.getString(1), rs.getString(2), args == null ? "" : args, rs.getBoolean(4)));
            }
        }
        try (ResultSet rs = s.executeQuery("SELECT n.nspname, o.oprname, " + ON_PATH + ", CASE WHEN o.oprleft = 0 THEN 'none' ELSE "
                + "pg_catalog.format_type(o.oprleft, NULL) END, CASE WHEN o.oprright = 0 THEN 'none' ELSE "
                + "pg_catalog.format_type(o.oprright, NULL) END FROM pg_catalog.pg_operator o "
                + "JOIN pg_catalog.pg_namespace n ON n.oid = o.oprnamespace WHERE "
                + PgObjects.ownObject("o.oid", "o.oprnamespace") + " AND "
                + PgObjects.notOfAnExtension("pg_operator", "o.oid"))) {
            while (rs.next()) {
                routines.add(ObjectRows.routine(Kind.OPERATOR, rs.getString(1), rs.getString(2),
                        rs.getString(4) + "," + rs.getString(5), rs.getBoolean(3)));
            }
        }
        try (ResultSet rs = s.executeQuery("SELECT n.nspname, pg_catalog.format_type(k.casttarget, NULL), p.proname, "
                + "(SELECT pg_catalog.string_agg(pg_catalog.format_type(a.t, NULL), ',' ORDER BY a.i) FROM "
                + "pg_catalog.unnest(p.proargtypes) WITH ORDINALITY a(t, i)) FROM pg_catalog.pg_cast k "
                + "JOIN pg_catalog.pg_proc p ON p.oid = k.castfunc JOIN pg_catalog.pg_namespace n "
                + "ON n.oid = p.pronamespace WHERE " + PgObjects.ownObject("p.oid", "p.pronamespace") + " AND "
                + PgObjects.notOfAnExtension("pg_proc", "p.oid"))) {
            while (rs.next()) {
                String sc = rs.getString(1).toLowerCase(Locale.ROOT);
                // a cast is found by its types, wherever its function lives
                routines.add(new Routine(Kind.CAST, sc, rs.getString(2).toLowerCase(Locale.ROOT), DatabaseObjects.signature(sc + "."
                        + rs.getString(3) + "(" + (rs.getString(4) == null ? "" : rs.getString(4)) + ")"), true));
            }
        }
        try (ResultSet rs = s.executeQuery("SELECT n.nspname, t.typname, " + ON_PATH + ", CASE WHEN c.relkind IN ('r', 'v', 'm', "
                + "'p', 'f') THEN cn.nspname || '.' || c.relname END, CASE WHEN t.typtype = 'd' THEN "
                + "pg_catalog.format_type(t.typbasetype, NULL) END, " + DOMAIN_CHECKS + " FROM pg_catalog.pg_type t "
                + "JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace "
                + "LEFT JOIN pg_catalog.pg_class c ON c.oid = t.typrelid "
                + "LEFT JOIN pg_catalog.pg_namespace cn ON cn.oid = c.relnamespace "
                + "WHERE " + PgObjects.ownObject("t.oid", "t.typnamespace") + " AND t.typcategory <> 'A' AND "
                + PgObjects.notOfAnExtension("pg_type", "t.oid"))) {
            while (rs.next()) {
                String relation = rs.getString(4);
                String base = rs.getString(5);
                types.add(new Type(rs.getString(1).toLowerCase(Locale.ROOT), rs.getString(2).toLowerCase(Locale.ROOT),
                        relation == null ? null : relation.toLowerCase(Locale.ROOT),
                        base == null ? null : base.toLowerCase(Locale.ROOT), rs.getBoolean(3),
                        checks(rs.getString(6))));
            }
        }
    }
}
