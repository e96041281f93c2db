package dev.sqlagent.langchain4j;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import dev.sqlagent.AgentResult;
import dev.sqlagent.AnswerText;
import dev.sqlagent.SqlAgent;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The governed agent as a LangChain4j {@link ContentRetriever}: a drop-in for LangChain4j's
 * {@code SqlDatabaseContentRetriever} in a retrieval-augmented AI service, with the agent's guard
 * policy, read-only execution, row cap and single correction between the model and the database.
 *
 * <pre>{@code
 * Assistant assistant = AiServices.builder(Assistant.class)
 *     .chatModel(chatModel)
 *     .contentRetriever(SqlAgentContentRetriever.of(agent))
 *     .build();
 * }</pre>
 *
 * <p>Each query is one {@link SqlAgent#ask(String)}. An answer becomes one {@link Content}: the
 * question, the SQL that ran and the rows as a Markdown table (at most {@link Builder#maxRows} rows),
 * with metadata {@code sqlagent_status}, {@code sqlagent_sql} and {@code sqlagent_question_id}. A
 * rejected or failed question yields no content by default, as a retriever that found nothing; with
 * {@link Builder#reportFailures(boolean) reportFailures(true)} it yields one content saying why, so
 * that the assistant can tell the user instead of guessing. Every result also goes to the
 * {@link Builder#onResult listener}, for audit. Thread-safe.
 */
public final class SqlAgentContentRetriever implements ContentRetriever {

    /** Metadata key of the result's status ({@code ANSWERED}, {@code REJECTED}, {@code FAILED}). */
    public static final String STATUS = "sqlagent_status";
    /** Metadata key of the SQL that ran, or was refused or failed. */
    public static final String SQL = "sqlagent_sql";
    /** Metadata key of the question's id, the id of its trace and case. */
    public static final String QUESTION_ID = "sqlagent_question_id";
    /** Default cap on the rows written into a content. */
    public static final int DEFAULT_MAX_ROWS = 50;

    private final SqlAgent agent;
    private final int maxRows;
    private final boolean reportFailures;
    private final Consumer<AgentResult> onResult;

    private SqlAgentContentRetriever(Builder b) {
        this.agent = b.agent;
        this.maxRows = b.maxRows;
        this.reportFailures = b.reportFailures;
        this.onResult = b.onResult;
    }

    /**
     * A retriever with the default settings.
     *
     * @param agent the agent that answers
     * @return the retriever
     * @throws NullPointerException if the agent is null
     */
    public static SqlAgentContentRetriever of(SqlAgent agent) {
        return builder(agent).build();
    }

    /**
     * Starts a builder.
     *
     * @param agent the agent that answers
     * @return a builder
     * @throws NullPointerException if the agent is null
     */
    public static Builder builder(SqlAgent agent) {
        return new Builder(agent);
    }

    /**
     * Asks the agent the query's text.
     *
     * @param query the query
     * @return one content for an answer; none, or one explaining why, for a rejection or failure
     * @throws NullPointerException if the query is null
     */
    @Override
    public List<Content> retrieve(Query query) {
        Objects.requireNonNull(query, "query");
        AgentResult result = agent.ask(query.text());
        onResult.accept(result);
        if (result.status() != AgentResult.Status.ANSWERED && !reportFailures) {
            return List.of();
        }
        Metadata metadata = new Metadata()
                .put(STATUS, result.status().name())
                .put(QUESTION_ID, result.trace().questionId());
        result.sql().ifPresent(sql -> metadata.put(SQL, sql));
        return List.of(Content.from(TextSegment.from(AnswerText.of(result, maxRows), metadata)));
    }

    /** Builds a {@link SqlAgentContentRetriever}. */
    public static final class Builder {
        private final SqlAgent agent;
        private int maxRows = DEFAULT_MAX_ROWS;
        private boolean reportFailures;
        private Consumer<AgentResult> onResult = r -> { };

        private Builder(SqlAgent agent) {
            this.agent = Objects.requireNonNull(agent, "agent");
        }

        /**
         * Caps the rows written into one content.
         *
         * @param maxRows the most rows written into a content, at least 1 (default
         *     {@value SqlAgentContentRetriever#DEFAULT_MAX_ROWS}); the agent's own row cap still applies
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
         * Chooses whether a rejected or failed question yields a content that says why, so the assistant can
         * tell the user.
         *
         * @param enabled whether a rejection or failure yields a content saying why (default false: no
         *     content)
         * @return this
         */
        public Builder reportFailures(boolean enabled) {
            this.reportFailures = enabled;
            return this;
        }

        /**
         * Sets a listener that receives every result, answered or not.
         *
         * @param listener receives every result, on the retrieving thread; for audit or metrics
         * @return this
         * @throws NullPointerException if the listener is null
         */
        public Builder onResult(Consumer<AgentResult> listener) {
            this.onResult = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * Builds the retriever.
         *
         * @return the retriever
         */
        public SqlAgentContentRetriever build() {
            return new SqlAgentContentRetriever(this);
        }
    }
}
