package dev.sqlagent.spring;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sqlagent.Dialect;
import dev.sqlagent.PromptTemplates;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.TokenBudgets;
import dev.sqlagent.cases.CaseLibrary;
import dev.sqlagent.cases.CaseSink;
import dev.sqlagent.execution.SqlExecutor;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.llm.openai.OpenAiCompatibleClient;
import dev.sqlagent.metrics.MetricTool;
import dev.sqlagent.micrometer.SqlAgentMeterBinder;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.schema.SchemaEnrichment;
import dev.sqlagent.trace.StageListener;
import dev.sqlagent.vector.Embedder;
import dev.sqlagent.vector.VectorStore;
import dev.sqlagent.verify.ResultVerifier;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Configures a {@link SqlAgent} from the application's {@link DataSource} and the {@code sqlagent.*}
 * properties ({@link SqlAgentProperties}).
 *
 * <p>Every part can be replaced by a bean of its own type, and the auto-configured one then steps
 * aside: {@link GuardPolicy} (else built from {@code sqlagent.policy.*}), {@link LlmClient} (else an
 * {@link OpenAiCompatibleClient} from {@code sqlagent.model.*}), {@link SqlExecutor} (instead of the
 * data source; then {@link Dialect} and {@link SchemaCatalog} beans too), {@link CaseLibrary} (else one
 * is made when a {@link VectorStore} bean exists, with the {@link Embedder} bean if there is one), and
 * the {@link SqlAgent} itself. Beans of {@link CaseSink}, {@link StageListener}, {@link ResultVerifier}
 * and {@link MetricTool} are all added; a {@link Dialect}, {@link SchemaCatalog},
 * {@link SchemaEnrichment}, {@link PromptTemplates} or {@link TokenBudgets} bean is used;
 * {@link SqlAgentCustomizer} beans adjust the builder last.
 *
 * <p>The agent and the audit are made after the application's database initialization (Spring Boot's
 * {@code schema.sql}, Flyway, Liquibase), so that they see the tables it creates.
 * At start-up the agent's database login is audited ({@link SqlAgentPrivileges}; off with
 * {@code sqlagent.audit.enabled=false}): a login that can read what the policy forbids, or write, is logged
 * at WARN. With Spring Boot Actuator present, a health indicator {@code sqlagent} reports whether the
 * database answers, the agent's counts and the audit; with jackson-databind present, a
 * {@link SqlAgentJacksonModule} bean lets controllers return results; with {@code sqlagent-micrometer} present, a
 * {@link SqlAgentMeterBinder} bean publishes the agent's measures to the application's registries.
 * The bean's destroy method is inferred, so {@link SqlAgent#close()} runs when the context closes: questions
 * under way are cancelled and the agent's threads stop (graceful shutdown). {@code sqlagent.budget.*} sets
 * the per-question limits ({@code max-model-calls}, {@code max-tokens}, {@code deadline}).
 */
@AutoConfiguration(afterName = "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration")
@ConditionalOnClass(SqlAgent.class)
@ConditionalOnProperty(prefix = "sqlagent", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(SqlAgentProperties.class)
public class SqlAgentAutoConfiguration {

    /** Creates the auto-configuration; Spring calls it. */
    public SqlAgentAutoConfiguration() {
    }

    /**
     * The guard policy from {@code sqlagent.policy.*}.
     *
     * @param properties the properties
     * @return the policy
     * @throws IllegalStateException if no table is allowed
     */
    @Bean
    @ConditionalOnMissingBean
    public GuardPolicy sqlAgentGuardPolicy(SqlAgentProperties properties) {
        SqlAgentProperties.Policy p = properties.getPolicy();
        if (p.getAllowedTables() == null || p.getAllowedTables().isEmpty()) {
            throw new IllegalStateException("sqlagent needs the tables it may read: set sqlagent.policy.allowed-tables"
                    + " (e.g. sqlagent.policy.allowed-tables=orders,customers) or define a GuardPolicy bean");
        }
        GuardPolicy.Builder b = GuardPolicy.builder().allowTables(p.getAllowedTables())
                .allowSelectStar(p.isAllowSelectStar());
        for (Map.Entry<String, List<String>> e : p.getDeniedColumns().entrySet()) {
            for (String column : e.getValue()) {
                b.denyColumn(e.getKey(), column);
            }
        }
        if (p.getMaxRows() != null) {
            b.maxRows(p.getMaxRows());
        }
        return b.build();
    }

    /**
     * The model: an OpenAI-compatible client from {@code sqlagent.model.*}.
     *
     * @param properties the properties
     * @return the client
     * @throws IllegalStateException if the base URL or the model name is missing
     */
    @Bean
    @ConditionalOnMissingBean
    public LlmClient sqlAgentLlmClient(SqlAgentProperties properties) {
        SqlAgentProperties.Model m = properties.getModel();
        if (m.getBaseUrl() == null || m.getBaseUrl().isBlank() || m.getName() == null || m.getName().isBlank()) {
            throw new IllegalStateException("sqlagent needs a model: set sqlagent.model.base-url and sqlagent.model.name"
                    + " (and sqlagent.model.api-key if the endpoint wants one), or define an LlmClient bean; was " + m);
        }
        OpenAiCompatibleClient.Builder b = OpenAiCompatibleClient.builder().baseUrl(m.getBaseUrl())
                .apiKey(m.getApiKey()).model(m.getName());
        if (m.getTimeout() != null) {
            b.timeout(m.getTimeout());
        }
        return b.build();
    }

    /**
     * A case library over the application's vector store, when it defines one.
     *
     * @param store the vector store
     * @param embedder the embedder, if one is defined (else the library's default)
     * @return the library
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(VectorStore.class)
    public CaseLibrary sqlAgentCaseLibrary(VectorStore store, ObjectProvider<Embedder> embedder) {
        CaseLibrary.Builder b = CaseLibrary.builder().store(store);
        embedder.ifUnique(b::embedder);
        return b.build();
    }

    /**
     * The agent.
     *
     * @param properties the properties
     * @param policy the guard policy
     * @param llm the model
     * @param dataSource the application's data source, unless an executor is given
     * @param executor a custom executor, used instead of the data source
     * @param dialect the dialect, instead of detecting it
     * @param schema the schema, instead of reading it
     * @param enrichment what the host knows of its schema
     * @param prompts prompt templates
     * @param budgets token budgets
     * @param caseLibrary the case library
     * @param caseSinks case sinks
     * @param listeners stage listeners
     * @param verifiers result verifiers
     * @param metricTools metric tools
     * @param customizers last adjustments to the builder
     * @return the agent
     */
    @Bean
    @ConditionalOnMissingBean
    @DependsOnDatabaseInitialization
    public SqlAgent sqlAgent(SqlAgentProperties properties, GuardPolicy policy, LlmClient llm,
            ObjectProvider<DataSource> dataSource, ObjectProvider<SqlExecutor> executor,
            ObjectProvider<Dialect> dialect, ObjectProvider<SchemaCatalog> schema,
            ObjectProvider<SchemaEnrichment> enrichment, ObjectProvider<PromptTemplates> prompts,
            ObjectProvider<TokenBudgets> budgets, ObjectProvider<CaseLibrary> caseLibrary,
            ObjectProvider<CaseSink> caseSinks, ObjectProvider<StageListener> listeners,
            ObjectProvider<ResultVerifier> verifiers, ObjectProvider<MetricTool> metricTools,
            ObjectProvider<SqlAgentCustomizer> customizers) {
        SqlAgent.Builder b = SqlAgent.builder().llm(llm).policy(policy)
                .candidates(properties.getCandidates()).judge(properties.isJudge())
                .correction(properties.isCorrection());
        SqlExecutor custom = executor.getIfUnique();
        if (custom != null) {
            b.executor(custom);
        } else {
            DataSource ds = dataSource.getIfUnique();
            if (ds == null) {
                throw new IllegalStateException("sqlagent needs a database: define one DataSource (spring.datasource.*)"
                        + " or a SqlExecutor bean with Dialect and SchemaCatalog beans");
            }
            b.dataSource(ds);
        }
        if (properties.getQueryTimeout() != null) {
            b.queryTimeout(properties.getQueryTimeout());
        }
        b.budget(budget(properties.getBudget()));
        dialect.ifUnique(b::dialect);
        schema.ifUnique(b::schema);
        enrichment.ifUnique(b::schemaEnrichment);
        prompts.ifUnique(b::prompts);
        budgets.ifUnique(b::tokenBudgets);
        CaseLibrary library = caseLibrary.getIfUnique();
        if (library != null) {
            b.caseLibrary(library);
        }
        caseSinks.orderedStream().filter(s -> s != library).forEach(b::caseSink);
        listeners.orderedStream().forEach(b::listener);
        verifiers.orderedStream().forEach(b::verifier);
        metricTools.orderedStream().forEach(b::metricTool);
        customizers.orderedStream().forEach(c -> c.customize(b));
        return b.build();
    }

    private static dev.sqlagent.QuestionBudget budget(SqlAgentProperties.Budget p) {
        dev.sqlagent.QuestionBudget b = dev.sqlagent.QuestionBudget.unlimited();
        if (p.getMaxModelCalls() != null) {
            b = b.withMaxModelCalls(p.getMaxModelCalls());
        }
        if (p.getMaxTokens() != null) {
            b = b.withMaxTokens(p.getMaxTokens());
        }
        if (p.getDeadline() != null) {
            b = b.withDeadline(p.getDeadline());
        }
        return b;
    }

    /**
     * The privilege audit of the agent's database login, run once at start-up: a login that can read what
     * the policy forbids, or write, is logged at WARN; the health indicator shows the outcome.
     *
     * @param agent the agent
     * @return the audit's outcome
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "sqlagent.audit", name = "enabled", matchIfMissing = true)
    @DependsOnDatabaseInitialization
    public SqlAgentPrivileges sqlAgentPrivileges(SqlAgent agent) {
        return SqlAgentPrivileges.audit(agent);
    }

    /** The Actuator health indicator, when Actuator is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnProperty(prefix = "management.health.sqlagent", name = "enabled", matchIfMissing = true)
    static class HealthConfiguration {

        /**
         * @param agent the agent
         * @param dataSource the data source it reads, if any
         * @param privileges the start-up privilege audit, unless turned off
         * @return the health indicator {@code sqlagent}
         */
        @Bean
        @ConditionalOnMissingBean(name = "sqlagentHealthIndicator")
        SqlAgentHealthIndicator sqlagentHealthIndicator(SqlAgent agent, ObjectProvider<DataSource> dataSource,
                ObjectProvider<SqlAgentPrivileges> privileges) {
            return new SqlAgentHealthIndicator(agent, dataSource.getIfUnique(), privileges.getIfUnique());
        }
    }

    /** The Jackson module, when jackson-databind is on the class path: controllers may return results. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ObjectMapper.class)
    static class JacksonConfiguration {

        /**
         * Spring Boot adds every Jackson module bean to the application's {@code ObjectMapper}.
         *
         * @return the module writing {@code AgentResult}, {@code HandOff}, {@code Trace} and
         *     {@code PrivilegeReport} in their stable JSON forms
         */
        @Bean
        @ConditionalOnMissingBean
        SqlAgentJacksonModule sqlAgentJacksonModule() {
            return new SqlAgentJacksonModule();
        }
    }

    /** Micrometer meters, when sqlagent-micrometer is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(SqlAgentMeterBinder.class)
    @ConditionalOnProperty(prefix = "sqlagent.metrics", name = "enabled", matchIfMissing = true)
    static class MetricsConfiguration {

        /**
         * The binder; as a {@link StageListener} bean it is added to the auto-configured agent, and as a
         * {@code MeterBinder} bean Spring Boot's metrics auto-configuration binds it to every registry.
         *
         * @return the binder
         */
        @Bean
        @ConditionalOnMissingBean
        SqlAgentMeterBinder sqlAgentMeterBinder() {
            return SqlAgentMeterBinder.builder().build();
        }

        /**
         * Points the binder at the agent once every singleton exists.
         *
         * @param binder the binder
         * @param agent the agent, if there is exactly one
         * @return the hook
         */
        @Bean
        SmartInitializingSingleton sqlAgentMeterBinderMonitor(SqlAgentMeterBinder binder, ObjectProvider<SqlAgent> agent) {
            return () -> agent.ifUnique(binder::monitor);
        }
    }
}
