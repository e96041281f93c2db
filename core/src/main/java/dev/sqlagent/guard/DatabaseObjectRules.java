package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.JsonExpression;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.statement.create.table.ColDataType;

/**
 * The guard's reading of the objects a database defines itself ({@link DatabaseObjects}): which calls and
 * operators they could bind, and what a cast's type names. Stateless.
 */
final class DatabaseObjectRules {

    private DatabaseObjectRules() {
    }

    /**
     * The database's own objects a call could bind. On MariaDB and MySQL a bare built-in name always binds the
     * built-in (a stored function of that name is reached only qualified); {@code pg_catalog.f} binds one of
     * the database's own only when it created one in {@code pg_catalog} (which its objects then list).
     */
    static List<DatabaseObjects.Routine> binding(List<String> parts, Dialect dialect, GuardPolicy policy) {
        DatabaseObjects objects = policy.databaseObjects();
        if (objects.routines().isEmpty() || parts.isEmpty()) {
            return List.of();
        }
        if (Engines.of(dialect).guard().builtinsShadowStoredFunctions() && parts.size() == 1 && FunctionCatalog.of(dialect).has(parts.get(0))) {
            return List.of();
        }
        // pg_catalog.f binds PostgreSQL's own f, and any f a superuser created there: the database's objects
        // list those by identity (their OID), so a qualified call is looked up as any other
        return objects.named(parts);
    }

    /** {@return whether the host allowed every one of them by its signature} */
    static boolean allowed(List<DatabaseObjects.Routine> routines, GuardPolicy policy) {
        for (DatabaseObjects.Routine r : routines) {
            if (!policy.allowedDatabaseFunctions().contains(r.signature())) {
                return false;
            }
        }
        return true;
    }

    static String signatures(List<DatabaseObjects.Routine> routines) {
        Set<String> out = new LinkedHashSet<>();
        routines.forEach(r -> out.add(r.signature()));
        return String.join(", ", out);
    }

    /**
     * The operator symbols a node makes the engine look up: its own ({@code ||}, {@code =}, {@code ->}), and
     * those of forms that compare with one ({@code IN} and {@code CASE x WHEN} with {@code =}, {@code BETWEEN}
     * with {@code >=} and {@code <=}, {@code LIKE} as {@code ~~}).
     */
    static List<String> operatorSymbols(Object node) {
        List<String> out = new ArrayList<>();
        if (node instanceof LikeExpression like) {
            out.addAll(List.of("~~", "!~~", "~~*", "!~~*", "~", "!~"));
        } else if (node instanceof BinaryExpression b) {
            String s = b.getStringExpression();
            if (s != null) {
                out.add(s.trim().toLowerCase(java.util.Locale.ROOT));
                if (s.trim().equalsIgnoreCase("IS DISTINCT FROM") || s.trim().equalsIgnoreCase("IS NOT DISTINCT FROM")) {
                    out.add("=");
                }
            }
        } else if (node instanceof InExpression) {
            out.addAll(List.of("=", "<>"));
        } else if (node instanceof Between) {
            out.addAll(List.of(">=", "<="));
        } else if (node instanceof CaseExpression c && c.getSwitchExpression() != null) {
            out.add("=");
        } else if (node instanceof SignedExpression s) {
            out.add(String.valueOf(s.getSign()));
        } else if (node instanceof JsonExpression j) {
            for (java.util.Map.Entry<?, String> e : j.getIdentList()) {
                out.add(e.getValue().trim());
            }
        }
        return out;
    }

    /**
     * A cast's type read as PostgreSQL reads it.
     *
     * @param schema the schema written, lower case, or null
     * @param name the type's name, lower case, without modifiers or array brackets
     * @param names the names it may be: itself, and for an array spelling {@code _x} the element type {@code x}
     */
    record TypeName(String schema, String name, List<String> names) {
    }

    /** Reads a cast's type: schema, name, the element type of an array spelling. */
    static TypeName typeName(ColDataType type) {
        String raw = type.getDataType() == null ? "" : type.getDataType().trim();
        int cut = raw.indexOf('(');
        if (cut >= 0) {
            raw = raw.substring(0, cut).trim();
        }
        while (raw.endsWith("[]")) {
            raw = raw.substring(0, raw.length() - 2).trim();
        }
        List<String> parts = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < raw.length(); i++) {
            char ch = raw.charAt(i);
            if (ch == '"') {
                quoted = !quoted;
                cur.append(ch);
            } else if (ch == '.' && !quoted) {
                parts.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(ch);
            }
        }
        parts.add(cur.toString());
        String last = parts.get(parts.size() - 1).trim();
        String name = Names.isQuoted(last) ? Names.unquote(last) : Names.lower(last);
        String schema = null;
        if (parts.size() > 1) {
            String s = parts.get(parts.size() - 2).trim();
            schema = Names.isQuoted(s) ? Names.unquote(s) : Names.lower(s);
        }
        List<String> names = new ArrayList<>();
        names.add(name);
        if (name.startsWith("_") && name.length() > 1) {
            names.add(name.substring(1));
        }
        return new TypeName(schema, name, names);
    }

    /** PostgreSQL's other spellings of a type, to the name {@code format_type} writes. */
    private static final java.util.Map<String, String> PG_TYPE_NAMES = java.util.Map.ofEntries(
            java.util.Map.entry("int", "integer"), java.util.Map.entry("int4", "integer"),
            java.util.Map.entry("int8", "bigint"), java.util.Map.entry("int2", "smallint"),
            java.util.Map.entry("float8", "double precision"), java.util.Map.entry("float", "double precision"),
            java.util.Map.entry("float4", "real"), java.util.Map.entry("varchar", "character varying"),
            java.util.Map.entry("bool", "boolean"), java.util.Map.entry("char", "character"),
            java.util.Map.entry("bpchar", "character"), java.util.Map.entry("decimal", "numeric"),
            java.util.Map.entry("timestamptz", "timestamp with time zone"),
            java.util.Map.entry("timestamp", "timestamp without time zone"),
            java.util.Map.entry("timetz", "time with time zone"), java.util.Map.entry("time", "time without time zone"));

    /** {@return a PostgreSQL type's name as {@code format_type} writes it} */
    static String pgTypeName(String name) {
        String n = name.replaceAll("\\s+", " ");
        return PG_TYPE_NAMES.getOrDefault(n, n);
    }

    /**
     * PostgreSQL's own type names a table may share ({@code CREATE TABLE point …}): {@code pg_catalog} is
     * searched first, so a bare cast to one of them is the built-in type, never the table's row type.
     */
    private static final Set<String> PG_BUILTIN_TYPES = Set.of("date", "time", "timestamp", "timestamptz", "timetz",
            "interval", "text", "name", "char", "varchar", "bpchar", "int", "int2", "int4", "int8", "integer",
            "smallint", "bigint", "numeric", "decimal", "real", "float", "float4", "float8", "boolean", "bool",
            "bytea", "bit", "varbit", "point", "line", "lseg", "box", "path", "polygon", "circle", "money", "json",
            "jsonb", "jsonpath", "xml", "uuid", "inet", "cidr", "macaddr", "macaddr8", "tsvector", "tsquery",
            "record", "int4range", "int8range", "numrange", "tsrange", "tstzrange", "daterange");

    /** {@return whether a bare type name is one of PostgreSQL's own} */
    static boolean pgBuiltinType(String name) {
        return PG_BUILTIN_TYPES.contains(name);
    }

    /** PostgreSQL's object-identifier types and anything spelled like one ({@code reg…}). */
    static boolean catalogType(String name) {
        return FunctionPolicy.isCatalogType(name);
    }
}
