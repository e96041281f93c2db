/**
 * Adapters between sqlagent and Spring AI 1.1 (artifact {@code sqlagent-spring-ai}), in both directions.
 *
 * <p>Spring AI's parts serving the agent: {@link dev.sqlagent.springai.SpringAiLlmClient} lets any Spring AI
 * chat model write the SQL, {@link dev.sqlagent.springai.SpringAiEmbedder} and
 * {@link dev.sqlagent.springai.SpringAiVectorStore} (with {@link dev.sqlagent.springai.VectorCodec}) let any
 * Spring AI embedding model and vector store hold the case library.
 *
 * <p>The agent serving a Spring AI application: {@link dev.sqlagent.springai.SqlAgentToolCallback} offers
 * it as tools a chat model may call, one taking a question and one taking SQL. Either way the agent's
 * guard policy, engine check and read-only execution stay between the model and the database.
 */
package dev.sqlagent.springai;
