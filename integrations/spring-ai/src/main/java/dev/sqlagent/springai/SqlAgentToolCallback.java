package dev.sqlagent.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sqlagent.AgentResult;
import dev.sqlagent.AnswerText;
import dev.sqlagent.SqlAgent;
import java.util.Objects;
import java.util.function.Consumer;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * The governed agent as a Spring AI tool ({@link ToolCallback}), for a {@code ChatClient} or any model
 * that calls tools.
 *
 * <pre>{@code
 * String answer = ChatClient.create(chatModel).prompt("How many orders did Ada place?")
 *     .toolCallbacks(SqlAgentToolCallback.ask(agent))
 *     .call().content();
 * }</pre>
 *
 * <p>Two tools:
 * <ul>
 *   <li>{@link #ask(SqlAgent)} ({@value #ASK}, parameter {@code question}): the chat model passes a
 *       question in natural language; the agent writes, guards, runs and if need be corrects the SQL
 *       ({@link SqlAgent#ask(String)}).</li>
 *   <li>{@link #query(SqlAgent)} ({@value #QUERY}, parameter {@code sql}): the chat model passes SQL of
 *       its own, which goes through the same guard, engine check and read-only, row-capped execution
 *       ({@link SqlAgent#query(String)}) and is never corrected.</li>
 * </ul>
 * Either returns text: the SQL that ran and the rows as a Markdown table; or, on a refusal, the policy's
 * violations with a request not to work around them; or, on a failure, why; with the hand-off (what a
 * person needs to take the question over) as JSON when the agent made one. A call without its argument
 * returns a text saying so. Thread-safe.
 */
public final class SqlAgentToolCallback implements ToolCallback {

    /** Name of the tool that answers a question. */
    public static final String ASK = "sqlagent_ask";
    /** Name of the tool that runs caller SQL. */
    public static final String QUERY = "sqlagent_query";
    /** Default cap on the rows written into an answer. */
    public static final int DEFAULT_MAX_ROWS = 50;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SqlAgent agent;
    private final boolean sql;
    private final ToolDefinition definition;
    private final int maxRows;
    private final Consumer<AgentResult> onResult;

    private SqlAgentToolCallback(Builder b, boolean sql) {
        this.agent = b.agent;
        this.sql = sql;
        this.maxRows = b.maxRows;
        this.onResult = b.onResult;
        String parameter = sql ? "sql" : "question";
        String parameterDescription = sql
                ? "one read-only SQL statement (SELECT) in the database's dialect"
                : "the question, in natural language";
        String description = sql
                ? "Runs one read-only SQL query on the application's database under its data access policy"
                        + " (allowed tables and columns, row filters, a row cap). Returns the rows, or why the"
                        + " query was refused or failed; a refused query must not be rewritten to get the same data."
                : "Answers a question about the data in the application's database. Pass the question in plain"
                        + " language, self-contained (no pronouns referring to earlier turns); do not write SQL."
                        + " Returns the SQL that ran and the rows, or why the question could not be answered.";
        String schema = "{\"type\":\"object\",\"properties\":{\"" + parameter + "\":{\"type\":\"string\","
                + "\"description\":\"" + parameterDescription + "\"}},\"required\":[\"" + parameter + "\"],"
                + "\"additionalProperties\":false}";
        this.definition = ToolDefinition.builder().name(sql ? b.queryName : b.askName).description(description)
                .inputSchema(schema).build();
    }

    /**
     * The question tool with the default settings.
     *
     * @param agent the agent that answers
     * @return the tool
     * @throws NullPointerException if the agent is null
     */
    public static SqlAgentToolCallback ask(SqlAgent agent) {
        return builder(agent).buildAsk();
    }

    /**
     * The SQL tool with the default settings.
     *
     * @param agent the agent that runs the SQL
     * @return the tool
     * @throws NullPointerException if the agent is null
     */
    public static SqlAgentToolCallback query(SqlAgent agent) {
        return builder(agent).buildQuery();
    }

    /**
     * Starts a builder.
     *
     * @param agent the agent
     * @return a builder
     * @throws NullPointerException if the agent is null
     */
    public static Builder builder(SqlAgent agent) {
        return new Builder(agent);
    }

    /** {@return the tool's name, description and JSON schema of its one string parameter} */
    @Override
    public ToolDefinition getToolDefinition() {
        return definition;
    }

    /**
     * Runs the tool.
     *
     * @param toolInput the arguments as JSON, {@code {"question": "..."}} or {@code {"sql": "..."}}
     * @return the answer as text, or why there is none
     * @throws IllegalStateException if the agent is closed
     */
    @Override
    public String call(String toolInput) {
        String parameter = sql ? "sql" : "question";
        String what = sql ? "No SQL was given" : "No question was given";
        Argument a = argument(toolInput, parameter);
        if (a.problem() != null) {
            // a typed reason: the calling model can fix its call from it
            return what + " (" + a.problem() + "). Call the tool with " + example(parameter) + ".";
        }
        AgentResult result = sql ? agent.query(a.value()) : agent.ask(a.value());
        onResult.accept(result);
        return AnswerText.withHandOff(result, maxRows);
    }

    private static String example(String parameter) {
        return parameter.equals("sql") ? "{\"sql\": \"SELECT ...\"}" : "{\"question\": \"...\"}";
    }

    /** The argument, or why there is none (null when there is one). */
    private record Argument(String value, String problem) {
    }

    private static Argument argument(String toolInput, String parameter) {
        if (toolInput == null || toolInput.isBlank()) {
            return new Argument(null, "the arguments are empty");
        }
        JsonNode node;
        try {
            node = JSON.readTree(toolInput);
        } catch (JsonProcessingException e) {
            return new Argument(null, "the arguments are not valid JSON (at line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + ")");
        }
        if (node == null || !node.isObject()) {
            return new Argument(null, "the arguments must be a JSON object, not " + kind(node));
        }
        JsonNode value = node.get(parameter);
        if (value == null) {
            return new Argument(null, "the argument \"" + parameter + "\" is missing");
        }
        if (!value.isTextual()) {
            return new Argument(null, "the argument \"" + parameter + "\" must be a string, not " + kind(value));
        }
        if (value.asText().isBlank()) {
            return new Argument(null, "the argument \"" + parameter + "\" is blank");
        }
        return new Argument(value.asText(), null);
    }

    private static String kind(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return "null";
        }
        if (n.isNumber()) {
            return "a number";
        }
        if (n.isBoolean()) {
            return "a boolean";
        }
        if (n.isArray()) {
            return "an array";
        }
        return n.isObject() ? "an object" : "a string";
    }

    @Override
    public String toString() {
        return "SqlAgentToolCallback{" + definition.name() + '}';
    }

    /** Builds the tools. */
    public static final class Builder {
        private final SqlAgent agent;
        private int maxRows = DEFAULT_MAX_ROWS;
        private Consumer<AgentResult> onResult = r -> { };
        private String askName = ASK;
        private String queryName = QUERY;

        private Builder(SqlAgent agent) {
            this.agent = Objects.requireNonNull(agent, "agent");
        }

        /**
         * Caps the rows written into one answer.
         *
         * @param maxRows the most rows written, at least 1 (default {@value SqlAgentToolCallback#DEFAULT_MAX_ROWS});
         *     the agent's own row cap still applies
         * @return this
         * @throws IllegalArgumentException if below 1
         */
        public Builder maxRows(int maxRows) {
            if (maxRows < 1) {
                throw new IllegalArgumentException("maxRows must be >= 1 but was " + maxRows);
            }
            this.maxRows = maxRows;
            return this;
        }

        /**
         * Sets a listener that receives every result, answered or not.
         *
         * @param listener receives every result, on the calling thread; for audit or metrics
         * @return this
         * @throws NullPointerException if the listener is null
         */
        public Builder onResult(Consumer<AgentResult> listener) {
            this.onResult = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * Renames the tools, for an application with several databases.
         *
         * @param askName the question tool's name (default {@value SqlAgentToolCallback#ASK})
         * @param queryName the SQL tool's name (default {@value SqlAgentToolCallback#QUERY})
         * @return this
         * @throws IllegalArgumentException if a name is not 1 to 64 letters, digits, {@code _} or {@code -}
         */
        public Builder names(String askName, String queryName) {
            this.askName = checkName(askName);
            this.queryName = checkName(queryName);
            return this;
        }

        private static String checkName(String name) {
            if (name == null || !name.matches("[A-Za-z0-9_-]{1,64}")) {
                throw new IllegalArgumentException("a tool name must be 1 to 64 letters, digits, _ or - but was " + name);
            }
            return name;
        }

        /**
         * Builds the question tool.
         *
         * @return the tool
         */
        public SqlAgentToolCallback buildAsk() {
            return new SqlAgentToolCallback(this, false);
        }

        /**
         * Builds the SQL tool.
         *
         * @return the tool
         */
        public SqlAgentToolCallback buildQuery() {
            return new SqlAgentToolCallback(this, true);
        }
    }
}
