package dev.sqlagent.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.cases.CaseLibrary;
import dev.sqlagent.spring.SqlAgentAutoConfiguration;
import dev.sqlagent.springai.boot.SqlAgentSpringAiAutoConfiguration;
import dev.sqlagent.springai.boot.SqlAgentSpringAiToolsAutoConfiguration;
import dev.sqlagent.testkit.ShopDatabase;
import dev.sqlagent.vector.InMemoryVectorStore;
import dev.sqlagent.vector.VectorStore;
import dev.sqlagent.verify.ResultVerifier;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.vectorstore.SearchRequest;
import org.springframework.ai.vectorstore.SimpleVectorStore;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The starter with Spring AI on the class path and the application's Spring AI beans (a chat model, an
 * embedding model and a {@link SimpleVectorStore} over it): the agent's case library lives in the Spring
 * AI store, and a past case is retrieved from it as an example for a later question.
 */
class SpringAiCaseLibraryAutoConfigurationTest {

    private static final String FIRST_SQL = "SELECT name FROM customers ORDER BY id";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SqlAgentAutoConfiguration.class,
                    SqlAgentSpringAiAutoConfiguration.class, SqlAgentSpringAiToolsAutoConfiguration.class))
            .withBean(DataSource.class, ShopDatabase::create)
            .withBean(ResultVerifier.class, ResultVerifier::nonEmpty)
            .withPropertyValues("sqlagent.policy.allowed-tables=customers,orders", "sqlagent.audit.enabled=false");

    @Test
    void theAgentRetrievesAPastCaseThroughTheApplicationsSpringAiStore() {
        ScriptedChatModel model = ScriptedChatModel.text(p -> FIRST_SQL);
        WordsEmbeddingModel embeddings = new WordsEmbeddingModel();
        SimpleVectorStore store = SimpleVectorStore.builder(embeddings).build();
        // the application's own document in the same store, which the cases must neither return nor disturb
        store.add(List.of(new Document("Who are the customers? Our customers are small shops.",
                Map.of("source", "faq"))));
        runner.withBean(ChatModel.class, () -> model).withBean(EmbeddingModel.class, () -> embeddings)
                .withBean(org.springframework.ai.vectorstore.VectorStore.class, () -> store)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    CaseLibrary library = context.getBean(CaseLibrary.class);
                    assertThat(library.store()).isInstanceOf(SpringAiCaseStore.class);
                    SqlAgent agent = context.getBean(SqlAgent.class);

                    AgentResult first = agent.ask("Who are the customers?");
                    assertThat(first).isInstanceOf(AgentResult.Answered.class);
                    assertThat(model.prompts.get(0).getContents()).doesNotContain(FIRST_SQL);
                    // the case is a document of the Spring AI store, embedded by its model as text
                    List<Document> cases = store.similaritySearch(SearchRequest.builder().query("customers")
                            .topK(10).filterExpression("sqlagent_namespace == 'sqlagent'").build());
                    assertThat(cases).hasSize(1);
                    assertThat(cases.get(0).getText()).contains("Who are the customers?");
                    assertThat(cases.get(0).getMetadata()).containsEntry("sql", FIRST_SQL);
                    assertThat(embeddings.embedded).anyMatch(t -> t.contains("Who are the customers?")
                            && t.contains("‖"));

                    AgentResult second = agent.ask("Who are all the customers?");
                    assertThat(second).isInstanceOf(AgentResult.Answered.class);
                    String prompt = model.prompts.get(model.prompts.size() - 1).getContents();
                    assertThat(prompt).contains("Who are the customers?").contains(FIRST_SQL)
                            .doesNotContain("small shops");
                    assertThat(library.retrievalFailures()).isZero();
                });
    }

    @Test
    void theHostsOwnStoreOrLibraryWinsAndThePropertyTurnsItOff() {
        WordsEmbeddingModel embeddings = new WordsEmbeddingModel();
        ApplicationContextRunner withSpringAi = runner.withBean(ChatModel.class, () -> ScriptedChatModel.text(p -> FIRST_SQL))
                .withBean(EmbeddingModel.class, () -> embeddings)
                .withBean(org.springframework.ai.vectorstore.VectorStore.class,
                        () -> SimpleVectorStore.builder(embeddings).build());
        withSpringAi.withBean("casesStore", VectorStore.class, () -> new InMemoryVectorStore(64)).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBeansOfType(CaseLibrary.class)).containsOnlyKeys("sqlAgentCaseLibrary");
            assertThat(context.getBean(CaseLibrary.class).store()).isInstanceOf(InMemoryVectorStore.class);
        });
        CaseLibrary own = CaseLibrary.builder().build();
        withSpringAi.withBean(CaseLibrary.class, () -> own)
                .run(context -> assertThat(context.getBean(CaseLibrary.class)).isSameAs(own));
        withSpringAi.withPropertyValues("sqlagent.spring-ai.vector-store.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(CaseLibrary.class));
    }
}
