package dev.sqlagent.internal;

import dev.sqlagent.AgentRole;
import dev.sqlagent.Dialect;
import dev.sqlagent.QuestionBudget;
import dev.sqlagent.StageMode;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.Engines;
import dev.sqlagent.execution.JdbcSqlExecutor;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.PolicyResolutionException;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.metrics.MetricTool;
import dev.sqlagent.schema.SchemaCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cross-field checks of {@code SqlAgent.Builder.build()} that need no database: settings that build
 * fine but make every question fail, or that are silently ignored. Each error names the builder fields
 * involved and their values. Settings that are merely unused (a model for a role that never runs) are
 * logged at WARN instead, since a host may configure its models in one place for several agents.
 */
public final class BuildChecks {

    private static final Logger LOG = LoggerFactory.getLogger("dev.sqlagent.SqlAgent");

    private BuildChecks() {
    }

    /**
     * What {@code build()} knows once the dialect is settled.
     *
     * @param policy the agent's policy
     * @param guard the guard
     * @param dialect the dialect (given or detected)
     * @param schema the schema given with {@code schema(...)}, or null when it is read from the database
     * @param metricTools the registered metric tools
     * @param customExecutor whether a custom executor was given instead of a data source
     * @param queryTimeout the query timeout set on the builder
     * @param models the models per role
     * @param judge whether the judge is on
     * @param selector when the selector runs
     * @param decomposer when the decomposer runs
     */
    public record Settings(GuardPolicy policy, SqlGuard guard, Dialect dialect, SchemaCatalog schema,
            List<MetricTool> metricTools, boolean customExecutor, Duration queryTimeout,
            Map<AgentRole, LlmClient> models, boolean judge, StageMode selector, StageMode decomposer) {

        /**
         * Checks the required parts and copies the collections.
         *
         * @param policy the agent's policy
         * @param guard the guard
         * @param dialect the dialect
         * @param schema the given schema, or null
         * @param metricTools the metric tools
         * @param customExecutor whether a custom executor was given
         * @param queryTimeout the query timeout
         * @param models the models per role
         * @param judge whether the judge is on
         * @param selector when the selector runs
         * @param decomposer when the decomposer runs
         */
        public Settings {
            Objects.requireNonNull(policy, "policy");
            Objects.requireNonNull(guard, "guard");
            Objects.requireNonNull(dialect, "dialect");
            Objects.requireNonNull(queryTimeout, "queryTimeout");
            metricTools = List.copyOf(metricTools);
            models = Map.copyOf(models);
        }
    }

    /**
     * Runs the checks.
     *
     * @param s the builder's settings
     * @throws IllegalStateException naming the fields of the first mismatch found
     */
    public static void check(Settings s) {
        if (s.customExecutor() && !s.queryTimeout().equals(JdbcSqlExecutor.DEFAULT_QUERY_TIMEOUT)) {
            throw new IllegalStateException("queryTimeout " + s.queryTimeout() + " is never applied: it bounds the"
                    + " executor built from dataSource(...), and a custom executor bounds its own queries"
                    + " (queryTimeout vs executor)");
        }
        if (s.schema() != null && !s.schema().tables().isEmpty()) {
            checkSchemaMeetsPolicy(s.schema(), s.policy());
        }
        for (MetricTool tool : s.metricTools()) {
            GuardVerdict v = s.guard().check(tool.markedSql(), s.policy(), s.dialect());
            if (v instanceof GuardVerdict.Rejected r) {
                List<String> why = new ArrayList<>();
                for (Violation violation : r.violations()) {
                    why.add(violation.type() + ": " + violation.message());
                }
                throw new IllegalStateException("metric '" + tool.name() + "' is refused by the guard under the"
                        + " agent's policy, so it could never answer: " + String.join("; ", why)
                        + " (metricTool vs policy " + s.policy().allowedTables() + ")");
            }
        }
        warnUnused(s);
    }

    /**
     * What is wrong with a budget's statement caps ({@code QuestionBudget.withMaxScanBytes},
     * {@code withMaxMemoryBytes}) for an agent: a cap is enforced only by the library's own
     * {@link JdbcSqlExecutor} (it puts the cap in the engine's session) on an engine that has the setting, and a
     * cap the agent would silently not enforce is refused rather than ignored.
     *
     * @param budget the budget
     * @param dialect the agent's dialect
     * @param jdbcExecutor whether the agent's executor is a {@link JdbcSqlExecutor}
     * @return what is wrong, naming the cap and the engine, or null when every cap the budget sets is enforced
     */
    public static String unenforcedCaps(QuestionBudget budget, Dialect dialect, boolean jdbcExecutor) {
        List<String> caps = new ArrayList<>();
        EngineDatabase database = Engines.of(dialect).database();
        if (budget.maxScanBytes().isPresent() && !(jdbcExecutor && database.enforcesScanCap())) {
            caps.add("maxScanBytes " + budget.maxScanBytes().getAsLong());
        }
        if (budget.maxMemoryBytes().isPresent() && !(jdbcExecutor && database.enforcesMemoryCap())) {
            caps.add("maxMemoryBytes " + budget.maxMemoryBytes().getAsLong());
        }
        if (caps.isEmpty()) {
            return null;
        }
        return "the budget's " + String.join(" and ", caps) + " cannot be enforced " + (jdbcExecutor
                ? "on " + dialect + ": the engine has no such setting (scan and memory caps are enforced on "
                        + enforcing() + ")"
                : "by a custom executor: the caps are put in the engine's session by a JdbcSqlExecutor, such as the"
                        + " one the agent builds from dataSource(...)") + "; remove the cap rather than rely on it";
    }

    /** The dialects whose engine enforces both byte caps, for the message. */
    private static String enforcing() {
        List<String> out = new ArrayList<>();
        for (Dialect d : Dialect.values()) {
            EngineDatabase database = Engines.of(d).database();
            if (database.enforcesScanCap() && database.enforcesMemoryCap()) {
                out.add(d.name());
            }
        }
        return String.join(", ", out);
    }

    /**
     * The policy's closed world, checked once a catalog is at hand: every allowed table, denied column, row
     * filter's table and column, and every table a metric tool reads, resolves to something the database
     * has ({@link SchemaCatalog#requireResolves}).
     *
     * @param catalog the catalog read from the database or given by the host
     * @param s the builder's settings
     * @throws PolicyResolutionException naming each unresolved name with the nearest real ones
     */
    public static void checkResolves(SchemaCatalog catalog, Settings s) {
        if (catalog.knowsNoTable()) {
            LOG.warn("the policy's names are not checked: the schema catalog knows no table (an empty schema(...)),"
                    + " so the guard alone decides; a misspelt denied column would go unnoticed");
            return;
        }
        List<PolicyResolutionException.Unresolved> missing = new ArrayList<>();
        try {
            catalog.requireResolves(s.policy(), s.dialect());
        } catch (PolicyResolutionException e) {
            missing.addAll(e.unresolved());
        }
        for (MetricTool tool : s.metricTools()) {
            if (s.guard().check(tool.markedSql(), s.policy(), s.dialect()) instanceof GuardVerdict.Accepted a) {
                for (String table : a.tables()) {
                    for (PolicyResolutionException.Unresolved u : List.copyOf(missing)) {
                        if (u.kind() == PolicyResolutionException.Kind.ALLOWED_TABLE && u.name().equals(table)) {
                            missing.add(new PolicyResolutionException.Unresolved(
                                    PolicyResolutionException.Kind.METRIC_TABLE, tool.name() + ": " + table,
                                    u.nearest()));
                        }
                    }
                }
            }
        }
        if (!missing.isEmpty()) {
            throw new PolicyResolutionException(missing);
        }
    }

    /**
     * Says once, at build, that the policy's names could not be resolved yet: the catalog could not be
     * read. They are resolved when it is first read, and a question fails while they do not.
     *
     * @param why why the catalog could not be read
     */
    public static void unresolvedAtBuild(String why) {
        LOG.warn("the policy's names are not checked at build: the schema catalog cannot be read ({}); they are"
                + " checked when it is first read, and no question is answered while one does not resolve", why);
    }

    private static void checkSchemaMeetsPolicy(SchemaCatalog schema, GuardPolicy policy) {
        TreeSet<String> names = new TreeSet<>();
        for (SchemaCatalog.Table t : schema.tables()) {
            if (allowed(t.name(), policy)) {
                return;
            }
            names.add(t.name());
        }
        throw new IllegalStateException("the schema has no table the policy allows, so every question would be"
                + " rejected: schema tables " + names + " vs policy.allowedTables " + new TreeSet<>(policy.allowedTables())
                + " (schema vs policy)");
    }

    /** Allowed as written, or with only one side schema-qualified. */
    private static boolean allowed(String table, GuardPolicy policy) {
        if (policy.allowsTable(table)) {
            return true;
        }
        String bare = bare(table);
        for (String entry : policy.allowedTables()) {
            if (bare(entry).equals(bare)) {
                return true;
            }
        }
        return false;
    }

    private static String bare(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT).replace("\"", "").replace("`", "");
        int dot = n.lastIndexOf('.');
        return dot < 0 ? n : n.substring(dot + 1);
    }

    private static void warnUnused(Settings s) {
        if (s.models().containsKey(AgentRole.JUDGE) && !s.judge()) {
            LOG.warn("a model was given for the judge role but judge(true) was not called: it is never asked");
        }
        if (s.models().containsKey(AgentRole.ROUTER) && s.metricTools().isEmpty()) {
            LOG.warn("a model was given for the router role but no metricTool(...) was registered: it is never asked");
        }
        if (s.models().containsKey(AgentRole.SELECTOR) && s.selector() == StageMode.NEVER) {
            LOG.warn("a model was given for the selector role but selector(NEVER) was set: it is never asked");
        }
        if (s.models().containsKey(AgentRole.DECOMPOSER) && s.decomposer() == StageMode.NEVER) {
            LOG.warn("a model was given for the decomposer role but decomposer(NEVER) was set: it is never asked");
        }
    }
}
