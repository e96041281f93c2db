package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineGuard;
import dev.sqlagent.engine.Engines;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every function an engine has, each with its {@link FunctionClass}: the closed world the function policy
 * decides in. Immutable and thread-safe; each dialect's catalog is loaded once, on first use.
 *
 * <p>Where the lists come from: PostgreSQL, MariaDB, H2 and SQLite each have a catalog generated from the
 * engine's own list of functions (PostgreSQL {@code pg_proc} and its keywords, MariaDB's built-ins, H2's
 * built-ins of every compatibility mode, SQLite {@code pragma_function_list}) and committed as
 * {@code dev/sqlagent/engine/<engine>/functions.tsv}, read by the engine's
 * {@link EngineGuard}; the generator is {@code FunctionCatalogGenerator} in
 * core's test sources, and {@code FunctionCatalogCompletenessTest} fails when the engine in CI has a function
 * the committed catalog does not classify. {@link Dialect#MYSQL} uses MariaDB's catalog plus a few reviewed
 * MySQL-only functions ({@code regexp_like}, {@code any_value}, …): a MySQL function missing there reads as
 * unknown, never as allowed. {@link Dialect#SQLSERVER}, {@link Dialect#ORACLE} and {@link Dialect#GENERIC}
 * have no engine in CI: their catalog is a small hand-written list of ordinary functions
 * ({@link #generated()} is false), and a name outside it is refused rather than taken for an invented one.
 *
 * <p>Names: lower case, unquoted. A name qualified with the engine's own function schema (PostgreSQL's
 * {@code pg_catalog}) resolves like the bare name ({@code pg_catalog.upper} is {@code upper});
 * {@code information_schema}'s functions are listed qualified. Any other qualified name
 * ({@code public.upper}, {@code hr.leak}) resolves to nothing: it names a function of the database, not of
 * the engine, which the catalog cannot vouch for.
 */
public final class FunctionCatalog {

    private static final Map<Dialect, FunctionCatalog> LOADED = new ConcurrentHashMap<>();

    private final Dialect dialect;
    private final Map<String, FunctionClass> classes;
    private final boolean generated;
    private final String functionSchema;
    private final Map<String, String> equivalents;

    private FunctionCatalog(Dialect dialect, Map<String, FunctionClass> classes, boolean generated,
                            String functionSchema, Map<String, String> equivalents) {
        this.dialect = dialect;
        this.classes = Collections.unmodifiableMap(new TreeMap<>(classes));
        this.generated = generated;
        this.functionSchema = functionSchema;
        this.equivalents = Map.copyOf(equivalents);
    }

    /**
     * Returns the catalog of a dialect's engine, loading it on first use.
     *
     * @param dialect a dialect
     * @return its catalog
     * @throws IllegalStateException if the committed catalog file is missing or malformed (a build fault)
     */
    public static FunctionCatalog of(Dialect dialect) {
        Objects.requireNonNull(dialect, "dialect");
        return LOADED.computeIfAbsent(dialect, FunctionCatalog::load);
    }

    /** {@return the dialect this catalog is for} */
    public Dialect dialect() {
        return dialect;
    }

    /**
     * Says whether this catalog was generated from the engine.
     *
     * @return whether this catalog was generated from the engine (PostgreSQL, MariaDB, MySQL, H2, SQLite);
     *         false for the hand-written lists of dialects without an engine in CI, where a name outside the
     *         list may still be a real function and is refused, not taken for an invented one
     */
    public boolean generated() {
        return generated;
    }

    /**
     * Classifies a function.
     *
     * @param name a function name, unquoted, any case; qualified names are read as the class Javadoc says
     * @return its class, or empty when the engine has no such function (or the name is qualified with a
     *         schema other than the engine's own)
     */
    public Optional<FunctionClass> classOf(String name) {
        String key = key(name);
        return key == null ? Optional.empty() : Optional.ofNullable(classes.get(key));
    }

    /**
     * Says whether the engine has a function.
     *
     * @param name a function name, as for {@link #classOf(String)}
     * @return whether the engine has it
     */
    public boolean has(String name) {
        return classOf(name).isPresent();
    }

    /** {@return every function of this catalog, lower case, sorted; {@code information_schema}'s qualified} */
    public Set<String> names() {
        return classes.keySet();
    }

    /**
     * Says what to write instead of a function this engine lacks but models often write ({@code YEAR(x)} on
     * SQLite, {@code IFNULL} on PostgreSQL): a short hint for the correction prompt.
     *
     * @param inventedName the name the SQL called, any case
     * @return a sentence naming this engine's equivalent, or empty when none is known or the engine has the
     *         function after all
     */
    public Optional<String> equivalent(String inventedName) {
        String key = key(inventedName);
        if (key == null || classes.containsKey(key)) {
            return Optional.empty();
        }
        String instead = equivalents.get(key);
        return instead == null ? Optional.empty()
                : Optional.of(engineName() + " has no function " + key + "(); write " + instead + " instead");
    }

    private String engineName() {
        return Engines.of(dialect).guard().name();
    }

    /** The catalog key of a name, or null when a qualified name is outside the engine's function schema. */
    private String key(String name) {
        if (name == null) {
            return null;
        }
        String n = Names.lower(name.trim());
        if (n.isEmpty()) {
            return null;
        }
        int dot = n.indexOf('.');
        if (dot < 0) {
            return n;
        }
        if (classes.containsKey(n)) {
            return n; // information_schema._pg_expandarray
        }
        String schema = n.substring(0, dot);
        String rest = n.substring(dot + 1);
        if (functionSchema != null && schema.equals(functionSchema) && rest.indexOf('.') < 0) {
            return rest;
        }
        return null;
    }

    @Override
    public String toString() {
        return "FunctionCatalog{" + dialect + ", " + classes.size() + " functions"
                + (generated ? "" : ", hand-written") + '}';
    }

    // ---------------------------------------------------------------- loading

    private static FunctionCatalog load(Dialect dialect) {
        EngineGuard engine = Engines.of(dialect).guard();
        return new FunctionCatalog(dialect, engine.functionClasses(), engine.functionsGenerated(),
                engine.functionSchema(), engine.functionEquivalents());
    }
}
