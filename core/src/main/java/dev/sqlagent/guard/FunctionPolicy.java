package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Which functions SQL may call, decided in the closed world of each engine's classified
 * {@link FunctionCatalog}. Immutable.
 *
 * <p>Every call is first looked up in the catalog of the statement's dialect:
 * <ul>
 *   <li>a function of an unsafe {@link FunctionClass} (reads tables, files, the catalog or the session;
 *       writes; waits or locks; engine-internal) is refused in every mode, unless the host confirmed that
 *       class for that name with {@link #allowUnsafe(FunctionClass, String...)};</li>
 *   <li>a function of a safe class is allowed by {@link #standard()}, by a denylist unless denied, and by an
 *       allowlist when named;</li>
 *   <li>a name the engine does not have is {@link Verdict#UNKNOWN}: an invented name (a model's
 *       {@code YEAR(…)} on SQLite), a mistake to correct, never run. Only a host allowlist entry
 *       ({@link #allowOnly}, {@link #allowAlso}) allows such a name, as the host's own function
 *       (user-defined, or of an extension the catalog does not list).</li>
 * </ul>
 * A schema-qualified name resolves as {@link FunctionCatalog} says: {@code pg_catalog.upper} is
 * {@code upper}; any other qualifier resolves to nothing and is refused unless the host named that qualified
 * name itself.
 *
 * <p>Building a policy that names an unsafe function ({@code allowOnly("pg_sleep")},
 * {@code allowAlso("current_user")}) fails with an {@link IllegalArgumentException} naming its class: the
 * host confirms with {@link #allowUnsafe(FunctionClass, String...)}. Names are compared case-insensitively,
 * unquoted.
 */
public final class FunctionPolicy {

    /** How the names of a policy are read. */
    public enum Mode {
        /** Only the listed names (and, for {@link #standard()}, every safe function of the catalog). */
        ALLOWLIST,
        /** Every safe function of the catalog except the listed ones. */
        DENYLIST
    }

    /** What a {@link Decision} says about one call. */
    public enum Verdict {
        /** The call may run. */
        ALLOWED,
        /** The engine has the function and the policy refuses it: a violation. */
        REFUSED,
        /** The engine has no such function: an invented name, correctable, never run. */
        UNKNOWN
    }

    /**
     * The policy's answer for one call.
     *
     * @param verdict allowed, refused or unknown
     * @param name the name as decided, lower case, qualified as written
     * @param functionClass the function's class in the engine's catalog, when it has one
     * @param reason why, in a few words, for people and logs (never for the model)
     * @param hint for {@link Verdict#UNKNOWN}: what the engine has instead, when known
     */
    public record Decision(Verdict verdict, String name, Optional<FunctionClass> functionClass, String reason,
                           Optional<String> hint) {

        /**
         * Checks the parts.
         *
         * @param verdict allowed, refused or unknown
         * @param name the name as decided
         * @param functionClass the function's class, when it has one
         * @param reason why
         * @param hint what the engine has instead, when known
         */
        public Decision {
            Objects.requireNonNull(verdict, "verdict");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(functionClass, "functionClass");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(hint, "hint");
        }

        /** {@return whether the call may run} */
        public boolean allowed() {
            return verdict == Verdict.ALLOWED;
        }
    }

    /**
     * Session and catalog probes the grammar reads without parentheses or outside the function catalog, and
     * the older names of such probes on engines without a catalog here; refused unless confirmed.
     */
    private static final Set<String> PROBES = Set.of(
            "current_user", "session_user", "user", "current_role", "system_user", "current_schema",
            "current_schemas", "current_catalog", "current_database", "current_path", "current_query",
            "version", "database", "schema", "connection_id", "sqlite_version", "sqlite_source_id",
            "inet_server_addr", "inet_server_port", "inet_client_addr", "inet_client_port", "txid_current",
            "user_name", "suser_name", "suser_sname", "db_name", "db_id", "host_name", "host_id", "app_name",
            "original_login", "uid", "userenv", "ora_database_name", "h2version", "database_path", "readonly",
            "memory_used", "memory_free", "session_id", "lock_mode", "lock_timeout", "transaction_id",
            "last_insert_id", "last_insert_rowid", "found_rows", "row_count", "changes", "total_changes",
            "scope_identity", "identity", "disk_space_used", "session_user_name", "obj_description",
            "col_description", "has_table_privilege", "has_column_privilege", "to_regclass", "format_type",
            "current_setting", "sys_context", "regclass", "oid");

    /** Probes the engines read as calls without parentheses, by dialect (a bare name to the parser). */
    private static final Set<String> PROBE_KEYWORDS = Set.of("current_user", "session_user", "current_role",
            "system_user", "user", "current_schema", "current_catalog", "current_path");

    /** PostgreSQL's object-identifier types: a cast to one reads the catalog. */
    private static final Set<String> CATALOG_TYPES = Set.of("regclass", "regtype", "regproc", "regprocedure",
            "regoper", "regoperator", "regnamespace", "regrole", "regconfig", "regdictionary", "regcollation",
            "oid", "xid", "xid8", "cid", "tid", "pg_lsn", "txid_snapshot", "pg_snapshot");

    /**
     * Families no generated catalog lists that reach outside the database on the engines without a catalog
     * here (SQL Server, Oracle) or in extensions: refused whatever the policy names, unless confirmed.
     */
    private static final List<String> DANGEROUS_PREFIXES = List.of("pg_", "lo_", "dblink", "dbms_", "utl_",
            "xp_", "sp_", "sys_", "http", "sqlite_", "ctxsys", "owa_", "java", "xdb", "sdo_",
            // uuid-ossp's version-1 UUIDs carry the server's MAC address and clock
            "uuid_generate_v1");

    private static final FunctionPolicy STANDARD = new FunctionPolicy(Mode.ALLOWLIST, true, Set.of(), Map.of());

    private final Mode mode;
    private final boolean includeStandard;
    private final Set<String> names;
    /** Unsafe functions the host confirmed: name to the class it confirmed. */
    private final Map<String, FunctionClass> confirmed;

    private FunctionPolicy(Mode mode, boolean includeStandard, Set<String> names, Map<String, FunctionClass> confirmed) {
        this.mode = mode;
        this.includeStandard = includeStandard;
        this.names = Set.copyOf(names);
        this.confirmed = Map.copyOf(confirmed);
    }

    /** {@return the default: every safe function of each engine's catalog} */
    public static FunctionPolicy standard() {
        return STANDARD;
    }

    /**
     * Creates an allowlist of exactly the given functions, without the catalog's other safe functions.
     *
     * @param functions the only functions allowed; a name no catalog knows is taken as the host's own function
     * @return an allowlist policy
     * @throws IllegalArgumentException if a name is blank, or is of an unsafe class on some engine (the
     *                                  message names the class; confirm with {@link #allowUnsafe})
     */
    public static FunctionPolicy allowOnly(String... functions) {
        Set<String> n = normalise(Arrays.asList(functions));
        requireSafe(n, "allowOnly");
        return new FunctionPolicy(Mode.ALLOWLIST, false, n, Map.of());
    }

    /**
     * Creates a denylist: every safe function of the catalog except the given ones. A function outside the
     * catalog, or of an unsafe class, stays refused.
     *
     * @param functions functions refused on top of the unsafe ones
     * @return a denylist policy
     * @throws IllegalArgumentException if a name is blank
     */
    public static FunctionPolicy denying(String... functions) {
        return new FunctionPolicy(Mode.DENYLIST, false, normalise(Arrays.asList(functions)), Map.of());
    }

    /**
     * Returns a copy that allows more functions; this policy is unchanged.
     *
     * @param functions more functions to allow (allowlist mode) or to stop denying (denylist mode); in
     *                  allowlist mode a name no catalog knows is taken as the host's own function
     * @return a new policy
     * @throws IllegalArgumentException if a name is blank, or is of an unsafe class on some engine (the
     *                                  message names the class; confirm with {@link #allowUnsafe})
     */
    public FunctionPolicy allowAlso(String... functions) {
        Set<String> more = normalise(Arrays.asList(functions));
        requireSafe(more, "allowAlso");
        Set<String> next = new LinkedHashSet<>(names);
        if (mode == Mode.ALLOWLIST) {
            next.addAll(more);
        } else {
            next.removeAll(more);
        }
        return new FunctionPolicy(mode, includeStandard, next, confirmed);
    }

    /**
     * Returns a copy that allows functions of an unsafe class, the host confirming the class by naming it;
     * this policy is unchanged. Each name is allowed on the engines whose catalog gives it exactly that class
     * (PostgreSQL's {@code current_setting} with {@link FunctionClass#READS_SESSION}); where an engine gives
     * it another unsafe class it stays refused. {@link FunctionClass#READS_CATALOG} also confirms casts to a
     * catalog type ({@code regclass}, {@code oid}), and {@link FunctionClass#READS_SESSION} and
     * {@link FunctionClass#READS_CATALOG} also confirm the probes the grammar reads as bare words
     * ({@code current_user}, {@code user}).
     *
     * @param functionClass the unsafe class the host confirms
     * @param functions the functions of that class to allow
     * @return a new policy
     * @throws IllegalArgumentException if the class is safe (use {@link #allowAlso}), a name is blank, or a
     *                                  name is of that class on no engine
     */
    public FunctionPolicy allowUnsafe(FunctionClass functionClass, String... functions) {
        Objects.requireNonNull(functionClass, "functionClass");
        if (functionClass.safe()) {
            throw new IllegalArgumentException(functionClass + " is a safe class: allow its functions with allowAlso");
        }
        Map<String, FunctionClass> next = new LinkedHashMap<>(confirmed);
        for (String n : normalise(Arrays.asList(functions))) {
            boolean probe = (functionClass == FunctionClass.READS_CATALOG && CATALOG_TYPES.contains(n))
                    || (functionClass == FunctionClass.READS_SESSION || functionClass == FunctionClass.READS_CATALOG)
                    && PROBES.contains(n);
            if (!probe && !classesOnEngines(n).containsValue(functionClass)) {
                throw new IllegalArgumentException("function " + n + " is not " + functionClass + " on any engine"
                        + describe(classesOnEngines(n)));
            }
            next.put(n, functionClass);
        }
        return new FunctionPolicy(mode, includeStandard, names, next);
    }

    /** {@return the mode} */
    public Mode mode() {
        return mode;
    }

    /** {@return the names given to this policy (allowed or denied by mode), lower case, without the catalog} */
    public Set<String> names() {
        return names;
    }

    /** {@return the unsafe functions the host confirmed, lower case, to the class it confirmed} */
    public Map<String, FunctionClass> confirmedUnsafe() {
        return confirmed;
    }

    /**
     * Lists the functions {@link #standard()} allows for a dialect.
     *
     * @param dialect a dialect
     * @return the safe functions of its catalog, lower case, sorted
     */
    public static Set<String> standardFunctions(Dialect dialect) {
        FunctionCatalog catalog = FunctionCatalog.of(Objects.requireNonNull(dialect, "dialect"));
        Set<String> out = new LinkedHashSet<>();
        for (String n : catalog.names()) {
            if (catalog.classOf(n).map(FunctionClass::safe).orElse(false)) {
                out.add(n);
            }
        }
        return out;
    }

    /**
     * Decides one call.
     *
     * @param nameParts the function's name parts, unquoted, as written ({@code [pg_catalog, upper]})
     * @param dialect the dialect of the statement
     * @return allowed, refused (with the function's class when the engine has it) or unknown (the engine has
     *         no such function; with the engine's equivalent when one is known)
     */
    public Decision decide(List<String> nameParts, Dialect dialect) {
        Objects.requireNonNull(dialect, "dialect");
        if (nameParts == null || nameParts.isEmpty()) {
            return refused("", Optional.empty(), "a call without a name");
        }
        StringBuilder joined = new StringBuilder();
        for (String part : nameParts) {
            joined.append(joined.length() == 0 ? "" : ".").append(Names.lower(Objects.requireNonNull(part, "part")));
        }
        String name = joined.toString();
        FunctionCatalog catalog = FunctionCatalog.of(dialect);
        Optional<FunctionClass> cls = catalog.classOf(name);
        String bare = Names.lower(nameParts.get(nameParts.size() - 1));
        String key = cls.isPresent() && nameParts.size() > 1 && catalog.classOf(bare).equals(cls) ? bare : name;
        if (cls.isPresent()) {
            FunctionClass c = cls.get();
            if (!c.safe()) {
                if (confirmed.get(key) == c) {
                    return new Decision(Verdict.ALLOWED, name, cls, "confirmed " + c + " by the host", Optional.empty());
                }
                return refused(name, cls, key + " is " + c);
            }
            if (mode == Mode.DENYLIST) {
                return names.contains(key) || names.contains(name) ? refused(name, cls, key + " is denied by the policy")
                        : new Decision(Verdict.ALLOWED, name, cls, c.toString(), Optional.empty());
            }
            if (names.contains(key) || names.contains(name) || includeStandard) {
                return new Decision(Verdict.ALLOWED, name, cls, c.toString(), Optional.empty());
            }
            return refused(name, cls, key + " is not on the policy's allowlist");
        }
        if (mode == Mode.ALLOWLIST && names.contains(name) && !isDangerous(name)) {
            return new Decision(Verdict.ALLOWED, name, cls, "named by the host", Optional.empty());
        }
        if (nameParts.size() > 1) {
            return refused(name, cls, "a schema-qualified function outside the engine's catalog: " + name);
        }
        if (!catalog.generated() || isDangerous(name)) {
            return refused(name, cls, name + " is not a known function of " + dialect);
        }
        return new Decision(Verdict.UNKNOWN, name, cls, dialect + " has no function " + name,
                catalog.equivalent(name));
    }

    /**
     * Decides a call of one of SQLite's FTS5 auxiliary functions ({@code bm25}, {@code highlight},
     * {@code snippet}) whose first argument the caller has found to be the hidden column of an FTS5 table the
     * statement reads. The catalog classes them {@link FunctionClass#READS_TABLES} (they read a table's row by
     * number); bound so, they read the row of that table only, which the caller counts as a whole-row read:
     * allowed as a safe function would be (by {@link #standard()} and a denylist that does not name it), or
     * where the host confirmed it with {@link #allowUnsafe}.
     *
     * @param name the function's name, any case
     * @param dialect the dialect (only SQLite has them)
     * @return allowed or refused, with the catalog's class
     */
    public Decision decideFts5Auxiliary(String name, Dialect dialect) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(dialect, "dialect");
        String n = Names.lower(name);
        Optional<FunctionClass> cls = FunctionCatalog.of(dialect).classOf(n);
        if (!Engines.of(dialect).guard().fts5() || !Engines.of(dialect).guard().isFullTextFunction(n) || cls.isEmpty()) {
            return refused(n, cls, n + " is no FTS5 auxiliary function of " + dialect);
        }
        if (confirmed.get(n) == cls.get()) {
            return new Decision(Verdict.ALLOWED, n, cls, "confirmed " + cls.get() + " by the host", Optional.empty());
        }
        if (mode == Mode.DENYLIST ? !names.contains(n) : includeStandard || names.contains(n)) {
            return new Decision(Verdict.ALLOWED, n, cls, "FTS5 auxiliary function over its own table's row",
                    Optional.empty());
        }
        return refused(n, cls, n + " is not on the policy's allowlist");
    }

    private static Decision refused(String name, Optional<FunctionClass> cls, String reason) {
        return new Decision(Verdict.REFUSED, name, cls, reason, Optional.empty());
    }

    /**
     * Whether a call of this function may run: {@link #decide} says {@link Verdict#ALLOWED}.
     *
     * @param nameParts the function's name parts, unquoted, as written ({@code [pg_catalog, upper]})
     * @param dialect the dialect
     * @return whether the call is allowed
     */
    public boolean allows(List<String> nameParts, Dialect dialect) {
        return decide(nameParts, dialect).allowed();
    }

    /**
     * Says whether this policy allows a session or catalog probe written as a bare word or a cast.
     *
     * @param name a session or catalog probe ({@code current_user}, {@code version}, {@code regclass}),
     *             lower case
     * @return whether this policy allows it (only when confirmed with {@link #allowUnsafe})
     */
    public boolean allowsProbe(String name) {
        return confirmed.containsKey(Names.lower(name));
    }

    /**
     * Says whether a name is a session or catalog probe, such as {@code current_user} or {@code version}.
     *
     * @param name a name, lower case
     * @return whether it is a session or catalog probe on some engine, refused unless confirmed
     */
    public static boolean isProbe(String name) {
        String n = Names.lower(name);
        if (PROBES.contains(n)) {
            return true;
        }
        Map<Dialect, FunctionClass> classes = classesOnEngines(n);
        return classes.containsValue(FunctionClass.READS_SESSION) || classes.containsValue(FunctionClass.READS_CATALOG);
    }

    /**
     * @param dialect the dialect
     * @return the probes that dialect's engine reads as calls when written bare, without parentheses
     */
    static Set<String> probeKeywords(Dialect dialect) {
        return Engines.of(dialect).guard().bareProbes(PROBE_KEYWORDS);
    }

    private static final Pattern REG_TYPE = Pattern.compile("reg[a-z]+");

    /**
     * Says whether a cast to a type reads the catalog.
     *
     * @param type a type name, lower case, unqualified, without array brackets
     * @return whether a cast to it reads the catalog ({@code regclass}, {@code oid}, any {@code reg…} type)
     */
    public static boolean isCatalogType(String type) {
        return CATALOG_TYPES.contains(type) || REG_TYPE.matcher(type).matches();
    }

    /**
     * Says whether a function is unsafe: of an unsafe class in some engine's catalog, or, when no catalog has
     * it, of a family known to reach outside the database on engines without a catalog here ({@code xp_}, {@code dbms_}, {@code utl_},
     * {@code dblink}, …). Such a function runs only when the host confirms it with {@link #allowUnsafe}.
     *
     * @param name a function name or one part of a qualified name, any case
     * @return whether it is unsafe
     */
    public static boolean isDangerous(String name) {
        String n = Names.lower(name);
        Map<Dialect, FunctionClass> classes = classesOnEngines(n);
        if (!classes.isEmpty()) {
            for (FunctionClass c : classes.values()) {
                if (!c.safe()) {
                    return true;
                }
            }
            return false;
        }
        String last = n.substring(n.lastIndexOf('.') + 1);
        for (String prefix : DANGEROUS_PREFIXES) {
            if (last.startsWith(prefix) || n.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** The class of a name in each dialect's catalog that has it, in dialect order. */
    private static Map<Dialect, FunctionClass> classesOnEngines(String name) {
        Map<Dialect, FunctionClass> out = new TreeMap<>();
        for (Dialect d : Dialect.values()) {
            FunctionCatalog.of(d).classOf(name).ifPresent(c -> out.put(d, c));
        }
        return out;
    }

    private static void requireSafe(Set<String> functions, String method) {
        for (String f : functions) {
            Map<Dialect, FunctionClass> classes = classesOnEngines(f);
            for (Map.Entry<Dialect, FunctionClass> e : classes.entrySet()) {
                if (!e.getValue().safe()) {
                    throw new IllegalArgumentException(method + ": function " + f + " is " + e.getValue() + " on "
                            + e.getKey() + describe(classes) + "; to allow it, confirm the class: allowUnsafe("
                            + "FunctionClass." + e.getValue() + ", \"" + f + "\")");
                }
            }
            if (classes.isEmpty() && isDangerous(f)) {
                throw new IllegalArgumentException(method + ": function " + f + " belongs to a family that reaches"
                        + " outside the database; it cannot be allowed by name");
            }
        }
    }

    private static String describe(Map<Dialect, FunctionClass> classes) {
        return classes.isEmpty() ? " (no engine's catalog has it)" : " (catalogs: " + classes + ")";
    }

    private static Set<String> normalise(Collection<String> functions) {
        Set<String> out = new LinkedHashSet<>();
        for (String f : functions) {
            Objects.requireNonNull(f, "function");
            if (f.isBlank()) {
                throw new IllegalArgumentException("function name must not be blank");
            }
            out.add(Names.lower(f.trim()));
        }
        return out;
    }

    @Override
    public String toString() {
        return "FunctionPolicy{" + mode + (includeStandard ? ", standard" : "") + ", " + names
                + (confirmed.isEmpty() ? "" : ", unsafe " + new TreeMap<>(confirmed)) + '}';
    }
}
