package dev.sqlagent.springai.boot;

import dev.sqlagent.SqlAgent;
import dev.sqlagent.springai.SpringAiEmbedder;
import dev.sqlagent.springai.SqlAgentToolCallback;
import dev.sqlagent.vector.Embedder;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigureOrder;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
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
 * <p>A Spring AI {@code VectorStore} bean is not wired into the case library: Spring AI's stores embed
 * texts with their own model, and sqlagent's store hands them vectors. Define a
 * {@link dev.sqlagent.springai.SpringAiVectorStore} bean over a store built with a
 * {@link dev.sqlagent.springai.VectorCodec}; as a {@code VectorStore} bean it becomes the case library's.
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
