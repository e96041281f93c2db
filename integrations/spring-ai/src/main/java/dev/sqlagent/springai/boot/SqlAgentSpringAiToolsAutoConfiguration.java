package dev.sqlagent.springai.boot;

import dev.sqlagent.SqlAgent;
import dev.sqlagent.cases.CaseLibrary;
import dev.sqlagent.springai.SpringAiCaseStore;
import dev.sqlagent.springai.SpringAiEmbedder;
import dev.sqlagent.springai.SqlAgentToolCallback;
import dev.sqlagent.vector.Embedder;
import dev.sqlagent.vector.VectorStore;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigureOrder;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * With Spring AI and {@code sqlagent-spring-ai} on the class path, after {@code SqlAgentAutoConfiguration} (sqlagent-spring-boot-starter)
 * (and, being ordered last, after Spring AI's own auto-configurations): the agent as two Spring AI tools
 * ({@link SqlAgentToolCallback} beans {@code sqlAgentAskTool} and {@code sqlAgentQueryTool}, which a
 * {@code ChatClient} takes with {@code .toolCallbacks(...)}), and the application's single Spring AI
 * {@link EmbeddingModel} as the case library's {@link Embedder} when the host defines none.
 *
 * <p>With a single Spring AI {@code VectorStore} bean, and neither a {@link CaseLibrary} nor a sqlagent
 * {@link VectorStore} bean, the agent's case library lives in that store ({@link SpringAiCaseStore}: the
 * store embeds the cases with its own embedding model, under the namespace
 * {@value SpringAiCaseStore#DEFAULT_NAMESPACE}). {@code sqlagent.spring-ai.vector-store.enabled=false}
 * turns that off. Being ordered after {@code SqlAgentAutoConfiguration}, this configuration sees the case
 * library the starter made over a sqlagent {@code VectorStore} bean and then steps aside.
 */
@AutoConfiguration(afterName = "dev.sqlagent.spring.SqlAgentAutoConfiguration")
@AutoConfigureOrder(Ordered.LOWEST_PRECEDENCE)
@ConditionalOnClass(name = {"org.springframework.ai.tool.ToolCallback", "dev.sqlagent.springai.SqlAgentToolCallback"})
public class SqlAgentSpringAiToolsAutoConfiguration {

    /** Creates the auto-configuration; Spring calls it. */
    public SqlAgentSpringAiToolsAutoConfiguration() {
    }

    /**
     * The tool that answers a question ({@value SqlAgentToolCallback#ASK}).
     *
     * @param agent the agent
     * @return the tool
     */
    @Bean
    @ConditionalOnBean(SqlAgent.class)
    @ConditionalOnMissingBean(name = "sqlAgentAskTool")
    public SqlAgentToolCallback sqlAgentAskTool(SqlAgent agent) {
        return SqlAgentToolCallback.ask(agent);
    }

    /**
     * The tool that runs caller SQL under the policy ({@value SqlAgentToolCallback#QUERY}).
     *
     * @param agent the agent
     * @return the tool
     */
    @Bean
    @ConditionalOnBean(SqlAgent.class)
    @ConditionalOnMissingBean(name = "sqlAgentQueryTool")
    public SqlAgentToolCallback sqlAgentQueryTool(SqlAgent agent) {
        return SqlAgentToolCallback.query(agent);
    }

    /**
     * The case library, in the application's Spring AI vector store.
     *
     * @param store the Spring AI vector store
     * @return the library
     */
    @Bean
    @ConditionalOnMissingBean({CaseLibrary.class, VectorStore.class})
    @ConditionalOnSingleCandidate(org.springframework.ai.vectorstore.VectorStore.class)
    @ConditionalOnProperty(prefix = "sqlagent.spring-ai.vector-store", name = "enabled", matchIfMissing = true)
    public CaseLibrary sqlAgentSpringAiCaseLibrary(org.springframework.ai.vectorstore.VectorStore store) {
        return SpringAiCaseStore.over(store).caseLibrary().build();
    }

    /**
     * The case library's embedder: the application's Spring AI embedding model.
     *
     * @param model the embedding model
     * @return the embedder
     */
    @Bean
    @ConditionalOnMissingBean(Embedder.class)
    @ConditionalOnSingleCandidate(EmbeddingModel.class)
    public Embedder sqlAgentSpringAiEmbedder(EmbeddingModel model) {
        return SpringAiEmbedder.of(model);
    }
}
