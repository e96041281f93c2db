package dev.sqlagent.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sqlagent.AgentResult;
import dev.sqlagent.Dialect;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.cases.CaseLibrary;
import dev.sqlagent.cases.InMemoryCaseSink;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.testkit.ScriptedLlm;
import dev.sqlagent.llm.openai.OpenAiCompatibleClient;
import dev.sqlagent.micrometer.SqlAgentMeterBinder;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.StageListener;
import dev.sqlagent.trace.StageTransition;
import dev.sqlagent.vector.HashingEmbedder;
import dev.sqlagent.vector.InMemoryVectorStore;
import dev.sqlagent.vector.VectorStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The auto-configuration in Spring's ApplicationContextRunner, on H2, with a scripted model. */
class SqlAgentAutoConfigurationTest {

    private static final String TABLES = "sqlagent.policy.allowed-tables=staff,teams";

    /** The application: a DataSource on a fresh H2 database and a scripted model. */
    @Configuration(proxyBeanMethods = false)
    static class App {
        @Bean
        DataSource dataSource() throws SQLException {
            JdbcDataSource ds = new JdbcDataSource();
            ds.setURL("jdbc:h2:mem:boot-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
            ds.setUser("sa");
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE teams (id INT PRIMARY KEY, name VARCHAR(40))");
                s.execute("CREATE TABLE staff (id INT PRIMARY KEY, name VARCHAR(40), salary INT, team_id INT)");
                s.execute("CREATE TABLE secrets (id INT, secret VARCHAR(40))");
                s.execute("INSERT INTO teams VALUES (1, 'core'), (2, 'web')");
                s.execute("INSERT INTO staff VALUES (1, 'Ann', 100, 1), (2, 'Ben', 90, 1), (3, 'Cas', 80, 2)");
            }
            return ds;
        }

        @Bean
        ScriptedLlm llm() {
            return ScriptedLlm.create().fallback(App::answer);
        }

        /** Writes SQL by keyword; answers a judge with approval. */
        static LlmResponse answer(LlmRequest request) {
            String q = request.text();
            if (request.role().equals("judge")) {
                return LlmResponse.of("{\"is_correct\": true, \"score\": 90}");
            }
            List<String> texts = new java.util.ArrayList<>();
            for (int i = 0; i < request.n(); i++) {
                texts.add(q.contains("salary") ? "SELECT name, salary FROM staff"
                        : q.contains("secret") ? "SELECT secret FROM secrets" : "SELECT name FROM staff ORDER BY id");
            }
            return new LlmResponse(texts, dev.sqlagent.llm.TokenUsage.NONE, "");
        }
    }

    private static DataSource database() {
        try {
            return new App().dataSource();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SqlAgentAutoConfiguration.class))
            .withUserConfiguration(App.class);

    @Test
    void theAgentComesFromTheDataSourceAndThePolicyProperties() {
        runner.withPropertyValues(TABLES, "sqlagent.policy.denied-columns.staff=salary", "sqlagent.policy.max-rows=2")
                .run(context -> {
                    assertThat(context).hasSingleBean(SqlAgent.class).hasSingleBean(GuardPolicy.class);
                    SqlAgent agent = context.getBean(SqlAgent.class);
                    assertThat(agent.policy().allowedTables()).containsExactlyInAnyOrder("staff", "teams");
                    assertThat(agent.policy().deniedColumns()).containsKey("staff");
                    assertThat(agent.policy().maxRows()).isEqualTo(2);
                    assertThat(agent.dialect()).isEqualTo(Dialect.H2);

                    AgentResult names = agent.ask("Who works here?");
                    // three people work here; the row cap lets two through
                    assertThat(names).isInstanceOfSatisfying(AgentResult.Answered.class,
                            a -> assertThat(a.table().rows()).containsExactly(List.of("Ann"), List.of("Ben")));
                    AgentResult salaries = agent.ask("What is each salary?");
                    assertThat(salaries).isInstanceOfSatisfying(AgentResult.Rejected.class, r -> assertThat(
                            r.violations()).extracting(v -> v.type()).contains(ViolationType.COLUMN_DENIED));
                    assertThat(agent.ask("Show the secret")).isInstanceOf(AgentResult.Rejected.class);
                    // SqlAgent.close() is called when the context closes
                    assertThat(context.getBeanFactory().getBeanDefinition("sqlAgent").getDestroyMethodName())
                            .isEqualTo("(inferred)");
                });
    }

    @Test
    void budgetPropertiesLimitEveryQuestionAndClosingTheContextClosesTheAgent() {
        SqlAgent[] seen = new SqlAgent[1];
        runner.withPropertyValues(TABLES, "sqlagent.budget.max-model-calls=1", "sqlagent.budget.max-tokens=5000",
                "sqlagent.budget.deadline=30s").run(context -> {
                    SqlAgent agent = context.getBean(SqlAgent.class);
                    seen[0] = agent;
                    ScriptedLlm llm = context.getBean(ScriptedLlm.class);
                    // a failing column needs a correction, a second call: over the budget
                    llm.enqueueFor("refiner", "SELECT nickname FROM staff");
                    AgentResult r = agent.ask("Who works here?");
                    assertThat(r).isInstanceOfSatisfying(AgentResult.Failed.class,
                            f -> assertThat(f.kind()).isEqualTo(dev.sqlagent.FailureKind.MODEL_CALLS_EXCEEDED));
                    assertThat(agent.isClosed()).isFalse();
                });
        assertThat(seen[0].isClosed()).as("the context's shutdown closed the agent").isTrue();
    }

    @Test
    void candidatesAndJudgePropertiesReachTheModel() {
        runner.withPropertyValues(TABLES, "sqlagent.candidates=3", "sqlagent.judge=true").run(context -> {
            ScriptedLlm llm = context.getBean(ScriptedLlm.class);
            assertThat(context.getBean(SqlAgent.class).ask("Who works here?").status())
                    .isEqualTo(AgentResult.Status.ANSWERED);
            assertThat(llm.requests("refiner")).first().satisfies(r -> assertThat(r.n()).isEqualTo(3));
            assertThat(llm.requests("judge")).isNotEmpty();
        });
    }

    @Test
    void withoutAnLlmClientBeanTheModelPropertiesMakeAnOpenAiCompatibleClient() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SqlAgentAutoConfiguration.class))
                .withBean(DataSource.class, SqlAgentAutoConfigurationTest::database)
                .withPropertyValues(TABLES, "sqlagent.model.base-url=http://127.0.0.1:9/v1",
                        "sqlagent.model.api-key=sk-test", "sqlagent.model.name=tiny-sql", "sqlagent.model.timeout=5s")
                .run(context -> {
                    assertThat(context).hasSingleBean(SqlAgent.class);
                    assertThat(context.getBean(LlmClient.class)).isInstanceOfSatisfying(OpenAiCompatibleClient.class,
                            c -> {
                                assertThat(c.endpoint()).isEqualTo(URI.create("http://127.0.0.1:9/v1/chat/completions"));
                                assertThat(c.model()).isEqualTo("tiny-sql");
                            });
                });
    }

    @Test
    void missingSettingsFailTheStartupWithTheirPropertyNames() {
        runner.run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                .hasMessageContaining("sqlagent.policy.allowed-tables"));
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SqlAgentAutoConfiguration.class))
                .withBean(DataSource.class, SqlAgentAutoConfigurationTest::database).withPropertyValues(TABLES)
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("sqlagent.model.base-url").hasMessageContaining("LlmClient bean"));
    }

    /** A misspelt denial would leave the real column open: the application does not start, naming it. */
    @Test
    void aPolicyNameTheDatabaseLacksFailsTheStartupNamingTheNearest() {
        runner.withPropertyValues(TABLES, "sqlagent.policy.denied-columns.staff=salry")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(dev.sqlagent.guard.PolicyResolutionException.class)
                        .hasMessageContaining("denied column staff.salry (nearest: SALARY)"));
        runner.withPropertyValues("sqlagent.policy.allowed-tables=staff,team")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("allowed table team (nearest: teams)"));
        runner.withPropertyValues(TABLES, "sqlagent.policy.denied-columns.staff=salary")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void aVectorStoreOfAnotherDimensionThanTheEmbedderFailsTheStartupNamingBoth() {
        runner.withPropertyValues(TABLES).withBean(VectorStore.class, () -> new InMemoryVectorStore(768))
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("store dimension 768 does not match embedder dimension 384"));
    }

    @Test
    void nothingIsConfiguredWhenDisabled() {
        runner.withPropertyValues(TABLES, "sqlagent.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(SqlAgent.class).doesNotHaveBean(GuardPolicy.class));
    }

    @Test
    void beansOfTheApplicationReplaceOrJoinTheDefaults() {
        InMemoryCaseSink sink = new InMemoryCaseSink();
        List<StageTransition> heard = new CopyOnWriteArrayList<>();
        List<StageTransition> heardByCustomizer = new CopyOnWriteArrayList<>();
        runner.withPropertyValues(TABLES)
                .withBean(GuardPolicy.class, () -> GuardPolicy.allowingTables("teams"))
                .withBean(InMemoryCaseSink.class, () -> sink)
                .withBean(StageListener.class, () -> heard::add)
                .withBean(SqlAgentCustomizer.class, () -> b -> b.listener(heardByCustomizer::add))
                .withBean(VectorStore.class, () -> new InMemoryVectorStore(HashingEmbedder.DEFAULT_DIMENSION))
                .run(context -> {
                    SqlAgent agent = context.getBean(SqlAgent.class);
                    assertThat(agent.policy().allowedTables()).containsExactly("teams");
                    assertThat(context).hasSingleBean(CaseLibrary.class);
                    AgentResult r = agent.ask("Who works here?");
                    // staff is not allowed by the application's own policy
                    assertThat(r.status()).isEqualTo(AgentResult.Status.REJECTED);
                    assertThat(sink.cases()).singleElement()
                            .satisfies(c -> assertThat(c.id()).isEqualTo(r.trace().questionId()));
                    assertThat(heard).extracting(StageTransition::to).contains(Stage.REJECTED);
                    assertThat(heardByCustomizer).hasSameSizeAs(heard);
                });
        runner.withPropertyValues(TABLES).withBean("mine", SqlAgent.class, () -> SqlAgent.builder()
                        .llm(ScriptedLlm.create()).executor(sql -> {
                            throw new UnsupportedOperationException();
                        }).dialect(Dialect.H2).schema(dev.sqlagent.schema.SchemaCatalog.of(List.of()))
                        .policy(GuardPolicy.allowingTables("x")).build())
                .run(context -> assertThat(context).hasSingleBean(SqlAgent.class).hasBean("mine"));
    }

    @Test
    void healthIsUpWithTheAgentsCountsAndDownWhenTheDatabaseIsGone() {
        runner.withPropertyValues(TABLES).run(context -> {
            context.getBean(SqlAgent.class).ask("Who works here?");
            Health health = context.getBean("sqlagentHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("database", "H2").containsEntry("questions", 1L)
                    .containsEntry("answered", 1L);
        });
        // a database server that is not there: nothing listens on port 1 of the loopback
        JdbcDataSource gone = new JdbcDataSource();
        gone.setURL("jdbc:h2:tcp://127.0.0.1:1/nothing");
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SqlAgentAutoConfiguration.class))
                .withBean(DataSource.class, () -> gone).withBean(LlmClient.class, ScriptedLlm::create)
                .withBean(Dialect.class, () -> Dialect.POSTGRESQL).withPropertyValues(TABLES)
                .run(context -> {
                    Health health = context.getBean("sqlagentHealthIndicator", HealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(health.getDetails().get("error").toString()).contains("Connection refused");
                });
        runner.withPropertyValues(TABLES).withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .run(context -> assertThat(context).hasSingleBean(SqlAgent.class)
                        .doesNotHaveBean(SqlAgentHealthIndicator.class));
    }

    @Test
    void theMeterBinderHearsTheAgentAndPublishesItsMeasures() {
        runner.withPropertyValues(TABLES).run(context -> {
            SqlAgentMeterBinder binder = context.getBean(SqlAgentMeterBinder.class);
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            binder.bindTo(registry);
            context.getBean(SqlAgent.class).ask("Who works here?");
            assertThat(registry.get("sqlagent.questions").tag("status", "answered").functionCounter().count())
                    .isEqualTo(1);
            assertThat(registry.get("sqlagent.stage.duration").tag("stage", "execute").timer().count()).isEqualTo(1);
        });
        runner.withPropertyValues(TABLES).withClassLoader(new FilteredClassLoader(SqlAgentMeterBinder.class))
                .run(context -> assertThat(context).hasSingleBean(SqlAgent.class)
                        .doesNotHaveBean(SqlAgentMeterBinder.class));
    }

    // ---- the privilege audit at start-up ----

    @Test
    void theLoginIsAuditedAtStartUpAndTheHealthShowsWhatItCanReadBeyondThePolicy() {
        runner.withPropertyValues(TABLES).run(context -> {
            SqlAgentPrivileges privileges = context.getBean(SqlAgentPrivileges.class);
            // the application's login is H2's admin: it can read the secrets table, and write
            assertThat(privileges.report()).hasValueSatisfying(r -> {
                assertThat(r.forbiddenTables()).contains("public.secrets");
                assertThat(r.guardIsOnlyDefence()).isTrue();
            });
            Health health = context.getBean("sqlagentHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails().get("privileges")).isInstanceOfSatisfying(java.util.Map.class, d -> {
                assertThat(d.get("audited")).isEqualTo(true);
                assertThat(d.get("leastPrivilege")).isEqualTo(false);
                assertThat(d.get("forbiddenTablesReadable")).asInstanceOf(InstanceOfAssertFactories.LIST)
                        .contains("public.secrets");
            });
        });
        runner.withPropertyValues(TABLES, "sqlagent.audit.enabled=false").run(context -> {
            assertThat(context).hasSingleBean(SqlAgent.class).doesNotHaveBean(SqlAgentPrivileges.class);
            assertThat(context.getBean("sqlagentHealthIndicator", HealthIndicator.class).health().getDetails())
                    .doesNotContainKey("privileges");
        });
    }

    @Test
    void theAuditRunsAfterTheApplicationsSchemaScriptSoItSeesTheTablesTheScriptMade() {
        // an application whose tables come from Spring Boot's schema.sql (or Flyway, Liquibase): tried from an
        // empty project, the audit ran before the script and reported an empty database as clean of forbidden
        // tables
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration.class,
                        org.springframework.boot.autoconfigure.sql.init.SqlInitializationAutoConfiguration.class,
                        SqlAgentAutoConfiguration.class))
                .withBean(LlmClient.class, () -> ScriptedLlm.create().fallback(App::answer))
                .withPropertyValues(TABLES, "spring.datasource.generate-unique-name=true",
                        "spring.sql.init.schema-locations=classpath:boot-schema.sql")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(SqlAgentPrivileges.class).report()).hasValueSatisfying(r ->
                            assertThat(r.forbiddenTables()).contains("public.secrets"));
                    assertThat(context.getBean(SqlAgent.class).ask("Who works here?"))
                            .isInstanceOf(AgentResult.Answered.class);
                });
    }

    @Test
    void aLoginWiderThanThePolicyIsLoggedAtWarnAndALeastPrivilegeLoginAtInfo() throws SQLException {
        DataSource admin = database();
        RecordingLogger wide = new RecordingLogger();
        try (SqlAgent agent = SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(admin)
                .policy(GuardPolicy.allowingTables("staff", "teams")).build()) {
            SqlAgentPrivileges.audit(agent, wide);
        }
        assertThat(wide.lines()).singleElement().satisfies(l -> {
            assertThat(l.level()).isEqualTo(org.slf4j.event.Level.WARN);
            assertThat(l.message()).contains("more than the policy allows", "public.secrets");
        });

        JdbcDataSource reader = new JdbcDataSource();
        try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE USER reader PASSWORD 'pw'");
            s.execute("GRANT SELECT ON staff, teams TO reader");
            reader.setURL(c.getMetaData().getURL());
        }
        reader.setUser("reader");
        reader.setPassword("pw");
        RecordingLogger least = new RecordingLogger();
        SqlAgentPrivileges outcome;
        try (SqlAgent agent = SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(reader)
                .policy(GuardPolicy.allowingTables("staff", "teams")).build()) {
            outcome = SqlAgentPrivileges.audit(agent, least);
        }
        assertThat(outcome.details()).containsEntry("leastPrivilege", true);
        assertThat(least.lines()).singleElement().satisfies(l -> {
            assertThat(l.level()).isEqualTo(org.slf4j.event.Level.INFO);
            assertThat(l.message()).contains("least privilege");
        });
    }

    @Test
    void anAgentOnACustomExecutorIsNotAuditedAndStillStarts() {
        runner.withPropertyValues(TABLES).withBean(dev.sqlagent.execution.SqlExecutor.class, () -> sql -> {
            throw new UnsupportedOperationException();
        }).withBean(Dialect.class, () -> Dialect.H2).withBean(dev.sqlagent.schema.SchemaCatalog.class,
                () -> dev.sqlagent.schema.SchemaCatalog.of(List.of())).run(context -> {
                    assertThat(context).hasNotFailed();
                    SqlAgentPrivileges privileges = context.getBean(SqlAgentPrivileges.class);
                    assertThat(privileges.report()).isEmpty();
                    assertThat(privileges.problem()).hasValueSatisfying(p -> assertThat(p).startsWith("not audited"));
                });
    }

    // ---- results as JSON ----

    @Test
    void aControllersObjectMapperWritesAResultInTheLibrarysJsonForm() throws Exception {
        runner.withPropertyValues(TABLES).run(context -> {
            AgentResult answered = context.getBean(SqlAgent.class).ask("Who works here?");
            AgentResult rejected = context.getBean(SqlAgent.class).ask("Show the secret");
            // without the module, Jackson cannot write the trace a result holds
            assertThatThrownBy(() -> new ObjectMapper().writeValueAsString(answered))
                    .isInstanceOf(com.fasterxml.jackson.databind.JsonMappingException.class);
            // Spring Boot registers every Module bean with the application's ObjectMapper
            ObjectMapper mapper = new ObjectMapper().registerModules(
                    context.getBeansOfType(com.fasterxml.jackson.databind.Module.class).values());

            assertThat(mapper.writeValueAsString(answered)).isEqualTo(answered.toJson());
            assertThat(mapper.writeValueAsString(List.of(answered, rejected)))
                    .isEqualTo("[" + answered.toJson() + "," + rejected.toJson() + "]");
            assertThat(mapper.readTree(mapper.writeValueAsString(rejected)).get("hand_off").get("status").asText())
                    .isEqualTo("REJECTED");
            assertThat(mapper.writeValueAsString(answered.trace())).isEqualTo(answered.trace().toJson());
        });
        runner.withPropertyValues(TABLES).withClassLoader(new FilteredClassLoader(ObjectMapper.class))
                .run(context -> assertThat(context).hasSingleBean(SqlAgent.class)
                        .doesNotHaveBean(SqlAgentJacksonModule.class));
    }
}
