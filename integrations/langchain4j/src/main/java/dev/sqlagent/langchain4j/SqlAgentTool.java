package dev.sqlagent.langchain4j;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.sqlagent.AgentResult;
import dev.sqlagent.AnswerText;
import dev.sqlagent.SqlAgent;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The governed agent as a LangChain4j tool: an AI service decides when a question needs the database
 * and calls {@link #queryDatabase(String)}; the agent writes, guards, runs and if need be corrects the
 * SQL, and the tool returns the rows as text (or why there are none).
 *
 * <pre>{@code
 * Assistant assistant = AiServices.builder(Assistant.class)
 *     .chatModel(chatModel)
 *     .tools(new SqlAgentTool(agent))
 *     .build();
 * }</pre>
 *
 * <p>The chat model never sees or writes SQL for the database itself: it only passes a question. A
 * rejected question comes back as a refusal that tells the model not to work around it. Thread-safe.
 */
public final class SqlAgentTool {

    private final SqlAgent agent;
    private final int maxRows;
    private final Consumer<AgentResult> onResult;

    /**
     * A tool writing at most {@value SqlAgentContentRetriever#DEFAULT_MAX_ROWS} rows per answer.
     *
     * @param agent the agent that answers
     * @throws NullPointerException if the agent is null
     */
    public SqlAgentTool(SqlAgent agent) {
        this(agent, SqlAgentContentRetriever.DEFAULT_MAX_ROWS, r -> { });
    }

    /**
     * A tool with its own row cap and a listener for every result.
     *
     * @param agent the agent that answers
     * @param maxRows the most rows written into an answer, at least 1
     * @param onResult receives every result, on the calling thread
     * @throws NullPointerException if the agent or the listener is null
     * @throws IllegalArgumentException if {@code maxRows} is below 1
     */
    public SqlAgentTool(SqlAgent agent, int maxRows, Consumer<AgentResult> onResult) {
        this.agent = Objects.requireNonNull(agent, "agent");
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be >= 1 but was " + maxRows);
        }
        this.maxRows = maxRows;
        this.onResult = Objects.requireNonNull(onResult, "onResult");
    }

    /**
     * Answers a question from the database.
     *
     * @param question the question in natural language
     * @return the SQL and the rows as a Markdown table, or why there is no answer
     */
    @Tool(name = "query_database", value = {
        "Answers a question about the data in the application's database. Pass the question in plain",
        "language, self-contained (no pronouns referring to earlier turns); do not write SQL. Returns the",
        "SQL that ran and the rows, or why the question could not be answered."})
    public String queryDatabase(@P(name = "question", value = "the question, in natural language") String question) {
        if (question == null || question.isBlank()) {
            return "No question was given.";
        }
        AgentResult result = agent.ask(question);
        onResult.accept(result);
        return AnswerText.of(result, maxRows);
    }
}
