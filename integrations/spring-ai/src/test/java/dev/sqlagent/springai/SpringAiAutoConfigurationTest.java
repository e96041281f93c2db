package dev.sqlagent.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.spring.SqlAgentAutoConfiguration;
import dev.sqlagent.springai.boot.SqlAgentSpringAiAutoConfiguration;
import dev.sqlagent.springai.boot.SqlAgentSpringAiToolsAutoConfiguration;
import dev.sqlagent.testkit.ShopDatabase;
import dev.sqlagent.vector.Embedder;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The Spring AI auto-configuration with the starter's, in Spring's ApplicationContextRunner, on H2. */
class SpringAiAutoConfigurationTest {

    private static final ChatModel SQL_WRITER = ScriptedChatModel.text(p -> p.getContents().contains("card")
            ? "SELECT card FROM card_numbers" : "SELECT name FROM customers ORDER BY id");

    private static final EmbeddingModel EMBEDDINGS = new WordsEmbeddingModel();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SqlAgentAutoConfiguration.class,
                    SqlAgentSpringAiAutoConfiguration.class, SqlAgentSpringAiToolsAutoConfiguration.class))
            .withBean(DataSource.class, ShopDatabase::create)
            .withPropertyValues("sqlagent.policy.allowed-tables=customers,orders", "sqlagent.audit.enabled=false");

    @Test
    void aChatModelBeanWritesTheSqlAndTheAgentIsOfferedAsTools() {
        runner.withBean(ChatModel.class, () -> SQL_WRITER).withBean(EmbeddingModel.class, () -> EMBEDDINGS)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(LlmClient.class)).isInstanceOf(SpringAiLlmClient.class);
                    assertThat(context.getBean(Embedder.class)).isInstanceOf(SpringAiEmbedder.class);
                    assertThat(context.getBeansOfType(SqlAgentToolCallback.class)).containsOnlyKeys(
                            "sqlAgentAskTool", "sqlAgentQueryTool");
                    SqlAgentToolCallback ask = context.getBean("sqlAgentAskTool", SqlAgentToolCallback.class);
                    assertThat(ask.call("{\"question\": \"Who are the customers?\"}")).contains("| Ada |");
                    assertThat(ask.call("{\"question\": \"Show the card numbers\"}"))
                            .contains("refused by the data access policy").doesNotContain("4111");
                    assertThat(context.getBean(SqlAgent.class).ask("Who?")).isInstanceOf(AgentResult.Answered.class);
                });
    }

    @Test
    void theHostsOwnLlmClientOrModelPropertiesWin() {
        LlmClient own = request -> LlmResponse.of("SELECT 1");
        runner.withBean(ChatModel.class, () -> SQL_WRITER).withBean(LlmClient.class, () -> own)
                .run(context -> assertThat(context.getBean(LlmClient.class)).isSameAs(own));
        runner.withBean(ChatModel.class, () -> SQL_WRITER)
                .withPropertyValues("sqlagent.model.base-url=http://127.0.0.1:1/v1", "sqlagent.model.name=m")
                .run(context -> assertThat(context.getBean(LlmClient.class)).isNotInstanceOf(SpringAiLlmClient.class));
    }

    /** A misspelt denial would leave the real column open: the application does not start, naming it. */
    @Test
    void aPolicyNameTheDatabaseLacksFailsTheStartUpNamingTheNearest() {
        runner.withBean(ChatModel.class, () -> SQL_WRITER)
                .withPropertyValues("sqlagent.policy.denied-columns.customers=ctiy")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(dev.sqlagent.guard.PolicyResolutionException.class)
                        .hasMessageContaining("denied column customers.ctiy (nearest: CITY)"));
        runner.withBean(ChatModel.class, () -> SQL_WRITER)
                .withPropertyValues("sqlagent.policy.denied-columns.customers=city")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void withoutAChatModelStartUpSaysHowToGiveOne() {
        runner.run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("define one Spring AI ChatModel bean"));
    }
}
