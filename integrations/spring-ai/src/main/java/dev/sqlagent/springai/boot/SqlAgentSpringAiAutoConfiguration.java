package dev.sqlagent.springai.boot;

import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.springai.SpringAiLlmClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * With Spring AI and {@code sqlagent-spring-ai} on the class path: the application's Spring AI
 * {@link ChatModel} writes the agent's SQL ({@link SpringAiLlmClient}) when the host defines no
 * {@link LlmClient} bean and sets no {@code sqlagent.model.base-url}. Runs before
 * {@code SqlAgentAutoConfiguration} (sqlagent-spring-boot-starter), whose OpenAI-compatible client then steps aside. The chat model is
 * looked up when the client is made, so one from any auto-configuration is found; with none, or several,
 * start-up fails naming the ways to give the agent a model. The tools and the embedder come from
 * {@link SqlAgentSpringAiToolsAutoConfiguration}.
 */
@AutoConfiguration(beforeName = "dev.sqlagent.spring.SqlAgentAutoConfiguration")
@ConditionalOnClass(name = {"org.springframework.ai.chat.model.ChatModel", "dev.sqlagent.springai.SpringAiLlmClient"})
@ConditionalOnProperty(prefix = "sqlagent", name = "enabled", matchIfMissing = true)
public class SqlAgentSpringAiAutoConfiguration {

    /** Creates the auto-configuration; Spring calls it. */
    public SqlAgentSpringAiAutoConfiguration() {
    }

    /**
     * The agent's model: the application's Spring AI chat model.
     *
     * @param chatModels the application's chat models
     * @return the client
     * @throws IllegalStateException if there is not exactly one chat model
     */
    @Bean
    @ConditionalOnMissingBean(LlmClient.class)
    @Conditional(NoModelUrl.class)
    public LlmClient sqlAgentSpringAiLlmClient(ObjectProvider<ChatModel> chatModels) {
        ChatModel model = chatModels.getIfUnique();
        if (model == null) {
            throw new IllegalStateException("sqlagent needs a model: define one Spring AI ChatModel bean (found "
                    + chatModels.stream().count() + "), set sqlagent.model.base-url and sqlagent.model.name,"
                    + " or define an LlmClient bean");
        }
        return SpringAiLlmClient.of(model);
    }

    /** Matches when {@code sqlagent.model.base-url} is not set: the host did not ask for the OpenAI-compatible client. */
    static final class NoModelUrl extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            String url = context.getEnvironment().getProperty("sqlagent.model.base-url");
            return url == null || url.isBlank() ? ConditionOutcome.match("sqlagent.model.base-url is not set")
                    : ConditionOutcome.noMatch("sqlagent.model.base-url is set");
        }
    }
}
