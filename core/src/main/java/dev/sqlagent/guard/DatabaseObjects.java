package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The functions, operators, aggregates, macros and types a database defines itself, as opposed to those its
 * engine is built with: the objects that can take a built-in's name ({@code public.initcap(integer)} wins
 * PostgreSQL's overload resolution for {@code initcap(id)} over {@code pg_catalog.initcap(text)}; a DuckDB
 * macro {@code range} in the database shadows the table function) and run SQL of their own, which the
 * function catalog knows nothing of. Immutable.
 *
 * <p>Read from the database with {@link #read(Connection, Dialect)}: PostgreSQL {@code pg_proc},
 * {@code pg_operator} and {@code pg_type} outside {@code pg_catalog} and {@code information_schema} (members of
 * an installed extension count as the engine's: a superuser's script installed them); DuckDB
 * {@code duckdb_functions()} where not internal (macros and table macros included); H2 the user's aliases and
 * aggregates ({@code INFORMATION_SCHEMA.ROUTINES}); MariaDB and MySQL the stored functions
 * ({@code information_schema.ROUTINES}). SQLite cannot define any in SQL.
 *
 * <p>The guard refuses a call or an operator whose name any of these objects has (it does not know the
 * argument types, so any of them could bind) unless the host allowed every one of them by its signature
 * ({@link GuardPolicy.Builder#allowDatabaseFunction}); and reads a cast's type against {@link #types()}: a
 * table's row type is as forbidden as the table.
 */
public final class DatabaseObjects {

    /** What kind of object the database defines. */
    public enum Kind {
        /** A function (PostgreSQL, H2 alias, MariaDB stored function). */
        FUNCTION,
        /** An aggregate. */
        AGGREGATE,
        /** A window function. */
        WINDOW,
        /** A procedure (never called from a query, listed for completeness). */
        PROCEDURE,
        /** An operator; its name is its symbol. */
        OPERATOR,
        /** A DuckDB scalar macro. */
        MACRO,
        /** A DuckDB table macro. */
        TABLE_MACRO,
        /**
         * A cast the database defines with a function of its own (PostgreSQL); its name is the target type as
         * {@code format_type} writes it, its signature the function's.
         */
        CAST
    }

    /**
     * One function-like object.
     *
     * @param kind what it is
     * @param schema its schema, lower case
     * @param name its name (an operator's symbol), lower case
     * @param signature {@code schema.name(type,type)}, lower case, as {@link #signature(String)} writes it
     * @param onPath whether its schema is one an unqualified name resolves in (PostgreSQL's search path,
     *     MariaDB's current database); an object elsewhere binds only a call qualified with its schema
     */
    public record Routine(Kind kind, String schema, String name, String signature, boolean onPath) {
        /**
         * Checks the parts.
         *
         * @param kind what it is
         * @param schema its schema
         * @param name its name
         * @param signature its signature
         * @param onPath whether an unqualified name resolves in its schema
         */
        public Routine {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(schema, "schema");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(signature, "signature");
        }

        /**
         * An object in a schema an unqualified name resolves in.
         *
         * @param kind what it is
         * @param schema its schema
         * @param name its name
         * @param signature its signature
         */
        public Routine(Kind kind, String schema, String name, String signature) {
            this(kind, schema, name, signature, true);
        }
    }

    /**
     * A type the database defines (PostgreSQL).
     *
     * @param schema its schema, lower case
     * @param name its name, lower case
     * @param relation for a table's (view's) row type, the table qualified with its schema; else null
     * @param base for a domain, its base type's name (qualified when outside {@code pg_catalog}); else null
     * @param onPath whether an unqualified type name resolves in its schema (the search path)
     * @param checks for a domain, the signatures of the database's own functions its constraints call (a cast
     *     to it runs them); empty otherwise
     */
    public record Type(String schema, String name, String relation, String base, boolean onPath, List<String> checks) {
        /**
         * Checks the parts.
         *
         * @param schema its schema
         * @param name its name
         * @param relation the table whose row type it is, or null
         * @param base a domain's base type, or null
         * @param onPath whether an unqualified type name resolves in its schema
         * @param checks the database's own functions a domain's constraints call
         */
        public Type {
            Objects.requireNonNull(schema, "schema");
            Objects.requireNonNull(name, "name");
            checks = List.copyOf(checks);
        }
    }

    /** No objects: what the guard knows when the host did not read the database. */
    public static final DatabaseObjects NONE = new DatabaseObjects(List.of(), List.of());

    private final List<Routine> routines;
    private final List<Type> types;
    private final Map<String, List<Routine>> byName = new LinkedHashMap<>();

    private DatabaseObjects(Collection<Routine> routines, Collection<Type> types) {
        this.routines = List.copyOf(routines);
        this.types = List.copyOf(types);
        for (Routine r : this.routines) {
            byName.computeIfAbsent(r.name(), k -> new ArrayList<>()).add(r);
        }
    }

    /**
     * Objects given by the host (or a test) rather than read.
     *
     * @param routines the functions, operators, aggregates and macros
     * @param types the types
     * @return the objects
     */
    public static DatabaseObjects of(Collection<Routine> routines, Collection<Type> types) {
        return routines.isEmpty() && types.isEmpty() ? NONE : new DatabaseObjects(routines, types);
    }

    /** {@return every function-like object} */
    public List<Routine> routines() {
        return routines;
    }

    /** {@return every type the database defines (PostgreSQL)} */
    public List<Type> types() {
        return types;
    }

    /** {@return whether there is nothing} */
    public boolean isEmpty() {
        return routines.isEmpty() && types.isEmpty();
    }

    /**
     * The objects a call could bind: for a bare name every object of that name in any schema (the search
     * path is the session's), for a qualified one those of that schema.
     *
     * @param parts the name's parts, unquoted, any case
     * @return the objects, perhaps none
     */
    public List<Routine> named(List<String> parts) {
        if (parts == null || parts.isEmpty()) {
            return List.of();
        }
        String name = Names.lower(parts.get(parts.size() - 1));
        List<Routine> all = byName.getOrDefault(name, List.of());
        if (parts.size() == 1) {
            List<Routine> out = new ArrayList<>();
            for (Routine r : all) {
                if (r.kind() != Kind.OPERATOR && r.kind() != Kind.CAST && r.onPath()) {
                    out.add(r);
                }
            }
            return out;
        }
        String schema = Names.lower(parts.get(parts.size() - 2));
        List<Routine> out = new ArrayList<>();
        for (Routine r : all) {
            if (r.kind() != Kind.OPERATOR && r.kind() != Kind.CAST && r.schema().equals(schema)) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * The operators of a symbol the database defines in a schema on the search path.
     *
     * @param symbol an operator's symbol
     * @return the operators of that symbol the database defines
     */
    public List<Routine> operators(String symbol) {
        List<Routine> out = new ArrayList<>();
        for (Routine r : byName.getOrDefault(symbol, List.of())) {
            if (r.kind() == Kind.OPERATOR && r.onPath()) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * The casts to a type the database defines with a function of its own.
     *
     * @param targetType a type's name as {@code format_type} writes it ({@code integer}, {@code text})
     * @return the casts to it the database defines with a function of its own
     */
    public List<Routine> castsTo(String targetType) {
        List<Routine> out = new ArrayList<>();
        for (Routine r : byName.getOrDefault(targetType, List.of())) {
            if (r.kind() == Kind.CAST) {
                out.add(r);
            }
        }
        return out;
    }

    /** {@return whether the database defines any operator} */
    public boolean hasOperators() {
        for (Routine r : routines) {
            if (r.kind() == Kind.OPERATOR && r.onPath()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The types of a name: for a bare name those of any schema, for a qualified one that schema's.
     *
     * @param schema the schema written, lower case, or null
     * @param name the type's name, lower case
     * @return the types, perhaps none
     */
    public List<Type> types(String schema, String name) {
        List<Type> out = new ArrayList<>();
        for (Type t : types) {
            if (t.name().equals(name) && (schema == null ? t.onPath() : t.schema().equals(schema))) {
                out.add(t);
            }
        }
        return out;
    }

    private static final Pattern BLANKS = Pattern.compile("\\s+");
    private static final Pattern AROUND_PUNCTUATION = Pattern.compile(" ?([(),]) ?");

    /**
     * Writes a signature as this class compares them: lower case, no blanks around {@code (}, {@code ,},
     * {@code )} and the schema's dot, runs of blanks as one.
     *
     * @param signature a signature such as {@code public.initcap(integer)} or {@code public.||(int4, int4)}
     * @return it normalised
     */
    public static String signature(String signature) {
        String s = BLANKS.matcher(signature.trim().toLowerCase(Locale.ROOT)).replaceAll(" ");
        return AROUND_PUNCTUATION.matcher(s).replaceAll("$1");
    }

    /**
     * Reads what a database defines.
     *
     * @param c a connection to it
     * @param dialect its dialect
     * @return its own objects; {@link #NONE} for an engine that cannot define any in SQL
     * @throws SQLException if the catalog cannot be read
     */
    public static DatabaseObjects read(Connection c, Dialect dialect) throws SQLException {
        Objects.requireNonNull(c, "connection");
        Objects.requireNonNull(dialect, "dialect");
        List<Routine> routines = new ArrayList<>();
        List<Type> types = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            Engines.of(dialect).database().readObjects(s, routines, types);
        }
        return of(routines, types);
    }

    /**
     * The signatures of the database's own functions a domain's constraints call, {@code ;}-separated (their
     * dependencies in {@code pg_depend}); the type is {@code t}. A function in {@code pg_catalog} or
     * {@code information_schema} numbered from 16,384 on ({@code FirstNormalObjectId}) is the database's own
     * too: a superuser created it there.
     */
    public static final String DOMAIN_CHECKS = "(SELECT pg_catalog.string_agg(DISTINCT pn.nspname || '.' "
            + "|| p.proname || '(' || COALESCE((SELECT pg_catalog.string_agg(pg_catalog.format_type(a.t, NULL), ',' "
            + "ORDER BY a.i) FROM pg_catalog.unnest(p.proargtypes) WITH ORDINALITY a(t, i)), '') || ')', ';') "
            + "FROM pg_catalog.pg_constraint k JOIN pg_catalog.pg_depend d ON d.classid = "
            + "'pg_catalog.pg_constraint'::pg_catalog.regclass AND d.objid = k.oid AND d.refclassid = "
            + "'pg_catalog.pg_proc'::pg_catalog.regclass JOIN pg_catalog.pg_proc p ON p.oid = d.refobjid "
            + "JOIN pg_catalog.pg_namespace pn ON pn.oid = p.pronamespace WHERE k.contypid = t.oid "
            + "AND (pn.nspname NOT IN ('pg_catalog', 'information_schema') OR p.oid >= 16384))";

    /**
     * Finds an object by its signature.
     *
     * @param signature a signature, any spelling {@link #signature(String)} accepts
     * @return the object of that signature, when the database has it
     */
    public Optional<Routine> bySignature(String signature) {
        String s = signature(signature);
        for (Routine r : routines) {
            if (r.signature().equals(s)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return "DatabaseObjects{" + routines.size() + " routines, " + types.size() + " types}";
    }
}
