package dev.sqlagent.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code sqlagent.*} properties the auto-configuration reads.
 *
 * <pre>
 * sqlagent.policy.allowed-tables=orders,customers
 * sqlagent.policy.denied-columns.customers=email,phone
 * sqlagent.policy.max-rows=500
 * sqlagent.candidates=3
 * sqlagent.judge=true
 * sqlagent.model.base-url=https://api.openai.com/v1
 * sqlagent.model.api-key=${OPENAI_API_KEY}
 * sqlagent.model.name=gpt-4o-mini
 * </pre>
 */
@ConfigurationProperties(prefix = "sqlagent")
public class SqlAgentProperties {

    /** Whether a SqlAgent is configured at all. */
    private boolean enabled = true;
    /** Candidate SQLs the refiner writes per question (1 to 16). */
    private int candidates = 1;
    /** Whether a judge model reviews each chosen result. */
    private boolean judge;
    /** Whether the single correction may happen. */
    private boolean correction = true;
    /** Time allowed for one statement; at least one second. Unset: the library's default. */
    private Duration queryTimeout;
    private final Policy policy = new Policy();
    private final Model model = new Model();
    private final Budget budget = new Budget();
    private final Audit audit = new Audit();

    /** Creates properties holding the defaults, for Spring to bind {@code sqlagent.*} onto. */
    public SqlAgentProperties() {
    }

    /** {@return whether a SqlAgent is configured} */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * Sets whether a SqlAgent is configured at all ({@code sqlagent.enabled}, default true).
     *
     * @param enabled whether a SqlAgent is configured
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** {@return candidate SQLs per question} */
    public int getCandidates() {
        return candidates;
    }

    /**
     * Sets how many candidate SQLs the refiner writes per question ({@code sqlagent.candidates}, default 1).
     *
     * @param candidates candidate SQLs per question, 1 to 16
     */
    public void setCandidates(int candidates) {
        this.candidates = candidates;
    }

    /** {@return whether a judge reviews results} */
    public boolean isJudge() {
        return judge;
    }

    /**
     * Sets whether a judge model reviews each chosen result ({@code sqlagent.judge}, default false).
     *
     * @param judge whether a judge reviews results
     */
    public void setJudge(boolean judge) {
        this.judge = judge;
    }

    /** {@return whether the single correction may happen} */
    public boolean isCorrection() {
        return correction;
    }

    /**
     * Sets whether the single correction may happen ({@code sqlagent.correction}, default true).
     *
     * @param correction whether the single correction may happen
     */
    public void setCorrection(boolean correction) {
        this.correction = correction;
    }

    /** {@return the statement timeout, or null for the library's default} */
    public Duration getQueryTimeout() {
        return queryTimeout;
    }

    /**
     * Sets the time allowed for one statement ({@code sqlagent.query-timeout}); unset, the library's default
     * applies.
     *
     * @param queryTimeout the statement timeout, at least one second
     */
    public void setQueryTimeout(Duration queryTimeout) {
        this.queryTimeout = queryTimeout;
    }

    /** {@return the guard policy's properties} */
    public Policy getPolicy() {
        return policy;
    }

    /** {@return the model's properties} */
    public Model getModel() {
        return model;
    }

    /**
     * Returns the per-question budget's properties.
     *
     * @return {@code sqlagent.budget.*}
     */
    public Budget getBudget() {
        return budget;
    }

    /**
     * Returns the privilege audit's properties.
     *
     * @return {@code sqlagent.audit.*}
     */
    public Audit getAudit() {
        return audit;
    }

    /** {@code sqlagent.policy.*}: what model-written SQL may read. */
    public static class Policy {
        /** Tables the SQL may read; required unless a GuardPolicy bean is defined. */
        private List<String> allowedTables = new ArrayList<>();
        /** Per table, columns that may never be read. */
        private Map<String, List<String>> deniedColumns = new LinkedHashMap<>();
        /** Row cap of every result. Unset: the library's default (1000). */
        private Integer maxRows;
        /** Whether {@code SELECT *} is allowed. */
        private boolean allowSelectStar;

        /** Creates policy properties holding the defaults: no table allowed, no column denied. */
        public Policy() {
        }

        /** {@return the allowed tables} */
        public List<String> getAllowedTables() {
            return allowedTables;
        }

        /**
         * Sets the tables the SQL may read ({@code sqlagent.policy.allowed-tables}).
         *
         * @param allowedTables the allowed tables
         */
        public void setAllowedTables(List<String> allowedTables) {
            this.allowedTables = allowedTables;
        }

        /** {@return denied columns by table} */
        public Map<String, List<String>> getDeniedColumns() {
            return deniedColumns;
        }

        /**
         * Sets, per table, the columns that may never be read
         * ({@code sqlagent.policy.denied-columns.<table>}).
         *
         * @param deniedColumns denied columns by table
         */
        public void setDeniedColumns(Map<String, List<String>> deniedColumns) {
            this.deniedColumns = deniedColumns;
        }

        /** {@return the row cap, or null for the default} */
        public Integer getMaxRows() {
            return maxRows;
        }

        /**
         * Sets the row cap of every result ({@code sqlagent.policy.max-rows}); unset, the library's default
         * applies.
         *
         * @param maxRows the row cap, at least 1
         */
        public void setMaxRows(Integer maxRows) {
            this.maxRows = maxRows;
        }

        /** {@return whether {@code SELECT *} is allowed} */
        public boolean isAllowSelectStar() {
            return allowSelectStar;
        }

        /**
         * Sets whether {@code SELECT *} is allowed ({@code sqlagent.policy.allow-select-star}, default
         * false).
         *
         * @param allowSelectStar whether {@code SELECT *} is allowed
         */
        public void setAllowSelectStar(boolean allowSelectStar) {
            this.allowSelectStar = allowSelectStar;
        }
    }

    /** {@code sqlagent.model.*}: the OpenAI-compatible endpoint used unless an LlmClient bean is defined. */
    public static class Model {
        /** Base URL of the OpenAI-compatible API, e.g. https://api.openai.com/v1 or a local server's. */
        private String baseUrl;
        /** API key, sent as a bearer token; empty for local servers. */
        private String apiKey;
        /** Model name sent with every request. */
        private String name;
        /** Time allowed for one model call. Unset: the client's default (60 s). */
        private Duration timeout;

        /** Creates model properties with nothing set. */
        public Model() {
        }

        /** {@return the base URL} */
        public String getBaseUrl() {
            return baseUrl;
        }

        /**
         * Sets the base URL of the OpenAI-compatible API ({@code sqlagent.model.base-url}).
         *
         * @param baseUrl the base URL
         */
        public void setBaseUrl(String baseUrl) {
            this.baseUrl = baseUrl;
        }

        /** {@return the API key} */
        public String getApiKey() {
            return apiKey;
        }

        /**
         * Sets the API key, sent as a bearer token ({@code sqlagent.model.api-key}); empty for local servers.
         *
         * @param apiKey the API key
         */
        public void setApiKey(String apiKey) {
            this.apiKey = apiKey;
        }

        /** {@return the model name} */
        public String getName() {
            return name;
        }

        /**
         * Sets the model name sent with every request ({@code sqlagent.model.name}).
         *
         * @param name the model name
         */
        public void setName(String name) {
            this.name = name;
        }

        /** {@return the call timeout, or null for the default} */
        public Duration getTimeout() {
            return timeout;
        }

        /**
         * Sets the time allowed for one model call ({@code sqlagent.model.timeout}); unset, the client's
         * default applies.
         *
         * @param timeout the call timeout
         */
        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        @Override
        public String toString() {
            // never the key
            return "Model{baseUrl=" + baseUrl + ", name=" + name + ", apiKey=" + (apiKey == null || apiKey.isBlank()
                    ? "none" : "set") + '}';
        }
    }

    /** {@code sqlagent.audit.*}: the privilege audit of the database login at start-up. */
    public static class Audit {

        /** Whether the database login's privileges are audited at start-up (a wider login is logged at WARN). */
        private boolean enabled = true;

        /** Creates the properties with the audit on. */
        public Audit() {
        }

        /** {@return whether the login is audited at start-up} */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether the database login is audited at start-up ({@code sqlagent.audit.enabled}, default true).
         *
         * @param enabled whether to audit
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** {@code sqlagent.budget.*}: what one question may spend; unset limits are not applied. */
    public static class Budget {

        /** The most model calls per question. */
        private Integer maxModelCalls;
        /** The most tokens (input plus output) per question. */
        private Long maxTokens;
        /** The longest a question may take. */
        private Duration deadline;

        /** Creates the properties with no limit set. */
        public Budget() {
        }

        /** {@return the most model calls per question, or null for no limit} */
        public Integer getMaxModelCalls() {
            return maxModelCalls;
        }

        /**
         * Sets the most model calls per question.
         *
         * @param maxModelCalls at least 1, or null for no limit
         */
        public void setMaxModelCalls(Integer maxModelCalls) {
            this.maxModelCalls = maxModelCalls;
        }

        /** {@return the most tokens per question, or null for no limit} */
        public Long getMaxTokens() {
            return maxTokens;
        }

        /**
         * Sets the most tokens per question.
         *
         * @param maxTokens at least 1, or null for no limit
         */
        public void setMaxTokens(Long maxTokens) {
            this.maxTokens = maxTokens;
        }

        /** {@return the longest a question may take, or null for no limit} */
        public Duration getDeadline() {
            return deadline;
        }

        /**
         * Sets the longest a question may take.
         *
         * @param deadline positive, or null for no limit
         */
        public void setDeadline(Duration deadline) {
            this.deadline = deadline;
        }
    }
}
