/**
 * Adapters between sqlagent and LangChain4j (artifact {@code sqlagent-langchain4j}), in both directions.
 *
 * <p>LangChain4j's parts serving the agent: {@link dev.sqlagent.langchain4j.LangChain4jLlmClient} lets
 * any LangChain4j chat model write the SQL, {@link dev.sqlagent.langchain4j.LangChain4jEmbedder} and
 * {@link dev.sqlagent.langchain4j.LangChain4jVectorStore} let any LangChain4j embedding model and
 * embedding store hold the case library.
 *
 * <p>The agent serving a LangChain4j application: {@link dev.sqlagent.langchain4j.SqlAgentTool} offers
 * it as a tool an AI service may call, and {@link dev.sqlagent.langchain4j.SqlAgentContentRetriever} as
 * a content retriever for retrieval-augmented generation. Either way the chat model passes only a
 * question; the agent's guard policy, read-only execution and single correction stay between the model
 * and the database.
 */
package dev.sqlagent.langchain4j;
